import { ANNOTATIONS } from "./compile";
import type { JsonSchema } from "../../contract/contract";

/**
 * A JSON resource's text written while its value is checked, in one walk: what
 * `JSON.stringify(validator.wireCopy(value).value, null, 2)` writes, for the values of the plain
 * shape most results have (declared keys of a closed object, items of an array, scalars of
 * their type, string-literal unions, nullable types). Anything else — a value the check would
 * refuse, a `toJSON`, an undefined item, a value nested as deep as the wire copy's cycle search
 * (runtime/validation/pass.ts, CHECKED_DEPTH) — makes it answer undefined, and the resource takes the
 * wire copy and JSON.stringify as before, which give the same text or the same error: this
 * is a shortcut, never a second opinion. A schema with a keyword it does not write (a
 * pattern, a bound, a record's keys...) has no writer at all.
 *
 * Measured on the benchmark's JSON resource (callgrind, `node --predictable`): the wire copy
 * and JSON.stringify count 44.5k instructions a read, this 20.4k: less than JSON.stringify
 * alone with its two spaces (22.2k) (docs/performance.md).
 */
export type JsonWriter = (value: unknown) => string | undefined;

/** One sub-schema's writer: the value's text at `depth` (its indentation), or undefined to take the long way. */
type Write = (value: unknown, depth: number) => string | undefined;

/** As runtime/validation/pass.ts: cycles are looked for from this depth; the writer leaves such values to it. */
const CHECKED_DEPTH = 32;

/** Indentation by depth: JSON.stringify's with a gap of two spaces. */
const INDENT = Array.from({ length: CHECKED_DEPTH + 1 }, (_, depth) => "  ".repeat(depth));

// What goes before an item and after the last, by depth, made once: each `+` makes a rope node
// (flattened at the end, FLATTEN), and fewer of them is fewer to make and to copy.
const FIRST_ITEM = INDENT.map((indent) => "\n" + indent);
const NEXT_ITEM = INDENT.map((indent) => ",\n" + indent);
const CLOSE_ARRAY = INDENT.map((indent) => "\n" + indent + "]");
const CLOSE_OBJECT = INDENT.map((indent) => "\n" + indent + "}");

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** The keywords a writer understands; a schema with another (beside annotations) has none. */
const WRITTEN = new Set([
  "$ref",
  "$defs",
  "type",
  "const",
  "enum",
  "anyOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
]);

/** Not writable here: the caller keeps to the wire copy. */
class Unwritable extends Error {}

/** A string as JSON writes it: quoted, escaped where it must be (the quote, the backslash, controls, lone surrogates). */
function quoted(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}

/** A value with its own idea of its JSON (a Date, a class with toJSON): left to the wire copy, which applies it. */
const hasToJSON = (value: object): boolean => typeof (value as { toJSON?: unknown }).toJSON === "function";

/** A property name JSON objects order before the others (an array index): left to the wire copy. */
const isIndex = (key: string): boolean => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;

class Writers {
  private readonly refs = new Map<string, Write>();

  constructor(private readonly root: JsonSchema) {}

  compile(schema: JsonSchema | boolean): Write {
    if (typeof schema !== "object" || schema === null) throw new Unwritable();
    const keywords = Object.keys(schema).filter((keyword) => !ANNOTATIONS.has(keyword) && keyword !== "$defs");
    for (const keyword of keywords) if (!WRITTEN.has(keyword)) throw new Unwritable();
    if (typeof schema.$ref === "string") {
      if (keywords.length !== 1) throw new Unwritable();
      return this.ref(schema.$ref);
    }
    if (Array.isArray(schema.anyOf)) {
      if (keywords.length !== 1) throw new Unwritable();
      return this.union(schema.anyOf as JsonSchema[]);
    }
    if ("const" in schema || Array.isArray(schema.enum)) {
      if (keywords.some((keyword) => keyword !== "type" && keyword !== "const" && keyword !== "enum"))
        throw new Unwritable();
      if ("const" in schema && "enum" in schema) throw new Unwritable();
      return this.literals(schema);
    }
    switch (schema.type) {
      case "string":
      case "number":
      case "integer":
      case "boolean":
      case "null":
        if (keywords.length !== 1) throw new Unwritable();
        return scalar(schema.type);
      case "array":
        if (keywords.some((keyword) => keyword !== "type" && keyword !== "items")) throw new Unwritable();
        return this.array(schema);
      case "object":
        return this.object(schema, keywords);
      default:
        throw new Unwritable();
    }
  }

  /** `$ref` to the root or one of its `$defs`, compiled when first run (a schema may refer to itself). */
  private ref(ref: string): Write {
    let write = this.refs.get(ref);
    if (!write) {
      let target: JsonSchema;
      if (ref === "#") target = this.root;
      else {
        const defs = this.root.$defs as Record<string, JsonSchema> | undefined;
        const name = ref.startsWith("#/$defs/") ? ref.slice(8).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
        if (name === undefined || !defs || !hasOwn(defs, name)) throw new Unwritable();
        target = defs[name];
      }
      let compiled: Write | undefined;
      write = (value, depth) => (compiled ??= this.compile(target))(value, depth);
      this.refs.set(ref, write);
      // Compiled now where it can be (a recursive one finds itself in the map): an unwritable target makes the whole schema so.
      compiled = this.compile(target);
    }
    return write;
  }

  /**
   * `anyOf` whose branches admit JSON types no other branch does (`T | null`): the value's type
   * picks the only branch it could fit, which the validation picks too. Others are not written.
   */
  private union(branches: JsonSchema[]): Write {
    const byType = new Map<string, Write>();
    for (const branch of branches) {
      const types = this.typesOf(branch);
      const write = this.compile(branch);
      for (const type of types) {
        if (byType.has(type)) throw new Unwritable();
        byType.set(type, write);
      }
    }
    return (value, depth) => {
      if (value !== null && typeof value === "object" && hasToJSON(value)) return undefined;
      const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
      return byType.get(type)?.(value, depth);
    };
  }

  /** The JSON types a branch admits, as the compiler's typesOf finds them (runtime/validation/compile.ts) (integer is a number); any other branch is not written. */
  private typesOf(schema: JsonSchema, seen = new Set<string>()): string[] {
    if (typeof schema.$ref === "string") {
      if (seen.has(schema.$ref)) throw new Unwritable();
      seen.add(schema.$ref);
      const ref = schema.$ref;
      if (ref === "#") return this.typesOf(this.root, seen);
      const name = ref.startsWith("#/$defs/") ? ref.slice(8).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
      const defs = this.root.$defs as Record<string, JsonSchema> | undefined;
      if (name === undefined || !defs || !hasOwn(defs, name)) throw new Unwritable();
      return this.typesOf(defs[name], seen);
    }
    if (typeof schema.type === "string") return [schema.type === "integer" ? "number" : schema.type];
    throw new Unwritable();
  }

  /** `const` or `enum` of scalars (with their `type`, if any): each allowed value's text, known beforehand. */
  private literals(schema: JsonSchema): Write {
    const allowed = "const" in schema ? [schema.const] : (schema.enum as unknown[]);
    const type = schema.type;
    const texts = new Map<unknown, string>();
    for (const option of allowed) {
      const kind = option === null ? "null" : typeof option;
      if (kind !== "string" && kind !== "number" && kind !== "boolean" && kind !== "null") throw new Unwritable();
      if (typeof option === "number" && !Number.isFinite(option)) throw new Unwritable();
      // One of another type than the schema's is allowed by the enum and refused by the type: never written.
      if (type !== undefined && !ofType(type, option)) continue;
      texts.set(option, JSON.stringify(option));
    }
    return (value) => texts.get(value);
  }

  private array(schema: JsonSchema): Write {
    if (schema.items === undefined) throw new Unwritable();
    const item = this.compile(schema.items as JsonSchema);
    return (value, depth) => {
      if (!Array.isArray(value) || hasToJSON(value) || depth >= CHECKED_DEPTH) return undefined;
      const items = value as unknown[];
      if (items.length === 0) return "[]";
      const first = FIRST_ITEM[depth + 1];
      const next = NEXT_ITEM[depth + 1];
      let text = "[";
      for (let i = 0; i < items.length; i++) {
        // An undefined item (or a hole) goes out as null, after null is checked: the wire copy's.
        const written = items[i] === undefined ? undefined : item(items[i], depth + 1);
        if (written === undefined) return undefined;
        text += (i === 0 ? first : next) + written;
      }
      return text + CLOSE_ARRAY[depth];
    };
  }

  /**
   * A closed object (`additionalProperties: false`, typemcp's interfaces): its declared keys in
   * their order, an undefined one left out (a missing required one refused), undeclared ones
   * left behind, as the wire copy leaves them.
   */
  private object(schema: JsonSchema, keywords: string[]): Write {
    if (schema.additionalProperties !== false) throw new Unwritable();
    if (keywords.some((keyword) => !["type", "properties", "required", "additionalProperties"].includes(keyword)))
      throw new Unwritable();
    const declared = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
    const keys = Object.keys(declared);
    // The wire copy orders index keys first (JavaScript's property order), and defines "__proto__": not written here.
    if (keys.some((key) => isIndex(key) || key === "__proto__")) throw new Unwritable();
    const required = new Set((schema.required as string[] | undefined) ?? []);
    const isRequired = keys.map((key) => required.has(key));
    const names = keys.map((key) => `${JSON.stringify(key)}: `);
    const writes = keys.map((key) => this.compile(declared[key]));
    // Each key's text at a depth, as the first one and as a later one, made when the depth is first met.
    const firstKeys: string[][] = [];
    const nextKeys: string[][] = [];
    return (value, depth) => {
      if (value === null || typeof value !== "object" || Array.isArray(value) || hasToJSON(value)) return undefined;
      if (depth >= CHECKED_DEPTH) return undefined;
      const object = value as Record<string, unknown>;
      const firstKey = (firstKeys[depth] ??= names.map((name) => FIRST_ITEM[depth + 1] + name));
      const nextKey = (nextKeys[depth] ??= names.map((name) => NEXT_ITEM[depth + 1] + name));
      let text = "{";
      let first = true;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        const item = hasOwn(object, key) ? object[key] : undefined;
        if (item === undefined) {
          if (isRequired[i]) return undefined;
          continue;
        }
        const written = writes[i](item, depth + 1);
        if (written === undefined) return undefined;
        text += (first ? firstKey[i] : nextKey[i]) + written;
        first = false;
      }
      return first ? "{}" : text + CLOSE_OBJECT[depth];
    };
  }
}

/** Whether a scalar is of a JSON Schema type, as the compiler's typeTest says. */
function ofType(type: unknown, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isSafeInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    default:
      return false;
  }
}

/** A scalar type and nothing else: a value of the type is its own copy (the compiler's fast path); a number is written as JSON writes it. */
function scalar(type: "string" | "number" | "integer" | "boolean" | "null"): Write {
  switch (type) {
    case "string":
      return (value) => (typeof value === "string" ? quoted(value) : undefined);
    case "number":
      return (value) => (typeof value === "number" && Number.isFinite(value) ? String(value) : undefined);
    case "integer":
      // Beyond the safe range the compiler's checks take their general path: left to it.
      return (value) => (Number.isSafeInteger(value) ? String(value) : undefined);
    case "boolean":
      return (value) => (value === true ? "true" : value === false ? "false" : undefined);
    case "null":
      return (value) => (value === null ? "null" : undefined);
  }
}

/**
 * Matches at once, and is run for what V8 does first: a regular expression runs on a flat
 * string, so V8 copies the text the writer's `+=` built (a rope: a node per piece, about a
 * hundred for the benchmark's resource) into one. An answer can outlive a scavenge (in the
 * benchmark's runs the heap grows from one to the next, the floor's as typemcp's, until a full
 * collection), and a surviving rope costs it a copy of every node: counted on 2026-07-28, the
 * benchmark's JSON resource took 348k instructions a read against the floor's 278k, 163k of
 * them in the collector against 80k (docs/performance.md).
 */
const FLATTEN = /^/;

/** The writer of a result schema, or undefined when the schema has a keyword or form it does not write. */
export function jsonWriterOf(schema: JsonSchema): JsonWriter | undefined {
  let write: Write;
  try {
    write = new Writers(schema).compile(schema);
  } catch (error) {
    if (error instanceof Unwritable) return undefined;
    throw error;
  }
  return (value) => {
    const text = write(value, 0);
    if (text !== undefined) FLATTEN.test(text);
    return text;
  };
}
