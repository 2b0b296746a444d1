/**
 * A project on TypeScript 7, read through its checker API: one compiler process (`tsc --api`)
 * holds the program; typemcp asks it about the registrations' types (transformer/ts7/checker.ts)
 * and for the compiler's own diagnostics. What the builds read (build.ts, emit.ts); the session
 * that builds with them is session.ts.
 */
import * as fs from "node:fs";
import type * as ts from "typescript";
import { isApiStopFailure, type ApiChecker, type ApiProgram, type ApiRequest } from "./api";
import { memo } from "./answers";
import { Ts7Checker } from "./checker";
import { loadTs7Modules, type Ts7Modules } from "./modules";
import { failedRegistration, ContractCompiler } from "../compile";
import { DiagnosticCategory } from "../checker/flags";
import { DiagnosticCode } from "../diagnostic-codes";
import { diagnosticAt } from "../diagnostics";
import { ELICIT } from "../form/elicit";
import { functionIndex, METHODS, type Registration } from "../registration";
import type { Chain, Reported } from "../format";
import { UserError, type CompiledCall, type CompiledFormCall, type FileChanges, type Session } from "../session";

/** A diagnostic as the API reports it. */
interface ApiDiagnostic {
  fileName?: string;
  pos: number;
  end: number;
  code: number;
  category: number;
  text: string;
  messageChain?: readonly ApiDiagnostic[];
  relatedInformation?: readonly ApiDiagnostic[];
}

interface ApiSourceFile extends ts.SourceFile {
  readonly text: string;
}

/** What TypeScript 7.1 emits for a project (`emitToString`): every output file's text, nothing written. */
export interface ApiEmitOutput {
  readonly emitSkipped: boolean;
  readonly diagnostics: readonly ApiDiagnostic[];
  readonly outputFiles: ReadonlyMap<string, { readonly text: string }>;
}

interface ApiProgramFull extends ApiProgram {
  getSourceFile(file: string): ApiSourceFile | undefined;
  emitToString?(): ApiEmitOutput;
  getSourceFileNames(): readonly string[];
  getCompilerOptions(): Record<string, unknown>;
  getConfigFileParsingDiagnostics(): readonly ApiDiagnostic[];
  getProgramDiagnostics(): readonly ApiDiagnostic[];
  getGlobalDiagnostics(): readonly ApiDiagnostic[];
  getSyntacticDiagnostics(): readonly ApiDiagnostic[];
  getSemanticDiagnostics(): readonly ApiDiagnostic[];
  getDeclarationDiagnostics(): readonly ApiDiagnostic[];
}

/** A project of a snapshot: 7.0 gives its compiler options, 7.1 its parsed tsconfig.json. */
interface ApiProject {
  readonly configFileName: string;
  readonly compilerOptions?: Record<string, unknown>;
  readonly parsedCommandLine?: { options: Record<string, unknown> };
  readonly program: ApiProgramFull;
  readonly checker: ApiChecker;
}

/** 7.0 finds a project by its tsconfig.json with `getProject`; 7.1 with `getConfiguredProject` (its `getProject` takes an id). */
interface ApiSnapshot {
  getProject(configFileName: string): ApiProject | undefined;
  getConfiguredProject?(configFileName: string): ApiProject | undefined;
  getProjects(): readonly ApiProject[];
  dispose(): void;
}

/** tsconfig.json as the API parses it (7.1 adds the files it names and what was wrong in it). */
interface ParsedConfig {
  options: Record<string, unknown>;
  fileNames?: readonly string[];
  projectReferences?: readonly unknown[];
  errors?: readonly ApiDiagnostic[];
}

/** A program 7.1 creates from root files and options rather than from a tsconfig.json. */
interface ProgramToCreate {
  rootFiles: readonly string[];
  compilerOptions: Record<string, unknown>;
}

/** The API (files changed on disk since the last snapshot: 7.0's `fileChanges`, 7.1's `fileNotifications`): 7.0 makes each snapshot with `updateSnapshot`, 7.1 with `createSnapshot` (its `updateSnapshot` is internal). */
interface Api {
  parseConfigFile(file: string): ParsedConfig;
  updateSnapshot(params: { openProjects: string[]; fileChanges?: FileChanges }): ApiSnapshot;
  createSnapshot?(params: {
    openProjects?: string[];
    createPrograms?: ProgramToCreate[];
    fileNotifications?: FileChanges;
  }): ApiSnapshot;
  close(): void;
  clearSourceFileCache(): void;
  /** 7.1: questions in their batched form, asked in one round trip. */
  batch?(...requests: ApiRequest<unknown>[]): unknown[];
}

/**
 * Options under which TypeScript 7.1's emit through the API is not what its `tsc -p` writes:
 * incremental builds (tsc writes a .tsbuildinfo and re-emits only what changed; the API's emit
 * writes no .tsbuildinfo), project references (tsc -p resolves them to their outputs through
 * the tsconfig's `references`), and options that make tsc print more than diagnostics. Such a
 * project is built by tsc, as on 7.0.
 */
const TSC_ONLY_OPTIONS = [
  "incremental",
  "composite",
  "tsBuildInfoFile",
  "listFiles",
  "listEmittedFiles",
  "explainFiles",
  "traceResolution",
  "diagnostics",
  "extendedDiagnostics",
  "generateTrace",
  "generateCpuProfile",
];

/** A snapshot with the project open (and the changed files read again), on 7.0's API or 7.1's. */
function openSnapshot(api: Api, configFile: string, changed?: FileChanges): ApiSnapshot {
  if (api.createSnapshot) return api.createSnapshot({ openProjects: [configFile], fileNotifications: changed });
  return api.updateSnapshot({ openProjects: [configFile], fileChanges: changed });
}

/** The compiler process behind the API stopped (a panic): `at` is the registration it stopped on, if one. */
class ApiStopped extends Error {
  constructor(
    readonly failure: unknown,
    readonly at?: { call: ts.CallExpression; registration: Registration },
  ) {
    super("TypeScript 7's API process stopped");
  }
}

/** The project's own sources: not declaration files, not JSON, nothing from node_modules or TypeScript's libraries. */
function isOwnSource(fileName: string): boolean {
  return (
    !/\.d\.[cm]?ts$|\.json$/.test(fileName) &&
    !fileName.includes("/node_modules/") &&
    !fileName.startsWith("bundled:") &&
    !fileName.includes("/bundled:/")
  );
}

/** Everything a session is on TypeScript 7 but its build (session.ts), which reads it. */
export class Ts7Project implements Omit<Session, "build"> {
  private api: Api;
  private snapshot?: ApiSnapshot;
  private opened?: ApiProject;
  /** tsconfig.json as the compiler reads it: known before the project is loaded (tsc can start meanwhile). */
  private config: ParsedConfig;
  private files = new Map<string, ApiSourceFile>();
  readonly modules: Ts7Modules;
  /**
   * The build emits through the API, in this one compiler process (TypeScript 7.1 and later,
   * asked for by `typemcp build`): the project is opened as a program of the files and options
   * of its tsconfig.json, with source maps whether it writes them or not (they say where each
   * contract goes; see transformer/ts7/build.ts), and `emit` gives its output. Otherwise tsc emits.
   */
  readonly emitsInProcess: boolean;

  constructor(
    readonly configFile: string,
    directory: string,
    options: { emit?: boolean } = {},
  ) {
    this.modules = loadTs7Modules(directory);
    this.api = new this.modules.sync.API({ cwd: process.cwd() }) as Api;
    this.config = this.api.parseConfigFile(configFile);
    this.emitsInProcess =
      options.emit === true &&
      this.api.createSnapshot !== undefined &&
      this.config.fileNames !== undefined &&
      !this.config.projectReferences?.length &&
      !TSC_ONLY_OPTIONS.some((name) => this.config.options[name] !== undefined && this.config.options[name] !== false);
  }

  /** Whether the project writes source maps itself (else the build asks for them, and removes them). */
  get writesSourceMaps(): boolean {
    return this.config.options.sourceMap === true || this.config.options.inlineSourceMap === true;
  }

  /** The project, loaded on first use. */
  private get project(): ApiProject {
    if (!this.opened) this.open();
    return this.opened!;
  }

  get version(): string {
    return this.modules.version;
  }

  private open(changed?: FileChanges): void {
    this.snapshot = this.emitsInProcess
      ? this.api.createSnapshot!({
          createPrograms: [
            {
              rootFiles: this.config.fileNames!,
              compilerOptions: { ...this.config.options, ...(!this.writesSourceMaps && { sourceMap: true }) },
            },
          ],
          fileNotifications: changed,
        })
      : openSnapshot(this.api, this.configFile, changed);
    const project = this.emitsInProcess
      ? this.snapshot.getProjects()[0]
      : ((this.snapshot.getConfiguredProject
          ? this.snapshot.getConfiguredProject(this.configFile)
          : this.snapshot.getProject(this.configFile)) ?? this.snapshot.getProjects()[0]);
    if (!project) throw new UserError(`cannot read ${this.configFile}`);
    this.opened = project;
    this.files = new Map();
    this.semantic = undefined;
    this.current = undefined;
  }

  /** Files changed on disk: a new snapshot (the compiler process re-reads what changed). */
  update(changes: FileChanges): void {
    this.snapshot?.dispose();
    // The client keeps the syntax trees it fetched, by file: a changed file's must be fetched again.
    this.api.clearSourceFileCache();
    // A program made from the tsconfig's files: a file added or removed changes them.
    if (this.emitsInProcess) this.config = this.api.parseConfigFile(this.configFile);
    this.open(changes);
  }

  get compilerOptions(): Record<string, unknown> {
    // The program's own options hold the source maps the build asked for: the project's are these.
    if (this.emitsInProcess) return this.config.options;
    const opened = this.opened && (this.opened.compilerOptions ?? this.opened.parsedCommandLine?.options);
    return opened ?? this.config.options;
  }

  /**
   * The project's own files' syntax trees, one request each: 7.1's `api.batch` would send them
   * in one, but returns them as JSON rather than the binary a lone `getSourceFile` answers, and
   * decodes every tree at once: at 500 files measured slower (5.3 s against 0.6 s, load average
   * 25; docs/typescript-7.md#speed).
   */
  ownSourceFiles(): ApiSourceFile[] {
    return this.project.program
      .getSourceFileNames()
      .filter(isOwnSource)
      .map((name) => this.sourceFile(name))
      .filter((file): file is ApiSourceFile => file !== undefined);
  }

  private sourceFile(name: string): ApiSourceFile | undefined {
    let file = this.files.get(name);
    if (!file) {
      file = this.project.program.getSourceFile(name);
      if (file) this.files.set(name, file);
    }
    return file;
  }

  /** The semantic diagnostics of the whole program: asking for them type-checks every file. */
  private semantic?: readonly ApiDiagnostic[];

  compileProject(): CompiledCall[] {
    const compiled: CompiledCall[] = [];
    /** Registrations done, by file and position: what remains after the compiler process stopped. */
    const done = new Set<string>();
    const key = (call: ts.CallExpression) => `${call.getSourceFile().fileName}:${call.getStart(call.getSourceFile())}`;
    for (let prefetch = true; ; prefetch = false) {
      try {
        this.compileRemaining(compiled, done, key, prefetch);
        return compiled;
      } catch (error) {
        if (!(error instanceof ApiStopped)) throw error;
        // The registration it stopped on fails with a message that says so; the process is
        // started again (without the batched questions, one of which may be what stopped it).
        if (error.at) {
          done.add(key(error.at.call));
          const { registers } = error.at.registration;
          const message = `typemcp could not compile this ${registers} registration: TypeScript ${this.version}'s API process stopped on one of its types (its own message is printed above; a number literal type whose value is Infinity, such as 1e400, is one it cannot send)`;
          compiled.push({
            ...error.at,
            ...failedRegistration(
              [diagnosticAt(error.at.call, DiagnosticCategory.Error, DiagnosticCode.InternalError, message)],
              registers,
            ),
          });
        } else if (!prefetch) throw error.failure;
        this.restart();
      }
    }
  }

  /**
   * The checker on the project as it is now, and the calls in each of its files: one for the
   * registrations and the forms, so that what compiling the registrations asked (the callees'
   * symbols among it) is not asked again for the forms. Made again with the project (open).
   */
  private current?: { checker: Ts7Checker; calls: Map<ts.SourceFile, ts.CallExpression[]> };

  private checker(): Ts7Checker {
    if (!this.current) {
      const options = this.compilerOptions;
      const checker = new Ts7Checker(
        this.project.checker,
        this.project.program,
        this.modules,
        options.strictNullChecks === true || (options.strict === true && options.strictNullChecks !== false),
        this.api.batch && ((requests) => this.api.batch!(...requests)),
      );
      this.current = { checker, calls: new Map() };
    }
    return this.current.checker;
  }

  /** The calls in the project's own files, in source order, found once per checker. */
  private callsIn(files: readonly ts.SourceFile[], compiler: ContractCompiler): ts.CallExpression[] {
    const found = this.current!.calls;
    return files.flatMap((file) => memo(found, file, () => compiler.callsIn(file)));
  }

  /**
   * The forms of the project's `ctx.elicit<T>()` calls. The name filter leaves the checker only
   * the calls named `elicit` to ask about. A form whose type the API process stopped on is a
   * TS93099 on its call (compileFormSafely); the process is started again for the calls after it.
   */
  compileForms(): CompiledFormCall[] {
    const forms: CompiledFormCall[] = [];
    const done = new Set<string>();
    const key = (call: ts.CallExpression) => `${call.getSourceFile().fileName}:${call.getStart(call.getSourceFile())}`;
    let stoppedAt: string | undefined;
    for (;;) {
      const checker = this.checker();
      const compiler = new ContractCompiler(checker);
      let stopped: string | undefined;
      for (const call of this.callsIn(this.ownSourceFiles(), compiler)) {
        if (done.has(key(call))) continue;
        const isForm = compiler.formToCompile(call);
        if (isForm) {
          done.add(key(call));
          forms.push({ call, ...compiler.compileFormSafely(call) });
        }
        if (checker.stoppedBy || (isForm && this.apiStopped(forms[forms.length - 1].form.error))) {
          stopped = key(call);
          break;
        }
      }
      if (stopped === undefined) return forms;
      // Telling whether the same call is a form stopped the process twice: it is the process's failure.
      if (stopped === stoppedAt) throw checker.stoppedBy;
      stoppedAt = stopped;
      this.restart();
    }
  }

  private compileRemaining(
    compiled: CompiledCall[],
    done: Set<string>,
    key: (call: ts.CallExpression) => string,
    prefetch: boolean,
  ): void {
    const checker = this.checker();
    const compiler = new ContractCompiler(checker);
    const { syntax } = checker;
    const stopped = (cause: unknown, at?: { call: ts.CallExpression; registration: Registration }) =>
      this.apiStopped(cause) ? new ApiStopped(cause, at) : cause;
    const files = this.ownSourceFiles();
    const calls = this.callsIn(files, compiler).filter((call) => !done.has(key(call)));
    let registrations: { call: ts.CallExpression; registration: Registration }[];
    try {
      // What compiling asks of every call, asked for all calls at once: the symbols and member
      // types of the files' declarations, the callees' symbols, then the registered functions'
      // symbols, types, parameters and return types.
      if (prefetch) {
        checker.prefetchDeclarations(files);
        // A method called is told apart by its name first (registrationOf, isElicitCall): only
        // those of typemcp's names are resolved, and a function called, by its symbol.
        checker.prefetchSymbolsAt(
          calls.flatMap(({ expression: callee }) =>
            syntax.isIdentifier(callee)
              ? [callee]
              : syntax.isPropertyAccessExpression(callee) &&
                  syntax.isIdentifier(callee.name) &&
                  (METHODS.has(callee.name.text) || ELICIT.has(callee.name.text))
                ? [callee.name]
                : [],
          ),
        );
      }
      registrations = calls.flatMap((call) => {
        const registration = compiler.registrationToCompile(call);
        return registration ? [{ call, registration }] : [];
      });
      // registrationToCompile takes a failure to tell for no registration: a stopped process is none.
      if (checker.stoppedBy) throw new ApiStopped(checker.stoppedBy);
      if (prefetch) {
        const functions = registrations.flatMap(({ call, registration }) => {
          const at = functionIndex(registration);
          return at !== undefined && call.arguments.length > at ? [call.arguments[at]] : [];
        });
        // Which server each registration is made on (its duplicates' check): the receiver of `mcp.tool`.
        const receivers = registrations.flatMap(({ call, registration }) =>
          registration.kind === "call" &&
          (syntax.isPropertyAccessExpression(call.expression) || syntax.isElementAccessExpression(call.expression))
            ? [call.expression.expression]
            : [],
        );
        checker.prefetchSymbolsAt([...functions, ...receivers]);
        const symbols = functions.map((fn) => checker.symbolAt(fn)).filter((symbol) => symbol !== undefined);
        checker.prefetchTypesOf(symbols);
        checker.prefetchCallSignatures(symbols);
        checker.prefetchSignatures(
          symbols.flatMap((symbol) => checker.declarations(symbol).filter((d) => syntax.isFunctionDeclaration(d))),
        );
      }
    } catch (error) {
      throw stopped(error);
    }
    for (const { call, registration } of registrations) {
      const result = compiler.compileSafely(call, registration);
      // compileSafely reports any failure on the registration; a stopped process is the session's.
      if (checker.stoppedBy || this.apiStopped(result.contract.error))
        throw new ApiStopped(checker.stoppedBy, { call, registration });
      compiled.push({ call, registration, ...result });
      done.add(key(call));
    }
  }

  /**
   * Whether the compiler process behind the API has stopped: it answers a request it fails on
   * with its panic, then ends (which Node notices only later), or the channel to it is closed.
   */
  private apiStopped(failure: unknown): boolean {
    if (isApiStopFailure(failure)) return true;
    const child = (
      this.api as unknown as {
        client?: { channel?: { child?: { exitCode: number | null; signalCode: string | null } } };
      }
    ).client?.channel?.child;
    return !!child && (child.exitCode !== null || child.signalCode !== null);
  }

  /** A new compiler process, with the project opened again. */
  private restart(): void {
    try {
      this.api.close();
    } catch {
      // it has stopped already
    }
    this.api = new this.modules.sync.API({ cwd: process.cwd() }) as Api;
    this.open();
  }

  get configDiagnostics(): Reported[] {
    // A program made from the tsconfig's options has none of its own: the tsconfig's, as parsed.
    if (this.emitsInProcess) return (this.config.errors ?? []).map((d) => this.reported(d));
    return this.project.program.getConfigFileParsingDiagnostics().map((d) => this.reported(d));
  }

  /**
   * The project emitted in the compiler process (emitsInProcess): every output file's text, as
   * tsc would write it, and the diagnostics of the emit itself.
   */
  emit(): { files: Map<string, string>; diagnostics: Reported[]; skipped: boolean } {
    const output = this.project.program.emitToString!();
    return {
      files: new Map([...output.outputFiles].map(([file, { text }]) => [file, text])),
      diagnostics: output.diagnostics.map((d) => this.reported(d)),
      skipped: output.emitSkipped,
    };
  }

  /** What tsc reports for the project, in the order it asks: options, global, syntax, types, declarations. */
  compilerDiagnostics(): Reported[] {
    const program = this.project.program;
    const syntactic = program.getSyntacticDiagnostics();
    const all = [...program.getProgramDiagnostics(), ...program.getGlobalDiagnostics(), ...syntactic];
    if (!syntactic.length) {
      all.push(...(this.semantic ??= program.getSemanticDiagnostics()));
      if (this.compilerOptions.declaration === true || this.compilerOptions.composite === true)
        all.push(...program.getDeclarationDiagnostics());
    }
    return all.map((d) => this.reported(d));
  }

  private fileText(fileName: string): { fileName: string; text: string } {
    const file = this.files.get(fileName) ?? (isOwnSource(fileName) ? this.sourceFile(fileName) : undefined);
    if (file) return file;
    let text: string;
    try {
      text = fs.readFileSync(fileName, "utf8");
    } catch {
      text = this.project.program.getSourceFile(fileName)?.text ?? "";
    }
    return { fileName, text };
  }

  private reported(d: ApiDiagnostic): Reported {
    const chain = (link: ApiDiagnostic): Chain => ({
      messageText: link.text,
      category: link.category,
      code: link.code,
      next: link.messageChain?.map(chain),
    });
    return {
      file: d.fileName ? this.fileText(d.fileName) : undefined,
      start: d.fileName ? d.pos : undefined,
      length: d.fileName ? d.end - d.pos : undefined,
      category: d.category,
      code: d.code,
      messageText: d.messageChain?.length ? chain(d) : d.text,
      relatedInformation: d.relatedInformation?.map((r) => this.reported(r)),
    };
  }

  /**
   * Lets the compiler process end on its own (its input closed) before the API stops it: a
   * process killed while it winds down prints "context canceled" on the stderr it shares.
   */
  async close(): Promise<void> {
    try {
      this.snapshot?.dispose();
      const child = (
        this.api as unknown as { client?: { channel?: { child?: import("node:child_process").ChildProcess } } }
      ).client?.channel?.child;
      if (child && child.exitCode === null && child.stdin) {
        const exited = new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 2000);
          child.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
        });
        child.stdin.end();
        await exited;
      }
    } finally {
      this.api.close();
    }
  }
}
