/** A project on TypeScript 5 or 6: its program, in-process, as tsc builds it. */
import ts from "typescript";
import { Ts5Checker } from "./checker";
import { ContractCompiler } from "../compile";
import type { RegistrationKind } from "../registration";
import type { Reported } from "../format";
import { UserError, type Built, type CompiledCall, type CompiledFormCall, type Session } from "../session";

/** The project's program, as tsc would build it (nothing is emitted). */
export function loadProject(configFile: string): {
  program: ts.Program;
  configDiagnostics: ts.Diagnostic[];
  parsed: ts.ParsedCommandLine;
} {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new UserError(
          `cannot read ${configFile}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")}`,
        );
      },
    },
  );
  if (!parsed) throw new UserError(`cannot read ${configFile}`);
  const program = ts.createProgram({
    rootNames: parsed.fileNames,
    options: parsed.options,
    projectReferences: parsed.projectReferences,
    configFileParsingDiagnostics: parsed.errors,
  });
  return { program, configDiagnostics: [...parsed.errors], parsed };
}

/** The project's own sources: not declaration files, not the default libraries, not node_modules, not JSON. */
function ownSourceFiles(program: ts.Program): ts.SourceFile[] {
  return program
    .getSourceFiles()
    .filter(
      (file) =>
        !file.isDeclarationFile &&
        !program.isSourceFileDefaultLibrary(file) &&
        !program.isSourceFileFromExternalLibrary(file) &&
        !file.fileName.endsWith(".json"),
    );
}

export class Ts5Session implements Session {
  readonly version = ts.version;
  program!: ts.Program;
  configDiagnostics!: ts.Diagnostic[];

  constructor(readonly configFile: string) {
    this.update();
  }

  update(): void {
    const { program, configDiagnostics } = loadProject(this.configFile);
    this.program = program;
    this.configDiagnostics = configDiagnostics;
  }

  get compilerOptions(): Readonly<Record<string, unknown>> {
    return this.program.getCompilerOptions();
  }

  compileProject(): CompiledCall[] {
    const compiler = new ContractCompiler(new Ts5Checker(this.program.getTypeChecker(), this.program));
    const compiled: CompiledCall[] = [];
    for (const file of ownSourceFiles(this.program)) {
      for (const { call, registration } of compiler.registrationsIn(file))
        compiled.push({ call, registration, ...compiler.compileSafely(call, registration) });
    }
    return compiled;
  }

  compileForms(): CompiledFormCall[] {
    const compiler = new ContractCompiler(new Ts5Checker(this.program.getTypeChecker(), this.program));
    return ownSourceFiles(this.program).flatMap((file) =>
      compiler.formsIn(file).map((call) => ({ call, ...compiler.compileFormSafely(call) })),
    );
  }

  compilerDiagnostics(): Reported[] {
    return [...ts.getPreEmitDiagnostics(this.program)];
  }

  /** `typemcp build` on TypeScript 5 or 6: the program emitted with typemcp's transformer, as tspc builds it. */
  build(): Built {
    const { createTransformer } = require("./transform") as typeof import("./transform");
    const program = this.program;
    const diagnostics: Reported[] = [...this.configDiagnostics, ...ts.getPreEmitDiagnostics(program)];
    const registrations: RegistrationKind[] = [];
    const options = program.getCompilerOptions();
    const blocked =
      options.noEmitOnError === true && diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error);
    if (!blocked) {
      const transformer = createTransformer(program, {
        addDiagnostic: (d) => diagnostics.push(d),
        compiled: (registration) => registrations.push(registration.registers),
      });
      diagnostics.push(...program.emit(undefined, undefined, undefined, false, { before: [transformer] }).diagnostics);
    }
    // tsc's own diagnostics are printed with typemcp's: no tsc runs.
    return { compilerOutput: "", compilerErrors: 0, compilerFailed: false, diagnostics, registrations };
  }

  close(): void {}
}
