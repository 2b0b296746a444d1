/**
 * What the transformer wrote: the registrations of an emitted module, each with the contract
 * literal passed as `mcp.tool`'s third argument (evaluated as JavaScript evaluates it), and
 * checks that a published schema is one: the JSON Schema 2020-12 meta-schema, and what the
 * meta-schema cannot see (values JSON cannot carry, `$ref`s that lead nowhere, required
 * properties an exact object does not declare, patterns that are no regular expression).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import Ajv2020 from "ajv/dist/2020";
import { CONTRACT_VERSION, type Contract, type FormContract, type ToolContract } from "typemcp";

export interface EmittedRegistration {
  /** The registered function's name, as written in the call. */
  fn: string;
  /** The contract argument, as emitted. */
  text: string;
  contract: ToolContract;
}

/** How the transformer writes a contract: `JSON.parse('{"v":<CONTRACT_VERSION>,...}')`. */
export const CONTRACT_TEXT = new RegExp(`^JSON\\.parse\\('\\{"v":${CONTRACT_VERSION},`);

/** The contract an emitted contract expression makes, as the runtime receives it. */
export function evaluateContract(text: string): ToolContract {
  return new Function(`"use strict"; return (${text});`)() as ToolContract;
}

/** Where each registration method takes its contract: after the function (and the URI) and the options. */
const CONTRACT_AT = { tool: 2, prompt: 2, resource: 3 } as const;

export interface EmittedCall {
  method: keyof typeof CONTRACT_AT;
  /** The call's arguments before the contract, as emitted. */
  args: string[];
  /** The contract argument, as emitted. */
  text: string;
  contract: Contract;
}

/** Every `mcp.tool(...)`, `mcp.prompt(...)` and `mcp.resource(...)` call of an emitted module, with its contract. */
export function emittedCalls(js: string): EmittedCall[] {
  const file = ts.createSourceFile("emitted.js", js, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const found: EmittedCall[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      Object.hasOwn(CONTRACT_AT, node.expression.name.text) &&
      node.expression.expression.getText(file).endsWith("mcp")
    ) {
      const method = node.expression.name.text as EmittedCall["method"];
      const at = CONTRACT_AT[method];
      const contract = node.arguments[at];
      const text = contract ? contract.getText(file) : "";
      // The contract is evaluated as the runtime receives it (`"__proto__":` keys included).
      const value = contract && CONTRACT_TEXT.test(text) ? evaluateContract(text) : undefined;
      const args = node.arguments.slice(0, at).map((a) => a.getText(file));
      found.push({ method, args, text, contract: value as Contract });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every `mcp.tool(fn, options, contract)` call of an emitted module. */
export function emittedRegistrations(js: string): EmittedRegistration[] {
  return emittedCalls(js)
    .filter((call) => call.method === "tool")
    .map(({ args, text, contract }) => ({ fn: args[0], text, contract: contract as ToolContract }));
}

export interface EmittedForm {
  /** The call's arguments before the form, as emitted. */
  args: string[];
  /** The form argument, as emitted. */
  text: string;
  /** The form, as the runtime receives it (undefined when the call carries none). */
  form: FormContract | undefined;
}

/** Every `<context>.elicit(...)` call of an emitted module, with the form the transformer added as its third argument. */
export function emittedForms(js: string): EmittedForm[] {
  const file = ts.createSourceFile("emitted.js", js, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const found: EmittedForm[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "elicit"
    ) {
      const form = node.arguments[2];
      const text = form ? form.getText(file) : "";
      found.push({
        args: node.arguments.slice(0, 2).map((a) => a.getText(file)),
        text,
        form: form && CONTRACT_TEXT.test(text) ? (evaluateContract(text) as unknown as FormContract) : undefined,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function builtModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    return entry.isDirectory() ? builtModules(at) : entry.name.endsWith(".js") ? [at] : [];
  });
}

/**
 * Every schema of the kinds asked for that the modules built under `outDir` publish, once
 * each, named by file, tool and kind.
 */
export function publishedSchemas(
  outDir: string,
  kinds: ("inputSchema" | "outputSchema")[],
): [string, Record<string, unknown>][] {
  const seen = new Set<string>();
  const found: [string, Record<string, unknown>][] = [];
  for (const file of builtModules(outDir)) {
    for (const { contract } of emittedRegistrations(fs.readFileSync(file, "utf8"))) {
      for (const kind of kinds) {
        const schema = contract?.[kind] as Record<string, unknown> | undefined;
        if (!schema || seen.has(JSON.stringify(schema))) continue;
        seen.add(JSON.stringify(schema));
        found.push([
          `${path.relative(outDir, file)}: ${contract.name}${kinds.length > 1 ? ` ${kind === "inputSchema" ? "input" : "output"}` : ""}`,
          schema,
        ]);
      }
    }
  }
  return found;
}

const ajv = new Ajv2020();

/** Why `schema` is not a valid JSON Schema 2020-12 that typemcp may publish; empty when it is one. */
export function schemaProblems(schema: unknown): string[] {
  const problems: string[] = [];
  if (!ajv.validateSchema(schema as object)) problems.push(`meta-schema: ${ajv.errorsText(ajv.errors)}`);
  problems.push(...notJson(schema, "#"));
  if (schema !== null && typeof schema === "object")
    walk(schema as Record<string, unknown>, schema as Record<string, unknown>, "#", problems);
  return problems;
}

/** Where a value differs from what JSON makes of it (Infinity, NaN, undefined, functions, prototypes taken for keys...). */
function notJson(value: unknown, at: string): string[] {
  if (value === null || typeof value === "string" || typeof value === "boolean") return [];
  if (typeof value === "number") return Number.isFinite(value) ? [] : [`${at}: ${value} is not a JSON number`];
  if (Array.isArray(value)) return value.flatMap((item, i) => notJson(item, `${at}/${i}`));
  if (typeof value === "object") {
    const problems: string[] = [];
    if (Object.getPrototypeOf(value) !== Object.prototype) problems.push(`${at}: not a plain object`);
    for (const [key, item] of Object.entries(value)) problems.push(...notJson(item, `${at}/${key}`));
    return problems;
  }
  return [`${at}: ${typeof value} is not JSON`];
}

function resolves(ref: string, root: Record<string, unknown>): boolean {
  if (ref === "#") return true;
  const defs = root.$defs as Record<string, unknown> | undefined;
  return ref.startsWith("#/$defs/") && !!defs && Object.hasOwn(defs, ref.slice("#/$defs/".length));
}

function walk(schema: Record<string, unknown>, root: Record<string, unknown>, at: string, problems: string[]): void {
  if (typeof schema.$ref === "string" && !resolves(schema.$ref, root))
    problems.push(`${at}: $ref ${schema.$ref} leads nowhere`);
  if (typeof schema.pattern === "string") {
    try {
      new RegExp(schema.pattern, "u");
    } catch (error) {
      problems.push(`${at}: pattern ${schema.pattern}: ${(error as Error).message}`);
    }
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (schema.additionalProperties === false && !schema.patternProperties && Array.isArray(schema.required)) {
    for (const name of schema.required as string[])
      if (!Object.hasOwn(properties, name))
        problems.push(`${at}: required ${JSON.stringify(name)} is not among the properties of an exact object`);
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (value === null || typeof value !== "object") continue;
    const child = `${at}/${keyword}`;
    if (keyword === "properties" || keyword === "$defs" || keyword === "patternProperties") {
      for (const [name, sub] of Object.entries(value)) {
        if (keyword === "patternProperties") {
          try {
            new RegExp(name, "u");
          } catch (error) {
            problems.push(`${child}: ${name}: ${(error as Error).message}`);
          }
        }
        walk(sub as Record<string, unknown>, root, `${child}/${name}`, problems);
      }
    } else if (keyword === "anyOf" || keyword === "prefixItems") {
      (value as Record<string, unknown>[]).forEach((sub, i) => walk(sub, root, `${child}/${i}`, problems));
    } else if (keyword === "items" || keyword === "additionalProperties" || keyword === "unevaluatedItems") {
      walk(value as Record<string, unknown>, root, child, problems);
    }
  }
}
