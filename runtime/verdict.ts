import type { JsonSchema } from "./contract";
import { linearRegExp } from "./linear-regexp";
import { refTarget } from "./wire";

/**
 * Whether a value is valid under a schema, found by walking the schema: for the calls that
 * come before Ajv's validator of that schema is compiled. Ajv takes 1 to 10 ms to compile a
 * schema (more for the first one of a process); a walk takes microseconds, so a tool's first
 * call does not wait for a compile (the compile is done in an idle turn after it).
 *
 * It knows the keywords the transformer writes for plain data, and answers for them as Ajv
 * does (test/verdict.test.ts holds the two equal). Where a schema has any other keyword (a
 * format, uniqueItems, multipleOf, patternProperties...), or the value is not plain JSON, it
 * answers `undefined`: compile and ask Ajv. Ajv stays the authority: it validates every call
 * once compiled, and it is the one asked why a value is invalid.
 */
export type Verdict = boolean | undefined;

const KNOWN = new Set([
  "type", "enum", "const", "$ref", "$defs", "anyOf",
  "properties", "required", "additionalProperties", "minProperties", "maxProperties",
  "items", "prefixItems", "minItems", "maxItems",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
  "minLength", "maxLength", "pattern",
]);

/** Deeper than this, the walk leaves the value to Ajv (and keeps off the end of the stack). */
const MAX_DEPTH = 64;

const patterns = new Map<string, { test(text: string): boolean }>();

/** Ajv's regular expression for a pattern: the same linear-time engine, `u` flag. */
function regExpOf(pattern: string): { test(text: string): boolean } {
  let regExp = patterns.get(pattern);
  if (!regExp) patterns.set(pattern, (regExp = linearRegExp(pattern)));
  return regExp;
}

/** A string's length as Ajv counts it for minLength and maxLength: in code points (a surrogate pair is one). */
function codePoints(text: string): number {
  let length = 0;
  for (let at = 0; at < text.length; at++) {
    length++;
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) at++;
  }
  return length;
}

const hasOwn = Object.prototype.hasOwnProperty;

const isPrimitive = (value: unknown) => value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Whether a value is of a JSON Schema type; undefined for a value JSON has no type for (or a number JSON cannot carry). */
function hasType(value: unknown, type: unknown): Verdict {
  switch (typeof value) {
    case "string":
      return type === "string";
    case "boolean":
      return type === "boolean";
    case "number":
      if (!Number.isFinite(value)) return undefined;
      return type === "number" || (type === "integer" && Number.isInteger(value));
    case "object":
      if (value === null) return type === "null";
      return Array.isArray(value) ? type === "array" : type === "object";
    default:
      return undefined;
  }
}

/** All of several verdicts: false if one is false, else undefined if one is unknown. */
class All {
  verdict: Verdict = true;
  add(verdict: Verdict): boolean {
    if (verdict === false) this.verdict = false;
    else if (verdict === undefined && this.verdict === true) this.verdict = undefined;
    return this.verdict === false; // settled
  }
}

function walk(schema: unknown, value: unknown, root: JsonSchema, depth: number): Verdict {
  if (schema === true) return true;
  if (schema === false) return false;
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  for (const keyword in schema) if (!KNOWN.has(keyword)) return undefined;
  const all = new All();

  if (schema.$ref !== undefined) {
    const target = refTarget(schema.$ref, root);
    if (target === undefined) return undefined;
    if (all.add(walk(target, value, root, depth + 1))) return false;
  }

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    let any: Verdict = false;
    for (const type of types) {
      const fits = hasType(value, type);
      if (fits === undefined) return undefined;
      if (fits) any = true;
    }
    if (all.add(any)) return false;
  }

  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum) || !schema.enum.every(isPrimitive)) return undefined;
    if (all.add(isPrimitive(value) && schema.enum.includes(value))) return false;
  }
  if (schema.const !== undefined) {
    if (!isPrimitive(schema.const)) return undefined;
    if (all.add(value === schema.const)) return false;
  }

  if (schema.anyOf !== undefined) {
    if (!Array.isArray(schema.anyOf)) return undefined;
    let any: Verdict = false;
    for (const branch of schema.anyOf) {
      const verdict = walk(branch, value, root, depth + 1);
      if (verdict === true) {
        any = true;
        break;
      }
      if (verdict === undefined) any = undefined;
    }
    if (all.add(any)) return false;
  }

  if (isObject(value)) {
    if (all.add(objectVerdict(schema, value, root, depth))) return false;
  } else if (Array.isArray(value)) {
    if (all.add(arrayVerdict(schema, value, root, depth))) return false;
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    const bound = (keyword: string, holds: (limit: number) => boolean): Verdict => (schema[keyword] === undefined ? true : typeof schema[keyword] === "number" ? holds(schema[keyword] as number) : undefined);
    if (all.add(bound("minimum", (limit) => value >= limit))) return false;
    if (all.add(bound("maximum", (limit) => value <= limit))) return false;
    if (all.add(bound("exclusiveMinimum", (limit) => value > limit))) return false;
    if (all.add(bound("exclusiveMaximum", (limit) => value < limit))) return false;
  } else if (typeof value === "string") {
    const { minLength, maxLength, pattern } = schema;
    if (minLength !== undefined || maxLength !== undefined) {
      if ((minLength !== undefined && typeof minLength !== "number") || (maxLength !== undefined && typeof maxLength !== "number")) return undefined;
      const length = codePoints(value);
      if (all.add((minLength === undefined || length >= minLength) && (maxLength === undefined || length <= maxLength))) return false;
    }
    if (pattern !== undefined) {
      if (typeof pattern !== "string") return undefined;
      let regExp: { test(text: string): boolean };
      try {
        regExp = regExpOf(pattern);
      } catch {
        return undefined;
      }
      if (all.add(regExp.test(value))) return false;
    }
  }
  return all.verdict;
}

function objectVerdict(schema: Record<string, unknown>, value: Record<string, unknown>, root: JsonSchema, depth: number): Verdict {
  const all = new All();
  const { properties, required, additionalProperties, minProperties, maxProperties } = schema;
  if (properties !== undefined && !isObject(properties)) return undefined;
  // As Ajv reads them: a property whose value is undefined is absent.
  // Own properties only, as Ajv reads them (`ownProperties`).
  const present = (name: string) => value[name] !== undefined && hasOwn.call(value, name);
  if (required !== undefined) {
    if (!Array.isArray(required)) return undefined;
    if (all.add(required.every((name) => typeof name === "string" && present(name)))) return false;
  }
  if (properties) {
    for (const name of Object.keys(properties)) {
      if (present(name) && all.add(walk(properties[name], value[name], root, depth + 1))) return false;
    }
  }
  if (additionalProperties !== undefined) {
    for (const key of Object.keys(value)) {
      if (properties && Object.prototype.hasOwnProperty.call(properties, key)) continue;
      if (value[key] === undefined) return undefined;
      if (all.add(walk(additionalProperties, value[key], root, depth + 1))) return false;
    }
  }
  if (minProperties !== undefined || maxProperties !== undefined) {
    if ((minProperties !== undefined && typeof minProperties !== "number") || (maxProperties !== undefined && typeof maxProperties !== "number")) return undefined;
    const count = Object.keys(value).length;
    if (all.add((minProperties === undefined || count >= minProperties) && (maxProperties === undefined || count <= maxProperties))) return false;
  }
  return all.verdict;
}

function arrayVerdict(schema: Record<string, unknown>, value: unknown[], root: JsonSchema, depth: number): Verdict {
  const all = new All();
  const { prefixItems, items, minItems, maxItems } = schema;
  if (prefixItems !== undefined && !Array.isArray(prefixItems)) return undefined;
  const prefix = prefixItems ?? [];
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    if (item === undefined) return undefined; // a hole or undefined: not JSON
    const itemSchema = i < prefix.length ? prefix[i] : items;
    if (itemSchema !== undefined && all.add(walk(itemSchema, item, root, depth + 1))) return false;
  }
  if (minItems !== undefined || maxItems !== undefined) {
    if ((minItems !== undefined && typeof minItems !== "number") || (maxItems !== undefined && typeof maxItems !== "number")) return undefined;
    if (all.add((minItems === undefined || value.length >= minItems) && (maxItems === undefined || value.length <= maxItems))) return false;
  }
  return all.verdict;
}

const resolvable = new WeakMap<JsonSchema, boolean>();

/** Whether every `$ref` in a schema leads somewhere (Ajv compiles no schema where one does not). */
function refsResolve(root: JsonSchema): boolean {
  let known = resolvable.get(root);
  if (known === undefined) {
    const leads = (node: unknown): boolean => {
      if (node === null || typeof node !== "object") return true;
      const ref = (node as Record<string, unknown>).$ref;
      if (ref !== undefined && refTarget(ref, root) === undefined) return false;
      return Object.values(node).every(leads);
    };
    resolvable.set(root, (known = leads(root)));
  }
  return known;
}

/**
 * The value's verdict under `schema` (a part of `root`, which its `$ref`s point into): true or
 * false as Ajv would answer, or undefined where only Ajv can tell.
 */
export function verdictOf(schema: JsonSchema, value: unknown, root: JsonSchema = schema): Verdict {
  if (!refsResolve(root)) return undefined;
  try {
    return walk(schema, value, root, 0);
  } catch {
    return undefined; // a getter that throws, a proxy...: Ajv's to answer
  }
}
