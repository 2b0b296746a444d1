import type { JsonSchema } from "../../contract/contract";
import { ANNOTATIONS, type SchemaCompiler } from "./compile";
import { CHECKED_DEPTH, type Check, COPYING, Pass, type Strategy, VALIDATING } from "./pass";

/**
 * A schema's check and a result's wire copy by generated code, for the common case only: a
 * value of plain objects, arrays and JSON scalars that its schema admits. The generated
 * function answers what the closures (runtime/validation/compile.ts) would (the copy; checking,
 * the value itself), or MISS for anything else (an issue, a `toJSON`, a value nested deeper
 * than CHECKED_DEPTH, an exception), and the closures then walk the value as they always do:
 * they stay the one source of what is valid and of every message. A schema's part the
 * generator does not write (a bound on a string, a pattern, a format, a union it cannot tell
 * apart, an open record) is checked there by its closures.
 *
 * Why: the closures are shared by every schema, so their property loads and stores see every
 * schema's objects and are megamorphic in V8; a generated function sees one schema's objects,
 * and builds each copy as an object literal. On the benchmark's eight result shapes the copy
 * costs about a fifth of the closures' instructions (docs/performance.md, "Calls on both
 * revisions, counted"). Where a runtime forbids generating code (Cloudflare Workers throw on
 * `new Function`), nothing is generated and the closures serve every value.
 */

/** What generated code answers for a value it leaves to the closures. */
export const MISS: unique symbol = Symbol("miss");

/** A generated copy or check: the copy (the value, checking), or MISS. */
export type Generated = (value: unknown) => unknown;

let allowed: boolean | undefined;

/** Whether this runtime lets code be generated (probed once: Workers throw an EvalError). */
function generationAllowed(): boolean {
  if (allowed === undefined) {
    try {
      allowed = new Function("return true")() === true;
    } catch {
      allowed = false;
    }
  }
  return allowed;
}

/** A schema's keywords that say which values are valid (`$defs` only holds what references point at). */
const checking = (schema: JsonSchema) =>
  Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword) && keyword !== "$defs");

/** A JSON scalar a generated `===` can compare with: a string, a finite number, a boolean, null. */
const isScalar = (value: unknown) =>
  value === null ||
  typeof value === "string" ||
  typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value));

/**
 * Each scalar type as a test of the expression `x`, as the closures test it (typeTest,
 * runtime/validation/values.ts). An integer beyond 2^53 - 1 is refused among arguments and sent
 * as it is in a result (Strategy.unsafeInteger): the copy's test is `isInteger`, the check's
 * `isSafeInteger`.
 */
const TYPE_TESTS: Record<string, (x: string) => string> = {
  string: (x) => `typeof ${x} === "string"`,
  number: (x) => `(typeof ${x} === "number" && isFinite(${x}))`,
  integer: (x) => `isInteger(${x})`,
  boolean: (x) => `typeof ${x} === "boolean"`,
  null: (x) => `${x} === null`,
};

/** The generated source of one schema document's copy or check: a function per object, array, union and `$ref` target. */
class Source {
  readonly functions: string[] = [];
  /** Parts of the schema left to their closures, by index (`slow(i, x)` in the source). */
  readonly slow: Check[] = [];
  private readonly refs = new Map<string, string>();

  constructor(
    /** The closures' compiler of the same schema document: a part's closures, a `$ref`'s target, a union's types. */
    private readonly compiler: SchemaCompiler,
    /** Copying (results), or checking only (arguments, answers: values from JSON.parse, their own result). */
    private readonly copying: boolean,
  ) {}

  /** A toJSON, own or inherited, is the copy's to apply: the closures' (checking applies none). */
  private get noToJSON(): string {
    return this.copying ? " || v.toJSON !== undefined" : "";
  }

  /**
   * A test of the expression `x` that holds when `x` is valid under a scalar schema (a value
   * that is its own copy); undefined for any other schema.
   */
  scalar(schema: JsonSchema | boolean, x: string): string | undefined {
    if (typeof schema !== "object" || schema === null) return undefined;
    const tests: string[] = [];
    for (const keyword of checking(schema)) {
      const value = schema[keyword];
      if (keyword === "type") {
        const test =
          value === "integer" && !this.copying
            ? (x: string) => `isSafeInteger(${x})`
            : typeof value === "string" && Object.hasOwn(TYPE_TESTS, value)
              ? TYPE_TESTS[value]
              : undefined;
        if (!test) return undefined;
        tests.push(test(x));
      } else if (keyword === "const") {
        if (!isScalar(value)) return undefined;
        tests.push(`${x} === ${JSON.stringify(value)}`);
      } else if (keyword === "enum") {
        if (!Array.isArray(value) || value.length === 0 || !value.every(isScalar)) return undefined;
        tests.push(`(${value.map((option) => `${x} === ${JSON.stringify(option)}`).join(" || ")})`);
      } else if (keyword === "anyOf") {
        if (!Array.isArray(value) || value.length === 0) return undefined;
        const branches = value.map((branch) => this.scalar(branch as JsonSchema, x));
        if (branches.some((branch) => branch === undefined)) return undefined;
        tests.push(`(${branches.join(" || ")})`);
      } else return undefined;
    }
    return tests.length ? tests.join(" && ") : undefined;
  }

  /**
   * Statements that check the variable `x` under `schema` and leave its copy in it (undefined
   * when the closures leave it out), or return MISS.
   */
  convert(schema: JsonSchema | boolean, x: string): string {
    const test = this.scalar(schema, x);
    if (test) return `if (!(${test})) return MISS;`;
    return `${x} = ${this.function(schema)}(${x}, d + 1); if (${x} === MISS) return MISS;`;
  }

  /** The name of a generated function `(v, d)` answering the copy of `v` under `schema` (or MISS, or undefined). */
  function(schema: JsonSchema | boolean): string {
    if (typeof schema === "object" && schema !== null) {
      const keywords = checking(schema);
      if (keywords.length === 1 && keywords[0] === "$ref" && typeof schema.$ref === "string")
        return this.ref(schema.$ref);
      const body =
        this.object(schema, keywords) ??
        this.array(schema, keywords) ??
        this.union(schema, keywords) ??
        this.leaf(schema);
      if (body) return this.add(body);
    }
    const i = this.slow.push(this.compiler.compile(schema)) - 1;
    return this.add(`return slow(${i}, v);`);
  }

  private add(body: string): string {
    const name = `f${this.functions.length}`;
    this.functions.push(`function ${name}(v, d) {\n${body}\n}`);
    return name;
  }

  private ref(ref: string): string {
    let name = this.refs.get(ref);
    if (name) return name;
    // Named before its body is written: a schema may refer to itself.
    const index = this.functions.push("") - 1;
    name = `f${index}`;
    this.refs.set(ref, name);
    this.functions[index] = `function ${name}(v, d) {\nreturn ${this.function(this.compiler.target(ref))}(v, d);\n}`;
    return name;
  }

  /** A scalar schema at the root or an array's item: the value, when valid, is its copy. */
  private leaf(schema: JsonSchema): string | undefined {
    const test = this.scalar(schema, "v");
    return test && `return ${test} ? v : MISS;`;
  }

  /**
   * An object of declared properties, closed (`additionalProperties: false`) or saying nothing
   * of other keys (the copy holds the declared ones only, as the closures make it): each read
   * once, the copy an object literal in the schema's order.
   */
  private object(schema: JsonSchema, keywords: string[]): string | undefined {
    if (!objectOfProperties(schema, keywords)) return undefined;
    const properties = schema.properties as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    const keys = Object.keys(properties);
    // A class instance is copied as the closures copy it, own properties only.
    const lines = [
      `if (typeof v !== "object" || v === null || isArray(v) || d > ${CHECKED_DEPTH}${this.noToJSON}) return MISS;`,
    ];
    const counted = !this.copying && schema.additionalProperties === false;
    if (counted) lines.push(`let present = ${keys.filter((key) => required.has(key)).length};`);
    keys.forEach((key, i) => {
      const k = JSON.stringify(key);
      lines.push(`let a${i} = hasOwn(v, ${k}) ? v[${k}] : undefined;`);
      const convert = this.convert(properties[key], `a${i}`);
      if (!required.has(key)) lines.push(`if (a${i} !== undefined) { ${counted ? "present++; " : ""}${convert} }`);
      // A copy the closures leave out (a part of them whose toJSON answers undefined) is left to them.
      else {
        lines.push(`if (a${i} === undefined) return MISS;`, convert);
        if (!convert.startsWith("if (!(")) lines.push(`if (a${i} === undefined) return MISS;`);
      }
    });
    if (!this.copying) {
      // An undeclared key of a closed object is an issue among arguments: there is one when
      // the object has more keys than the declared ones it has, as the closures count them.
      if (counted) lines.push("if (keysOf(v).length !== present) return MISS;");
      lines.push("return v;");
    } else if (keys.every((key) => required.has(key))) {
      lines.push(`return { ${keys.map((key, i) => `${JSON.stringify(key)}: a${i}`).join(", ")} };`);
    } else {
      lines.push("const out = {};");
      keys.forEach((key, i) => lines.push(`if (a${i} !== undefined) out[${JSON.stringify(key)}] = a${i};`));
      lines.push("return out;");
    }
    return lines.join("\n");
  }

  /**
   * `anyOf` whose branches a value's JSON type tells apart, as the closures try only the
   * branches of its type: one branch for each type, or, among objects, branches told apart by
   * a property every one requires, each allowing other strings (`status: "open"`, `status:
   * "not_found"`). The one branch that can fit answers; any other union is left to the closures.
   */
  private union(schema: JsonSchema, keywords: string[]): string | undefined {
    if (keywords.length !== 1 || keywords[0] !== "anyOf" || !Array.isArray(schema.anyOf)) return undefined;
    const byType = new Map<string, JsonSchema[]>();
    for (const branch of schema.anyOf as JsonSchema[]) {
      // The branches the closures try for a value of each JSON type (SchemaCompiler.typesOf).
      const types = this.compiler.typesOf(branch);
      if (!types) return undefined;
      for (const type of types) byType.set(type, [...(byType.get(type) ?? []), branch]);
    }
    const lines: string[] = [];
    for (const [type, branches] of byType) {
      const test = TYPE_OF[type];
      if (type !== "object") {
        if (branches.length > 1) return undefined;
        const scalar = this.scalar(branches[0], "v");
        lines.push(`if (${test}) return ${scalar ? `(${scalar}) ? v : MISS` : `${this.function(branches[0])}(v, d)`};`);
        continue;
      }
      if (branches.length === 1) {
        lines.push(`if (${test}) return ${this.function(branches[0])}(v, d);`);
        continue;
      }
      const told = this.toldApart(branches);
      if (!told) return undefined;
      const k = JSON.stringify(told.key);
      lines.push(
        `if (${test}) {`,
        ...(this.copying ? ["if (v.toJSON !== undefined) return MISS;"] : []),
        `const s = hasOwn(v, ${k}) ? v[${k}] : undefined;`,
        ...branches.map(
          (branch, i) =>
            `if (${told.values[i].map((value) => `s === ${JSON.stringify(value)}`).join(" || ")}) return ${this.function(branch)}(v, d);`,
        ),
        "return MISS;",
        "}",
      );
    }
    lines.push("return MISS;");
    return lines.join("\n");
  }

  /** A schema, through `$ref`s that are all it says (undefined: a reference that loops). */
  private resolve(schema: JsonSchema, seen = new Set<string>()): JsonSchema | undefined {
    const keywords = checking(schema);
    if (keywords.length !== 1 || keywords[0] !== "$ref" || typeof schema.$ref !== "string") return schema;
    if (seen.has(schema.$ref)) return undefined;
    seen.add(schema.$ref);
    return this.resolve(this.compiler.target(schema.$ref), seen);
  }

  /** A property that tells object branches apart: required and declared by each, a string const or enum of strings, none shared. */
  private toldApart(branches: JsonSchema[]): { key: string; values: string[][] } | undefined {
    const objects = branches.map((branch) => this.resolve(branch));
    if (objects.some((object) => !object || !objectOfProperties(object, checking(object)))) return undefined;
    const first = objects[0]!;
    for (const key of Object.keys(first.properties as object)) {
      const values = objects.map((object) => {
        const required = (object!.required ?? []) as string[];
        const properties = object!.properties as Record<string, JsonSchema>;
        if (!required.includes(key) || !Object.hasOwn(properties, key)) return undefined;
        const property = this.resolve(properties[key]);
        if (!property || property.type !== "string") return undefined;
        const allowed = "const" in property ? [property.const] : property.enum;
        return Array.isArray(allowed) && allowed.length > 0 && allowed.every((v) => typeof v === "string")
          ? (allowed as string[])
          : undefined;
      });
      if (values.some((v) => v === undefined)) continue;
      const all = values.flat() as string[];
      if (new Set(all).size === all.length) return { key, values: values as string[][] };
    }
    return undefined;
  }

  /** An array of items of one schema: the copy a fresh array, item by item. */
  private array(schema: JsonSchema, keywords: string[]): string | undefined {
    if (
      schema.type !== "array" ||
      !keywords.every((keyword) => ["type", "items", "minItems", "maxItems"].includes(keyword))
    )
      return undefined;
    const { minItems, maxItems } = schema as { minItems?: unknown; maxItems?: unknown };
    if (
      (minItems !== undefined && typeof minItems !== "number") ||
      (maxItems !== undefined && typeof maxItems !== "number")
    )
      return undefined;
    const items = (schema.items ?? true) as JsonSchema | boolean;
    return [
      `if (!isArray(v) || d > ${CHECKED_DEPTH}${this.noToJSON}) return MISS;`,
      "const n = v.length;",
      minItems !== undefined ? `if (n < ${minItems}) return MISS;` : "",
      maxItems !== undefined ? `if (n > ${maxItems}) return MISS;` : "",
      this.copying ? "const out = new Array(n);" : "",
      "for (let i = 0; i < n; i++) {",
      "let x = v[i];",
      this.convert(items, "x"),
      // The closures write null for an item they leave out, and check null: left to them.
      "if (x === undefined) return MISS;",
      this.copying ? "out[i] = x;" : "",
      "}",
      this.copying ? "return out;" : "return v;",
    ].join("\n");
  }
}

/** How a generated union tells a value's JSON type, as jsonType does (runtime/validation/values.ts). */
const TYPE_OF: Record<string, string> = {
  string: `typeof v === "string"`,
  number: `typeof v === "number"`,
  boolean: `typeof v === "boolean"`,
  null: `v === null`,
  array: `isArray(v)`,
  object: `(typeof v === "object" && v !== null && !isArray(v))`,
};

/**
 * An object schema of declared properties the generator writes: closed, or saying nothing of
 * other keys (no `additionalProperties`, no `patternProperties`), every required key declared,
 * none of them "__proto__" (which an object literal would take for the prototype).
 */
function objectOfProperties(schema: JsonSchema, keywords: string[]): boolean {
  if (schema.type !== "object" || typeof schema.properties !== "object" || schema.properties === null) return false;
  if (schema.additionalProperties !== false && schema.additionalProperties !== undefined) return false;
  if (!keywords.every((keyword) => ["type", "properties", "required", "additionalProperties"].includes(keyword)))
    return false;
  const keys = Object.keys(schema.properties);
  const required = schema.required ?? [];
  return (
    !keys.includes("__proto__") &&
    Array.isArray(required) &&
    required.every((key) => typeof key === "string" && keys.includes(key))
  );
}

/** A part of a value checked by its closures, alone: its copy, or MISS when they find an issue or refuse it. */
function slowly(check: Check, strategy: Strategy, value: unknown): unknown {
  const pass = new Pass(strategy, false, 0, {});
  const out = check(value, pass);
  return pass.failed || pass.halted ? MISS : out;
}

/**
 * The generated wire copy of a schema's values (see MISS), or undefined where the runtime
 * forbids generating code or the whole schema is left to the closures. `compiler` is the
 * closures' compiler of the same schema.
 */
export function generateCopy(schema: JsonSchema, compiler: SchemaCompiler): Generated | undefined {
  return generate(schema, compiler, COPYING);
}

/**
 * The generated check of a schema's arguments and answers (values from JSON.parse): the value
 * when it is valid, else MISS (the closures then say why), or undefined as for generateCopy.
 */
export function generateCheck(schema: JsonSchema, compiler: SchemaCompiler): Generated | undefined {
  return generate(schema, compiler, VALIDATING);
}

function generate(schema: JsonSchema, compiler: SchemaCompiler, strategy: Strategy): Generated | undefined {
  if (!generationAllowed()) return undefined;
  const source = new Source(compiler, strategy === COPYING);
  const root = source.function(schema);
  if (source.functions.length === source.slow.length) return undefined; // nothing generated but calls to the closures
  const text = `"use strict";\n${source.functions.join("\n")}\nreturn ${root};`;
  const checks = source.slow;
  const slow = (i: number, value: unknown) => slowly(checks[i], strategy, value);
  const generated = new Function(
    "MISS",
    "hasOwn",
    "keysOf",
    "isArray",
    "isFinite",
    "isInteger",
    "isSafeInteger",
    "slow",
    text,
  )(MISS, Object.hasOwn, Object.keys, Array.isArray, Number.isFinite, Number.isInteger, Number.isSafeInteger, slow) as (
    value: unknown,
    depth: number,
  ) => unknown;
  return (value) => {
    try {
      const out = generated(value, 0);
      return out === undefined ? MISS : out;
    } catch {
      return MISS; // a getter or a Proxy threw: the closures meet it again and say so
    }
  };
}
