/**
 * fast-check arbitraries from published JSON Schemas: values a schema describes, and
 * mutations of them. The schemas only propose values; what is true is decided elsewhere (by
 * TypeScript, test/support/ts-oracle.ts).
 *
 * - `valuesOf(schema)`: values the schema accepts (for the keywords typemcp writes).
 * - `mutantsOf(schema, "strict")`: one mutation of such a value that no schema of that shape can
 *   accept: a JSON type no branch admits, a missing required key, an extra key where the object
 *   is closed, a value out of its enum, a tuple too long or too short, a fraction for an integer,
 *   a string that is no date-time. Never inside a union's branch (another branch may take it).
 * - `mutantsOf(schema, "broad")`: any mutation, anywhere, unions included; strings and keys
 *   rewritten with the tokens that template literal types and number keys are picky about.
 */
import fc from "fast-check";
import type { JsonSchema } from "./type-fixtures";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Deeper than this, a value stops growing: arrays empty, optional properties left out. */
const MAX_DEPTH = 4;

/** Strings that template literal types and number keys treat specially. */
export const TRICKY_STRINGS = [
  "",
  " ",
  "\t",
  "\n",
  "0",
  "-0",
  "+1",
  "1.",
  ".5",
  ".",
  "-",
  "1e3",
  "1e+21",
  "1e21",
  "1E-7",
  "0x1F",
  "-0x1F",
  "0b101",
  "0o17",
  "1_000",
  "Infinity",
  "-Infinity",
  "NaN",
  "1n",
  "007",
  "00",
  "9007199254740993",
  "123456789012345678901",
  "1.50",
  " 1 ",
  "1 ",
  "\u00a01",
  "\u22121",
  "\u0661",
  "true",
  "false",
  "null",
  "@",
  "a@b",
  "[",
  "]",
  "[]",
  "/",
  "GET /",
  "POST /x",
  "get /",
  "data_",
  "data_x",
  "Data_x",
  "user_",
  "user_1",
  "v1.",
  "v.5.1",
  "v1..5",
  "sn-",
  "sn-1",
  "sn-01",
  "sn--1",
  "sn-1.0",
  "1.5",
  "-1.5",
  "2.5e-7",
  "1e999",
  "-1e400",
  "5e+6",
  "1e-7",
  "1.2.3",
  ".5.",
  "5..5",
  "0.1",
  "-0.5",
];

const KEY_AVOID = new Set(["__proto__"]);

export function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`$ref cycle at ${String(current.$ref)}`);
    const ref = current.$ref as string;
    if (ref === "#") current = root;
    else if (ref.startsWith("#/$defs/")) {
      const target = (root.$defs as Record<string, JsonSchema> | undefined)?.[ref.slice("#/$defs/".length)];
      if (!target) throw new Error(`unresolved $ref ${ref}`);
      current = target;
    } else throw new Error(`unsupported $ref ${ref}`);
  }
  return current;
}

/** A value as JSON makes it: no -0, plain objects and arrays only. */
export function asJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

function jsonTypeOf(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function lookaheadsRemoved(pattern: string): string {
  return pattern.replace(/\(\?[!=](?:\\.|[^()\\])*\)/g, "");
}

/** Strings matching a pattern (fast-check's stringMatching knows no lookaheads: they are checked after). */
function matching(pattern: string): fc.Arbitrary<string> {
  const exact = new RegExp(pattern, "u");
  return fc.stringMatching(new RegExp(lookaheadsRemoved(pattern))).filter((s) => exact.test(s));
}

function plainStrings(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.string({ unit: "grapheme", maxLength: 3 }),
    fc.constantFrom(...TRICKY_STRINGS),
  );
}

function numbers(): fc.Arbitrary<number> {
  return fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0.5, -1.5, 1e21, 1e-7, 2 ** 53 + 2),
  );
}

function integers(): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger());
}

function dateTimes(): fc.Arbitrary<string> {
  return fc
    .date({ min: new Date("0001-01-01T00:00:00.000Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true })
    .map((d) => d.toISOString());
}

export function anyJson(maxDepth = 2): fc.Arbitrary<Json> {
  return fc
    .jsonValue({ maxDepth })
    .map(asJson)
    .filter((v) => !JSON.stringify(v).includes('"__proto__"'));
}

function keysFor(schema: JsonSchema, declared: Set<string>, pattern?: string): fc.Arbitrary<string> {
  const others = Object.keys((schema.patternProperties ?? {}) as object)
    .filter((p) => p !== pattern)
    .map((p) => new RegExp(p, "u"));
  const base =
    pattern === undefined
      ? fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...TRICKY_STRINGS))
      : matching(pattern);
  return base.filter((k) => !declared.has(k) && !KEY_AVOID.has(k) && !others.some((r) => r.test(k)));
}

/** Values the schema accepts. */
export function valuesOf(schema: JsonSchema, root: JsonSchema, depth = 0): fc.Arbitrary<Json> {
  const s = resolve(schema, root);
  const deep = depth >= MAX_DEPTH || (s !== schema && depth >= MAX_DEPTH - 1);
  const next = s !== schema ? depth + 1 : depth;
  if (s.const !== undefined) return fc.constant(s.const as Json);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as Json[]));
  if (Array.isArray(s.anyOf)) {
    let branches = s.anyOf as JsonSchema[];
    if (deep) {
      // Prefer branches that do not recurse.
      const flat = branches.filter(
        (b) => b.$ref === undefined && !["object", "array"].includes(resolve(b, root).type as string),
      );
      if (flat.length) branches = flat;
    }
    return fc.oneof(...branches.map((b) => valuesOf(b, root, next)));
  }
  for (const keyword of ["allOf", "oneOf", "not", "if", "items" in s && s.type !== "array" ? "items" : ""]) {
    if (keyword && s[keyword] !== undefined)
      throw new Error(`valuesOf: ${keyword} is not supported (${JSON.stringify(s)})`);
  }
  switch (s.type) {
    case undefined:
      return anyJson();
    case "string":
      if (typeof s.pattern === "string") return matching(s.pattern);
      if (s.format === "date-time") return dateTimes();
      if (s.format !== undefined) throw new Error(`valuesOf: format ${String(s.format)} is not supported`);
      return plainStrings();
    case "number":
      return numbers().map((n) => (Object.is(n, -0) ? 0 : n));
    case "integer":
      return integers().map((n) => (Object.is(n, -0) ? 0 : n));
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return arrays(s, root, next, deep);
    case "object":
      return objects(s, root, next, deep);
    default:
      throw new Error(`valuesOf: type ${JSON.stringify(s.type)} is not supported`);
  }
}

function arrays(s: JsonSchema, root: JsonSchema, depth: number, deep: boolean): fc.Arbitrary<Json> {
  const prefix = ((s.prefixItems ?? []) as JsonSchema[]).map((p) => valuesOf(p, root, depth + 1));
  const rest = (s.items ?? s.unevaluatedItems) as JsonSchema | undefined;
  const minItems = (s.minItems as number | undefined) ?? 0;
  const maxItems = (s.maxItems as number | undefined) ?? Infinity;
  if (!prefix.length) {
    if (!rest) return fc.constant([]);
    const maxLength = Math.min(deep ? minItems : minItems + 4, maxItems);
    if (maxLength === 0) return fc.constant([]);
    return fc.array(valuesOf(rest, root, depth + 1), { minLength: minItems, maxLength });
  }
  const longest = Math.min(prefix.length, maxItems);
  return fc
    .integer({ min: Math.min(minItems, longest), max: deep ? Math.min(minItems, longest) : longest })
    .chain((n) => {
      const head = fc.tuple(...prefix.slice(0, n)) as fc.Arbitrary<Json[]>;
      if (n < prefix.length || !rest || deep) return head;
      const room = Math.min(3, maxItems - n);
      return fc
        .tuple(head, fc.array(valuesOf(rest, root, depth + 1), { maxLength: room }))
        .map(([h, t]) => [...h, ...t]);
    });
}

function objects(s: JsonSchema, root: JsonSchema, depth: number, deep: boolean): fc.Arbitrary<Json> {
  const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((s.required ?? []) as string[]);
  const declared = new Set(Object.keys(properties));
  const model: Record<string, fc.Arbitrary<Json>> = {};
  for (const [key, sub] of Object.entries(properties)) {
    if (deep && !required.has(key)) continue;
    model[key] = valuesOf(sub, root, depth + 1);
  }
  const record = fc.record(model, { requiredKeys: Object.keys(model).filter((k) => required.has(k)) });
  const parts: fc.Arbitrary<Record<string, Json>>[] = [];
  const maxKeys = deep ? 0 : 3;
  for (const [pattern, sub] of Object.entries((s.patternProperties ?? {}) as Record<string, JsonSchema>)) {
    parts.push(
      fc.dictionary(keysFor(s, declared, pattern), valuesOf(sub, root, depth + 1), { maxKeys, noNullPrototype: true }),
    );
  }
  const additional = s.additionalProperties;
  if (additional !== undefined && additional !== false) {
    const sub = additional === true ? {} : (additional as JsonSchema);
    parts.push(fc.dictionary(keysFor(s, declared), valuesOf(sub, root, depth + 1), { maxKeys, noNullPrototype: true }));
  }
  return fc.tuple(record, ...parts).map(([own, ...extras]) => Object.assign({}, ...extras, own) as Json);
}

// ---------------------------------------------------------------------------------------
// Mutations

export type MutationMode = "strict" | "broad";

export interface Mutant {
  value: Json;
  /** What was changed, and where: `missing required key "name" at $.value`. */
  mutation: string;
}

type Path = (string | number)[];

interface Site {
  path: Path;
  /** Builds the mutated node from the original one. */
  mutate: fc.Arbitrary<{ node: Json | typeof REMOVE; what: string }>;
}

const REMOVE = Symbol("remove");

const SAMPLES: Record<string, Json> = {
  string: "mutant",
  number: 0.5,
  boolean: true,
  null: null,
  array: [],
  object: {},
};

/** The JSON types a schema admits (integer as "integer"); undefined when it admits any. */
function admittedTypes(schema: JsonSchema, root: JsonSchema): Set<string> | undefined {
  const s = resolve(schema, root);
  if (Array.isArray(s.anyOf)) {
    const all = new Set<string>();
    for (const branch of s.anyOf as JsonSchema[]) {
      const types = admittedTypes(branch, root);
      if (!types) return undefined;
      for (const t of types) all.add(t);
    }
    return all;
  }
  if (s.const !== undefined) return new Set([jsonTypeOf(s.const as Json)]);
  if (Array.isArray(s.enum)) return new Set((s.enum as Json[]).map(jsonTypeOf));
  if (typeof s.type === "string") return new Set([s.type]);
  return undefined;
}

/** Values of JSON types the schema does not admit at all. */
function wrongTypes(schema: JsonSchema, root: JsonSchema): Json[] {
  const types = admittedTypes(schema, root);
  if (!types) return [];
  const out: Json[] = [];
  for (const [type, sample] of Object.entries(SAMPLES)) {
    if (type === "number" ? types.has("number") : types.has(type)) continue;
    out.push(sample);
  }
  if (!types.has("number") && !types.has("integer")) out.push(3);
  return out;
}

/** Spellings of numbers that TypeScript's `${number}` and number keys are picky about. */
const NUMBER_SPELLINGS = [
  "",
  " ",
  ".5",
  "5.",
  ".",
  "1e999",
  "-1e999",
  "1e+21",
  "5e+6",
  "0x1F",
  "-0x1F",
  "0b1",
  " 1",
  "1 ",
  "+1",
  "-0",
  "007",
  "1_0",
  "Infinity",
  "NaN",
  "1.0",
];

/** The string with one run of digits (and what surrounds a number) written each way TypeScript may disagree about. */
function numberRuns(text: string): string[] {
  const out = new Set<string>();
  for (const match of text.matchAll(/[-+]?[0-9][0-9.eE+-]*|\.[0-9]+/g)) {
    for (const spelling of NUMBER_SPELLINGS)
      out.add(text.slice(0, match.index) + spelling + text.slice(match.index! + match[0].length));
  }
  out.delete(text);
  return [...out];
}

function surgery(text: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.nat({ max: text.length }),
      fc.nat({ max: text.length }),
      fc.oneof(fc.constantFrom(...TRICKY_STRINGS), fc.string({ maxLength: 3 })),
    )
    .map(([a, b, token]) => text.slice(0, Math.min(a, b)) + token + text.slice(Math.max(a, b)));
}

/** Every property name the schema and its definitions declare, with its schema: keys a mutation may add elsewhere. */
function declaredKeys(schema: JsonSchema, root: JsonSchema): [string, JsonSchema][] {
  const found = new Map<string, JsonSchema>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === "object") {
      const properties = (node as JsonSchema).properties;
      if (properties && typeof properties === "object") {
        for (const [key, sub] of Object.entries(properties as Record<string, JsonSchema>))
          if (!found.has(key)) found.set(key, sub);
      }
      Object.values(node).forEach(walk);
    }
  };
  walk([schema, root.$defs ?? {}]);
  return [...found];
}

interface Walk {
  root: JsonSchema;
  mode: MutationMode;
  keys: [string, JsonSchema][];
}

function sitesOf(value: Json, schema: JsonSchema, walk: Walk, path: Path, out: Site[]): void {
  const { root, mode } = walk;
  const s = resolve(schema, root);
  const site = (mutate: fc.Arbitrary<{ node: Json | typeof REMOVE; what: string }>, at: Path = path) =>
    out.push({ path: at, mutate });
  const wrong = wrongTypes(s, root);
  if (wrong.length)
    site(fc.constantFrom(...wrong).map((node) => ({ node, what: `wrong type ${JSON.stringify(node)}` })));
  if (mode === "broad") site(anyJson(1).map((node) => ({ node, what: `replaced by ${JSON.stringify(node)}` })));

  if (Array.isArray(s.anyOf)) {
    if (mode === "strict") return;
    // Into the branches the value fits by JSON type (the oracle decides what comes out).
    for (const branch of s.anyOf as JsonSchema[]) {
      const types = admittedTypes(branch, root);
      if (!types || types.has(jsonTypeOf(value)) || (types.has("integer") && typeof value === "number"))
        sitesOf(value, branch, walk, path, out);
    }
    return;
  }
  if (s.const !== undefined || Array.isArray(s.enum)) {
    const allowed = (s.enum as Json[] | undefined) ?? [s.const as Json];
    const outside: Json[] = [];
    for (const v of allowed) {
      if (typeof v === "string")
        outside.push(`${v}_x`, v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase(), v.slice(1));
      if (typeof v === "number") outside.push(v + 1, v - 1, v + 0.5);
      if (typeof v === "boolean") outside.push(!v);
    }
    const candidates = outside.filter((o) => !allowed.some((a) => a === o));
    if (candidates.length)
      site(fc.constantFrom(...candidates).map((node) => ({ node, what: `out of enum ${JSON.stringify(node)}` })));
    return;
  }
  if (typeof value === "string") {
    if (s.format === "date-time")
      site(
        fc
          .constantFrom("yesterday", "2026-13-01T00:00:00Z", "2026-01-02")
          .map((node) => ({ node, what: `not a date-time ${JSON.stringify(node)}` })),
      );
    if (mode === "broad") {
      site(surgery(value).map((node) => ({ node, what: `string ${JSON.stringify(node)}` })));
      const runs = numberRuns(value);
      if (runs.length)
        site(fc.constantFrom(...runs).map((node) => ({ node, what: `number in string ${JSON.stringify(node)}` })));
    }
    return;
  }
  if (typeof value === "number") {
    if (s.type === "integer" && Number.isInteger(value)) {
      const fraction = Number.isInteger(value + 0.5) ? 0.5 : value + 0.5; // past 2^52, every number is whole
      site(fc.constant({ node: fraction, what: `fraction ${fraction}` }));
    }
    return;
  }
  if (Array.isArray(value)) {
    const prefix = (s.prefixItems ?? []) as JsonSchema[];
    const rest = (s.items ?? s.unevaluatedItems) as JsonSchema | undefined;
    if (typeof s.maxItems === "number" && value.length === s.maxItems) {
      site(
        fc
          .constantFrom<Json>(value.length ? value[value.length - 1] : "extra", null, 1)
          .map((extra) => ({ node: [...value, extra], what: `one item too many` })),
      );
    }
    if (typeof s.minItems === "number" && s.minItems > 0 && value.length === s.minItems) {
      site(fc.constant({ node: value.slice(0, -1), what: `one item too few` }));
    }
    if (mode === "broad") {
      site(anyJson(1).map((extra) => ({ node: [...value, extra], what: `appended ${JSON.stringify(extra)}` })));
      if (value.length)
        site(
          fc
            .nat({ max: value.length - 1 })
            .map((i) => ({ node: value.filter((_, j) => j !== i), what: `removed item ${i}` })),
        );
    }
    value.forEach((item, i) => {
      const sub = prefix[i] ?? rest;
      if (sub) sitesOf(item, sub, walk, [...path, i], out);
    });
    return;
  }
  if (value !== null && typeof value === "object") {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const patterns = Object.entries((s.patternProperties ?? {}) as Record<string, JsonSchema>).map(
      ([p, sub]) => [new RegExp(p, "u"), sub] as const,
    );
    const additional = s.additionalProperties as JsonSchema | boolean | undefined;
    for (const key of (s.required ?? []) as string[]) {
      if (key in value)
        site(fc.constant({ node: REMOVE, what: `missing required key ${JSON.stringify(key)}` }), [...path, key]);
    }
    const schemaOfKey = (key: string): JsonSchema | undefined => {
      if (Object.prototype.hasOwnProperty.call(properties, key)) return properties[key];
      const pattern = patterns.find(([r]) => r.test(key));
      if (pattern) return pattern[1];
      return additional === false ? undefined : additional === undefined || additional === true ? {} : additional;
    };
    if (additional === false) {
      const extra = ["unexpected", "zz_extra", "Extra"].find((k) => schemaOfKey(k) === undefined && !(k in value));
      if (extra)
        site(
          anyJson(1).map((v) => ({ node: v, what: `extra key ${JSON.stringify(extra)}` })),
          [...path, extra],
        );
    } else if (additional !== undefined && additional !== true) {
      const bad = wrongTypes(additional, root);
      const key = ["unexpected", "zz_extra"].find(
        (k) =>
          !(k in value) && !Object.prototype.hasOwnProperty.call(properties, k) && !patterns.some(([r]) => r.test(k)),
      );
      if (bad.length && key)
        site(
          fc.constantFrom(...bad).map((v) => ({ node: v, what: `extra key ${JSON.stringify(key)} of a wrong type` })),
          [...path, key],
        );
    }
    if (mode === "broad") {
      const keys = Object.keys(value);
      if (keys.length) {
        site(
          fc
            .constantFrom(...keys)
            .chain((from) => {
              const runs = numberRuns(from);
              const to = fc.oneof(
                fc.constantFrom(...TRICKY_STRINGS),
                fc.string({ maxLength: 4 }),
                ...(runs.length ? [fc.constantFrom(...runs)] : []),
              );
              return fc.tuple(fc.constant(from), to);
            })
            .map(([from, to]) => {
              const renamed: Record<string, Json> = {};
              for (const [k, v] of Object.entries(value))
                if (!KEY_AVOID.has(k === from ? to : k)) renamed[k === from ? to : k] = v;
              return { node: renamed, what: `key ${JSON.stringify(from)} renamed ${JSON.stringify(to)}` };
            }),
        );
      }
      site(
        fc
          .tuple(fc.oneof(fc.constantFrom(...TRICKY_STRINGS), fc.string({ maxLength: 4 })), anyJson(1))
          .map(([k, v]) => ({
            node: KEY_AVOID.has(k) ? value : { ...value, [k]: v },
            what: `added key ${JSON.stringify(k)}`,
          })),
      );
      // A key declared elsewhere (another branch of a union, another type), with a value of its type.
      const others = walk.keys.filter(([k]) => !(k in value));
      if (others.length) {
        site(
          fc.constantFrom(...others).chain(([k, sub]) =>
            valuesOf(sub, root).map((v) => ({
              node: { ...value, [k]: v },
              what: `added declared key ${JSON.stringify(k)}`,
            })),
          ),
        );
      }
    }
    for (const [key, item] of Object.entries(value)) {
      const sub = schemaOfKey(key);
      if (sub) sitesOf(item, sub, walk, [...path, key], out);
    }
  }
}

function replaced(value: Json, path: Path, node: Json | typeof REMOVE): Json {
  if (!path.length) return node === REMOVE ? null : node;
  const [head, ...tail] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? replaced(item, tail, node) : item));
  const object = value as Record<string, Json>;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(object)) if (k !== head) out[k] = v;
  if (tail.length) out[head as string] = replaced(object[head as string], tail, node);
  else if (node !== REMOVE) out[head as string] = node;
  return out;
}

function pathText(path: Path): string {
  return "$" + path.map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`)).join("");
}

/**
 * One mutation of a value the schema describes, or undefined when that value offers nothing to
 * mutate (in strict mode, a schema every JSON value satisfies never does).
 */
export function mutantsOf(schema: JsonSchema, root: JsonSchema, mode: MutationMode): fc.Arbitrary<Mutant | undefined> {
  const keys = declaredKeys(schema, root);
  return valuesOf(schema, root).chain((value) => {
    const sites: Site[] = [];
    sitesOf(value, schema, { root, mode, keys }, [], sites);
    if (!sites.length) return fc.constant(undefined);
    return fc.nat({ max: sites.length - 1 }).chain((i) =>
      sites[i].mutate.map(({ node, what }): Mutant | undefined => ({
        value: asJson(replaced(value, sites[i].path, node)),
        mutation: `${what} at ${pathText(sites[i].path)}`,
      })),
    );
  });
}

/**
 * Every variant of a value with one number inside a string or a key spelled another way
 * (NUMBER_SPELLINGS): deterministic, for the places where TypeScript's rules on numbers in
 * strings are subtle (`${number}` placeholders, number keys).
 */
export function numberEdgesOf(value: Json): Json[] {
  const out: Json[] = [];
  const walk = (node: Json, path: Path): void => {
    if (typeof node === "string") {
      for (const variant of numberRuns(node)) out.push(replaced(value, path, variant));
    } else if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i]));
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        for (const variant of numberRuns(key)) {
          if (KEY_AVOID.has(variant) || variant in node) continue;
          const renamed: Record<string, Json> = {};
          for (const [k, v] of Object.entries(node)) renamed[k === key ? variant : k] = v;
          out.push(replaced(value, path, renamed));
        }
        walk(item, [...path, key]);
      }
    }
  };
  walk(value, []);
  return out;
}
