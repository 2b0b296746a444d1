/**
 * A project opened with the TypeScript it uses: the one interface through which the CLI
 * compiles, checks and builds, whichever TypeScript runs it (transformer/ts5/, transformer/ts7/).
 */
import type * as ts from "typescript";
import type { CompiledForm, CompiledRegistration } from "./compile";
import type { Reported } from "./format";
import type { Registration, RegistrationKind } from "./registration";

/** A mistake in how the CLI was called or pointed at a project: one line on stderr, exit status 2, no stack trace. */
export class UserError extends Error {}

/** One `mcp.tool(...)`, `mcp.prompt(...)`, `mcp.resource(...)` or `@tool(...)` registration of the project, compiled as the transformer compiles it. */
export interface CompiledCall extends CompiledRegistration {
  call: ts.CallExpression;
  registration: Registration;
}

/** One `ctx.elicit<T>(...)` call of the project, its form written as the transformer writes it. */
export interface CompiledFormCall extends CompiledForm {
  call: ts.CallExpression;
}

/** A project opened with the TypeScript it uses (TypeScript 5/6 in-process, or 7 through its API). */
export interface Session {
  readonly version: string;
  /** What was wrong in tsconfig.json itself (unknown options, no input files, ...). */
  readonly configDiagnostics: Reported[];
  readonly compilerOptions: Readonly<Record<string, unknown>>;
  /**
   * Every registration in the project's own files, compiled exactly as the transformer would
   * compile it during a tspc build: calls that already carry a contract are left out (the
   * transformer leaves them as they are), and a failure inside typemcp is a TS93099 diagnostic.
   */
  compileProject(): CompiledCall[];
  /**
   * Every `ctx.elicit<T>()` call in the project's own files that needs a form, its form written
   * exactly as the transformer writes it (transformer/form/). Forms belong to their calls: they
   * are in no manifest, but their diagnostics are reported wherever typemcp compiles.
   */
  compileForms(): CompiledFormCall[];
  /** The compiler's own diagnostics, as tsc reports them. */
  compilerDiagnostics(): Reported[];
  /**
   * `typemcp build`: the project emitted as its TypeScript's tsc emits it, every registration's
   * contract and every form written in. `pretty`: the compiler's output as tsc --pretty prints it.
   */
  build(pretty: boolean): Built | Promise<Built>;
  /** Files changed on disk since: read them again. */
  update(changes: FileChanges): void;
  close(): void | Promise<void>;
}

/** What a build did, for the CLI to print: the compiler's output first, then the diagnostics and the summary. */
export interface Built {
  /**
   * What the compiler printed, as tsc prints it: TypeScript 7's tsc output (or, when the API
   * emitted, its diagnostics printed as tsc prints them). Empty on TypeScript 5 and 6, whose
   * compiler diagnostics are in `diagnostics`.
   */
  compilerOutput: string;
  /** How many errors `compilerOutput` holds. */
  compilerErrors: number;
  /** The compiler failed (tsc's exit status was not 0): the build's status is 1. */
  compilerFailed: boolean;
  /** The diagnostics to print after the compiler's output: typemcp's (and, on TypeScript 5 and 6, the compiler's). */
  diagnostics: Reported[];
  /** The registrations compiled, by kind. */
  registrations: RegistrationKind[];
  /** typemcp's own failure (the API process gone), thrown once the compiler's output is printed. */
  failure?: { error: unknown };
}

/** Files of the project changed on disk, by what happened to them (absolute paths). */
export interface FileChanges {
  changed: string[];
  created: string[];
  deleted: string[];
}
