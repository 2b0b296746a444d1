import * as path from "node:path";
import * as ts from "typescript";
// From the sources, in both tiers: test/global-setup.ts loads this outside jest's module mapping.
import { createTransformer } from "../../transformer";
import { withTypemcpFromSources } from "./package-types";
import { ROOT } from "./root";

export { ROOT };

export interface DiagnosticSummary {
  file: string;
  line: number;
  column: number;
  category: "error" | "warning" | "suggestion" | "message";
  code: number;
  message: string;
}

export interface BuildResult {
  program: ts.Program;
  /** The compiler's own diagnostics (type errors in the sources). */
  compilerDiagnostics: ts.Diagnostic[];
  /** typemcp's diagnostics, in the order the transformer reported them. */
  typemcpDiagnostics: ts.Diagnostic[];
}

/** How tsc (and so tspc) parses JSDoc: that of TypeScript files is skipped; typemcp parses the comments it reads itself. */
export const TSC_JSDOC_PARSING = ts.JSDocParsingMode.ParseForTypeErrors;

/** A compiler host that parses as tsc does (see TSC_JSDOC_PARSING). */
export function tscCompilerHost(options: ts.CompilerOptions, jsDocParsingMode = TSC_JSDOC_PARSING): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.jsDocParsingMode = jsDocParsingMode;
  return host;
}

/**
 * Builds a tsconfig project with the typemcp transformer, as tspc would (one program,
 * `before` transformer, typemcp's diagnostics collected), and writes its output. `typemcp`
 * resolves to the runtime's sources' declarations (test/support/package-types.ts).
 */
export function buildProject(tsconfigPath: string, overrides: ts.CompilerOptions = {}): BuildResult {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigPath, overrides, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error(`cannot read ${tsconfigPath}`);
  const host = withTypemcpFromSources(tscCompilerHost(parsed.options), parsed.options);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  const compilerDiagnostics = [...ts.getPreEmitDiagnostics(program)];
  const typemcpDiagnostics: ts.Diagnostic[] = [];
  const emitted = program.emit(undefined, undefined, undefined, false, {
    before: [createTransformer(program, { addDiagnostic: (d) => typemcpDiagnostics.push(d) })],
  });
  compilerDiagnostics.push(...emitted.diagnostics);
  return { program, compilerDiagnostics, typemcpDiagnostics };
}

const CATEGORY: Record<ts.DiagnosticCategory, DiagnosticSummary["category"]> = {
  [ts.DiagnosticCategory.Error]: "error",
  [ts.DiagnosticCategory.Warning]: "warning",
  [ts.DiagnosticCategory.Suggestion]: "suggestion",
  [ts.DiagnosticCategory.Message]: "message",
};

/** A diagnostic as the fixtures record it: file relative to `base`, 1-based line and column. */
export function summarize(diagnostic: ts.Diagnostic, base: string): DiagnosticSummary {
  const file = diagnostic.file!;
  const { line, character } = file.getLineAndCharacterOfPosition(diagnostic.start!);
  return {
    file: path.relative(base, file.fileName),
    line: line + 1,
    column: character + 1,
    category: CATEGORY[diagnostic.category],
    code: diagnostic.code,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"),
  };
}

export function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => ROOT,
    getNewLine: () => "\n",
  });
}
