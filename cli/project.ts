import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { Contract, Manifest, ResourceContract } from "../contract/contract";
import type { Diagnostic } from "../transformer/checker/checker";
import { DiagnosticCategory } from "../transformer/checker/flags";
import { DiagnosticCode } from "../transformer/diagnostic-codes";
import { diagnosticAt, locationOf } from "../transformer/diagnostics";
import { setOwn } from "../contract/own";
import type { Reported } from "../transformer/format";
import { UserError, type CompiledCall } from "../transformer/session";

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
