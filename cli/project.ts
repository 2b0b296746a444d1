import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { Contract, Manifest, ResourceContract } from "../contract/contract";
import type { Diagnostic } from "../transformer/checker/checker";
import { DiagnosticCategory } from "../transformer/checker/flags";
import type { CompiledForm, CompiledRegistration } from "../transformer/compile";
import { DiagnosticCode } from "../transformer/diagnostic-codes";
import { diagnosticAt, locationOf } from "../transformer/diagnostics";
import type { Registration } from "../transformer/registration";
import { setOwn } from "../contract/own";
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

/** The manifest, and typemcp's diagnostics: those of every registration, and name clashes between them. */
export interface BuiltManifest {
  manifest: Manifest;
  diagnostics: Diagnostic[];
}

/** Which of the manifest's records a contract goes into, and its key there: a tool's or prompt's name, a resource's URI. */
function placeOf(contract: Contract): { section: keyof Manifest; key: string } {
  if (contract.kind === "prompt") return { section: "prompts", key: contract.name };
  if (contract.kind === "resource") return { section: "resources", key: contract.uri };
  return { section: "tools", key: contract.name };
}

/** How a clash in each of the manifest's records is told. */
const CLASH: Record<keyof Manifest, { key: string; fix: string }> = {
  tools: { key: "tool name", fix: 'give one of them another name with { name: "..." }' },
  prompts: { key: "prompt name", fix: 'give one of them another name with { name: "..." }' },
  resources: { key: "resource URI", fix: "register each URI once" },
};

/**
 * The manifest: the contract of every registration the build accepts, by kind, keyed by tool
 * name, prompt name and resource URI (or template). A refused registration is left out (its
 * diagnostics say why). Two registrations of a kind may share a key only when they compile to
 * the same contract: a manifest holds one entry per key.
 */
export function buildManifest(compiled: CompiledCall[]): BuiltManifest {
  const manifest: Manifest = { tools: {}, prompts: {}, resources: {} };
  const firstAt = new Map<string, ts.CallExpression>();
  const diagnostics: Diagnostic[] = [];
  for (const { call, contract, diagnostics: found } of compiled) {
    diagnostics.push(...found);
    if (contract.error !== undefined || found.some(isError)) continue;
    const { section, key } = placeOf(contract);
    const entries = manifest[section] as Record<string, Contract>;
    const first = firstAt.get(`${section} ${key}`);
    if (first === undefined) {
      firstAt.set(`${section} ${key}`, call);
      setOwn(entries, key, contract);
    } else if (JSON.stringify(entries[key]) !== JSON.stringify(contract)) {
      const clash = CLASH[section];
      const what = clash.key.charAt(0).toUpperCase() + clash.key.slice(1);
      const message = `${what} ${JSON.stringify(key)} is registered more than once with different schemas (first at ${locationOf(first)}): a manifest holds one contract per ${clash.key}; ${clash.fix}`;
      diagnostics.push(diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InvalidRegistration, message));
    }
  }
  return { manifest, diagnostics };
}

/** What a resource's contents are sent as when its options say no `mimeType` (contract/contract.ts). */
const MIME_TYPES: Partial<Record<ResourceContract["contents"], string>> = {
  text: "text/plain",
  blob: "application/octet-stream",
  json: "application/json",
};

/**
 * What `tools/list`, `prompts/list`, `resources/list` and `resources/templates/list` answer
 * for these contracts, as one object of the four answers' keys, when each is registered
 * under its own name with no run-time options (`title`, `annotations`, `icons`, a
 * `description` or `mimeType` given in the options are known only at run time, so they are
 * not in it; nor are the resources a template's `list` function gives). Keys in the runtime's
 * order.
 */
export function listsOf(manifest: Manifest): {
  tools: object[];
  prompts: object[];
  resources: object[];
  resourceTemplates: object[];
} {
  const resources = Object.values(manifest.resources);
  const described = (contract: Contract) => contract.description !== undefined && { description: contract.description };
  const mimeType = (contract: ResourceContract) =>
    MIME_TYPES[contract.contents] !== undefined && { mimeType: MIME_TYPES[contract.contents] };
  return {
    tools: Object.values(manifest.tools).map((contract) => ({
      name: contract.name,
      inputSchema: contract.inputSchema,
      ...described(contract),
      ...(contract.outputSchema !== undefined && { outputSchema: contract.outputSchema }),
    })),
    prompts: Object.values(manifest.prompts).map((contract) => ({
      name: contract.name,
      ...described(contract),
      arguments: contract.arguments,
    })),
    resources: resources
      .filter((contract) => !contract.template)
      .map((contract) => ({ uri: contract.uri, name: contract.name, ...described(contract), ...mimeType(contract) })),
    resourceTemplates: resources
      .filter((contract) => contract.template)
      .map((contract) => ({
        uriTemplate: contract.uri,
        name: contract.name,
        ...described(contract),
        ...mimeType(contract),
      })),
  };
}
