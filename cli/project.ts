import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { ToolContract } from "../runtime/contract";
import type { Diagnostic } from "../transformer/checker/checker";
import { DiagnosticCategory } from "../transformer/checker/flags";
import type { CompiledRegistration } from "../transformer/compile";
import { DiagnosticCode } from "../transformer/diagnostic-codes";
import { diagnosticAt, locationOf } from "../transformer/diagnostics";
import type { Registration } from "../transformer/registration";
import type { Reported } from "./format";

/** A mistake in how the CLI was called or pointed at a project: one line on stderr, exit status 2, no stack trace. */
export class UserError extends Error {}

/** `tsconfig.json` itself, or a directory holding one; default: ./tsconfig.json. */
export function findConfig(argument: string | undefined): string {
  const given = path.resolve(argument ?? "tsconfig.json");
  const file = fs.existsSync(given) && fs.statSync(given).isDirectory() ? path.join(given, "tsconfig.json") : given;
  if (!fs.existsSync(file))
    throw new UserError(
      `cannot find ${path.relative(process.cwd(), file) || file}: pass the path of your tsconfig.json (or run in its folder)`,
    );
  return file;
}

/** One `mcp.tool(...)` / `@tool(...)` registration of the project, compiled as the transformer compiles it. */
export interface CompiledCall extends CompiledRegistration {
  call: ts.CallExpression;
  registration: Registration;
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
  /** The compiler's own diagnostics, as tsc reports them. */
  compilerDiagnostics(): Reported[];
  /** Files changed on disk since: read them again. */
  update(changes: FileChanges): void;
  close(): void | Promise<void>;
}

/** Files of the project changed on disk, by what happened to them (absolute paths). */
export interface FileChanges {
  changed: string[];
  created: string[];
  deleted: string[];
}

export function isError(diagnostic: Reported): boolean {
  return diagnostic.category === DiagnosticCategory.Error;
}

export interface Manifest {
  /** Tool name → contract, in the order the registrations appear in the program. */
  contracts: Record<string, ToolContract>;
  /** typemcp's diagnostics: those of every registration, and name clashes between them. */
  diagnostics: Diagnostic[];
}

/**
 * The manifest: the contract of every registration the build accepts, keyed by tool name.
 * A refused registration is left out (its diagnostics say why). Two registrations may share
 * a name only when they compile to the same contract: a manifest holds one entry per name.
 */
export function buildManifest(compiled: CompiledCall[]): Manifest {
  const contracts: Record<string, ToolContract> = {};
  const firstAt = new Map<string, ts.CallExpression>();
  const diagnostics: Diagnostic[] = [];
  for (const { call, contract, diagnostics: found } of compiled) {
    diagnostics.push(...found);
    if (contract.error !== undefined || found.some(isError)) continue;
    const first = firstAt.get(contract.name);
    if (first === undefined) {
      firstAt.set(contract.name, call);
      contracts[contract.name] = contract;
    } else if (JSON.stringify(contracts[contract.name]) !== JSON.stringify(contract)) {
      const message = `Tool name ${JSON.stringify(contract.name)} is registered more than once with different schemas (first at ${locationOf(first)}): a manifest holds one contract per tool name; give one of them another name with { name: "..." }`;
      diagnostics.push(diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InvalidRegistration, message));
    }
  }
  return { contracts, diagnostics };
}

/**
 * What `tools/list` answers for these contracts when each is registered under its own name
 * with no run-time options (`title`, `annotations`, a `description` given in the options are
 * known only at run time, so they are not in it). Keys in the runtime's order.
 */
export function toolsList(contracts: Record<string, ToolContract>): { tools: object[] } {
  return {
    tools: Object.values(contracts).map((contract) => ({
      name: contract.name,
      inputSchema: contract.inputSchema,
      ...(contract.description !== undefined && { description: contract.description }),
      ...(contract.outputSchema !== undefined && { outputSchema: contract.outputSchema }),
    })),
  };
}
