import type { JsonSchema } from "./contract";
import { linearRegExp } from "./linear-regexp";

/** A returned value that cannot go over the wire as JSON, and where in the value it is. */
export class WireError extends Error {
  constructor(
    readonly reason: string,
    readonly path: readonly (string | number)[] = [],
  ) {
    super(reason);
  }
  /** `result.items[2].owner: a bigint, which JSON cannot represent`, the path starting at `root`. */
  describe(root: string): string {
    const path = this.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("");
    return `${root}${path}`.replace(/^\./, "") + `: ${this.reason}`;
  }
}

/** Answers "does this value fit the sub-schema?" for union branches the projection cannot tell apart by JSON type. */
export interface BranchOracle {
  fits(branch: JsonSchema, value: unknown): boolean;
}

/** The schema of a value the schema says nothing about: anything JSON can carry. */
export const ANY: JsonSchema = {};

/**
 * One projection's state. The path is a stack (pushed and popped around each child) rather
 * than a closure per property: this runs on every result, and the path is only read when a
 * value cannot be sent.
 */
interface Projection {
  root: JsonSchema;
  oracle?: BranchOracle;
  /** Objects on the path from the root to here: meeting one again is a cycle. */
  ancestors: object[];
  /**
   * Look for cycles at every level. The first pass only looks below CHECKED_DEPTH (a cycle
   * always gets there), which spares the search on every result; when it finds one, the
   * projection starts over with this set, so that the error names the shortest path.
   */
  everyLevel: boolean;
  path: (string | number)[];
}

const CHECKED_DEPTH = 32;
const START_OVER = Symbol("start over, checking every level for cycles");

function fail(p: Projection, reason: string): never {
  throw new WireError(reason, [...p.path]);
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** What a `$ref` points at: the root, or one of the root's `$defs`; undefined for any other reference. */
export function refTarget(ref: unknown, root: JsonSchema): JsonSchema | undefined {
  if (ref === "#") return root;
  if (typeof ref !== "string" || !ref.startsWith("#/$defs/")) return undefined;
  const defs = root.$defs as Record<string, JsonSchema> | undefined;
  const name = ref.slice(8);
  return defs && Object.prototype.hasOwnProperty.call(defs, name) ? defs[name] : undefined;
}

/** The schema a `$ref` (to the root or to `$defs`) stands for; any other reference admits anything. */
export function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string" && hops < 32; hops++) current = refTarget(current.$ref, root) ?? ANY;
  return current;
}

/** Whether a branch's JSON type admits the value at all (cheap: no validation). */
function admits(schema: JsonSchema, value: unknown): boolean {
  const type = schema.type;
  if (type === undefined) return true;
  const actual = jsonTypeOf(value);
  return type === actual || (type === "integer" && actual === "number");
}

/** Object.prototype.hasOwnProperty: a declared property is read from the value itself, never its prototype chain. */
export const hasOwn = Object.prototype.hasOwnProperty;

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // A "__proto__" key (JSON.parse makes it an own property) must stay data, never become the prototype.
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function projectUnion(value: unknown, branches: JsonSchema[], p: Projection): unknown {
  const candidates = branches.filter((branch) => admits(resolve(branch, p.root), value));
  if (candidates.length > 1 && p.oracle) {
    for (const branch of candidates) {
      const projected = project(value, branch, p);
      if (p.oracle.fits(branch, projected)) return projected;
    }
  }
  return project(value, candidates[0] ?? branches[0], p);
}

function projectArray(value: unknown[], schema: JsonSchema, p: Projection): unknown[] {
  const prefix = (schema.prefixItems as JsonSchema[] | undefined) ?? [];
  const rest = (schema.items ?? schema.unevaluatedItems ?? ANY) as JsonSchema;
  const out = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    p.path.push(i);
    const item = project(value[i], prefix[i] ?? rest, p);
    p.path.pop();
    out[i] = item === undefined ? null : item; // as JSON.stringify does: no holes in arrays
  }
  return out;
}

const compiledPatterns = new WeakMap<object, [{ test(key: string): boolean }, JsonSchema][]>();

function patternsOf(schema: JsonSchema): [{ test(key: string): boolean }, JsonSchema][] {
  let patterns = compiledPatterns.get(schema);
  if (!patterns) {
    const source = (schema.patternProperties ?? {}) as Record<string, JsonSchema>;
    // Keys are matched as Ajv matches them: on the linear-time engine, whatever a key holds.
    patterns = Object.entries(source).map(([pattern, sub]) => [linearRegExp(pattern), sub]);
    compiledPatterns.set(schema, patterns);
  }
  return patterns;
}

/** The schema an undeclared key's value is sent with, or undefined when the key is not sent. */
function schemaForKey(key: string, schema: JsonSchema, open: boolean): JsonSchema | undefined {
  if (schema.patternProperties) {
    for (const [pattern, sub] of patternsOf(schema)) if (pattern.test(key)) return sub;
  }
  const additional = schema.additionalProperties;
  if (additional !== null && typeof additional === "object") return additional as JsonSchema;
  return open ? ANY : undefined;
}

function projectKey(out: Record<string, unknown>, key: string, value: unknown, schema: JsonSchema, p: Projection): void {
  p.path.push(key);
  const item = project(value, schema, p);
  p.path.pop();
  if (item !== undefined) setOwn(out, key, item);
}

function projectObject(value: Record<string, unknown>, schema: JsonSchema, p: Projection): Record<string, unknown> {
  const declared = schema.properties as Record<string, JsonSchema> | undefined;
  // A schema that says nothing about keys (`{}`, `{"type": "object"}`) sends them all, as JSON.stringify would.
  const open = !declared && schema.additionalProperties === undefined && schema.patternProperties === undefined;
  const out: Record<string, unknown> = {};
  if (declared) {
    // Own properties only: a declared property the value lacks is not looked up its prototype
    // chain (Object.prototype's `constructor`, or whatever a polluted prototype holds).
    for (const key of Object.keys(declared)) {
      const item = value[key];
      if (item !== undefined && hasOwn.call(value, key)) projectKey(out, key, item, declared[key], p);
    }
  }
  // Undeclared keys are sent only where the schema admits them: a class's private fields and
  // an upstream's extra keys stay behind without being looked at.
  if (!open && schema.additionalProperties === false && !schema.patternProperties) return out;
  for (const key of Object.keys(value)) {
    if (declared && Object.prototype.hasOwnProperty.call(declared, key)) continue;
    const sub = schemaForKey(key, schema, open);
    if (sub !== undefined) projectKey(out, key, value[key], sub, p);
  }
  return out;
}

function project(input: unknown, schema: JsonSchema, p: Projection): unknown {
  let value = input;
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(): unknown }).toJSON();
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number": {
      if (Number.isFinite(value)) return value;
      const promised = resolve(schema, p.root).type;
      if (promised === "number" || promised === "integer") fail(p, `${value} is not a JSON number`);
      return null; // as JSON.stringify does where no number was promised
    }
    case "bigint":
      return fail(p, "a bigint, which JSON cannot represent");
    case "undefined":
      return undefined; // dropped, as JSON.stringify drops it
    case "function":
    case "symbol":
      // JSON.stringify would drop it without a word; a function where data was expected is a bug worth saying.
      return fail(p, `a ${typeof value}, which JSON cannot carry`);
  }
  if (value === null) return null;
  const resolved = resolve(schema, p.root);
  if (Array.isArray(resolved.anyOf)) return projectUnion(value, resolved.anyOf as JsonSchema[], p);
  const object = value as object;
  if ((p.everyLevel || p.ancestors.length >= CHECKED_DEPTH) && p.ancestors.includes(object)) {
    if (!p.everyLevel) throw START_OVER;
    fail(p, "a cycle: the value contains itself");
  }
  p.ancestors.push(object);
  const out = Array.isArray(object) ? projectArray(object, resolved, p) : projectObject(object as Record<string, unknown>, resolved, p);
  p.ancestors.pop();
  return out;
}

/**
 * A part of a value projected with the sub-schema it sits under (`root` resolves its
 * `$ref`s). Compiled projectors hand it what they do not handle themselves; when it throws,
 * they start over with toWire, whose errors carry the whole path.
 */
export function projectWithin(value: unknown, schema: JsonSchema, root: JsonSchema, oracle?: BranchOracle): unknown {
  return project(value, schema, { root, oracle, ancestors: [], everyLevel: false, path: [] });
}

/**
 * The value as it goes over the wire: a fresh JSON value holding exactly what the schema
 * describes. `toJSON()` is applied (a Date becomes its ISO string), undefined properties are
 * dropped, and properties the schema does not declare (a class's private fields, an
 * upstream's extra keys) are left behind without being looked at. A value JSON cannot carry
 * (bigint, a cycle, a function or symbol, NaN where a number is promised) throws a WireError
 * that says where it is.
 *
 * With `schema` = `{}` this is JSON.parse(JSON.stringify(value)) without the string.
 */
export function toWire(value: unknown, schema: JsonSchema = ANY, oracle?: BranchOracle): unknown {
  let projected: unknown;
  try {
    projected = project(value, schema, { root: schema, oracle, ancestors: [], everyLevel: false, path: [] });
  } catch (error) {
    if (error !== START_OVER) throw error;
    projected = project(value, schema, { root: schema, oracle, ancestors: [], everyLevel: true, path: [] });
  }
  return projected === undefined ? null : projected;
}
