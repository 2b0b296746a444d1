import type { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import type { JsonSchema } from "./contract";
import { linearRegExp } from "./linear-regexp";
import { refTarget } from "./wire";

/**
 * The errors of a large rejected value, found with bounded memory: Ajv with `allErrors` would
 * build one error object per wrong item (a million for a million wrong numbers, a gigabyte
 * with their message), where a message shows the first few dozen. So a large value's errors are
 * found by walking it with the schema, as Ajv would (the keywords the transformer writes), keeping
 * the first `limit` and counting the rest: time proportional to the value, memory to its depth.
 * A part of the schema with other keywords is asked of Ajv (its first error there), as are union
 * branches (does the value fit one?).
 */
export interface FoundErrors {
  /** The first errors, in the order of the value. */
  errors: ErrorObject[];
  /** How many there are in all. */
  total: number;
}

/** Keywords the walk checks itself; a schema with any other is asked of Ajv. */
const WALKED = new Set([
  "type", "enum", "const", "$ref", "$defs", "anyOf",
  "properties", "patternProperties", "required", "additionalProperties", "minProperties", "maxProperties",
  "items", "prefixItems", "minItems", "maxItems",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
  "minLength", "maxLength", "pattern",
]);

const hasOwn = Object.prototype.hasOwnProperty;

const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

function jsonType(value: unknown): string | undefined {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  switch (typeof value) {
    case "string":
    case "boolean":
    case "object":
      return typeof value;
    case "number":
      return Number.isFinite(value) ? "number" : undefined; // as Ajv's strictNumbers
    default:
      return undefined;
  }
}

function hasType(value: unknown, type: unknown): boolean {
  if (Array.isArray(type)) return type.some((one) => hasType(value, one));
  const actual = jsonType(value);
  return actual === type || (type === "integer" && actual === "number" && Number.isInteger(value));
}

function codePoints(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** Whether two JSON values are equal (for enum and const of objects). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => hasOwn.call(b, key) && equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The keywords of each type's group in Ajv (checked only for a value of that type), among those the walk knows. */
const TYPE_KEYWORDS: Record<string, string[]> = {
  number: ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"],
  string: ["maxLength", "minLength", "pattern"],
  array: ["maxItems", "minItems", "prefixItems", "items"],
  object: ["maxProperties", "minProperties", "required", "additionalProperties", "properties", "patternProperties"],
};

const TYPES = ["number", "string", "array", "object"];

function hasKeywordsOf(schema: Record<string, unknown>, type: string): boolean {
  return (TYPE_KEYWORDS[type] ?? []).some((keyword) => schema[keyword] !== undefined);
}

/** Whether the walk checks a schema itself: it has only WALKED keywords. */
function isWalkable(schema: unknown): schema is Record<string, unknown> {
  return schema !== null && typeof schema === "object" && !Array.isArray(schema) && Object.keys(schema).every((keyword) => WALKED.has(keyword));
}

/** How the walk checks one schema: the types whose keywords it has, in Ajv's order, and whether its type is checked first. */
interface Plan {
  upFront: boolean;
  groups: string[];
}

/** A schema's plan, or null when the walk asks Ajv about it (it has a keyword the walk does not check). */
function planOf(schema: unknown): Plan | null {
  if (!isWalkable(schema)) return null;
  const type = schema.type;
  return {
    upFront: type !== undefined && !(typeof type === "string" && hasKeywordsOf(schema, type)),
    groups: TYPES.filter((group) => hasKeywordsOf(schema, group)),
  };
}

class Walk {
  /** The plans of this walk's schemas (a Map: faster than a WeakMap on every item of a long array). */
  private readonly plans = new Map<unknown, Plan | null>();
  readonly errors: ErrorObject[] = [];
  total = 0;
  private readonly patterns = new Map<string, { test(text: string): boolean }>();
  /** The instance path to the value being walked, as escaped segments: joined only for an error that is kept. */
  private readonly path: (string | number)[] = [];

  constructor(
    private readonly root: JsonSchema,
    private readonly limit: number,
    /** Ajv's validator (first error only) of the sub-schema at a JSON pointer of the root. */
    private readonly validatorAt: (pointer: string) => ValidateFunction,
  ) {}

  private get instancePath(): string {
    return this.path.length ? `/${this.path.join("/")}` : "";
  }

  /**
   * Counts an error of `keyword` in the schema at `pointer`, and keeps it (with its one
   * parameter, as Ajv names it) while fewer than `limit` are kept: past that, an error costs
   * a count and no allocation.
   */
  private error(pointer: string, keyword: string, param?: string, value?: unknown): void {
    this.total++;
    if (this.errors.length >= this.limit) return;
    this.errors.push({ instancePath: this.instancePath, schemaPath: `#${pointer}/${keyword}`, keyword, params: param === undefined ? {} : { [param]: value } });
  }

  /** Ajv's own first error of the sub-schema at `pointer`, placed where the walk is. */
  private asked(pointer: string, value: unknown): void {
    const validate = this.validatorAt(pointer);
    if (validate(value) === true) return;
    const [first] = validate.errors ?? [];
    this.total++;
    if (first && this.errors.length < this.limit) {
      this.errors.push({ ...first, instancePath: this.instancePath + first.instancePath, schemaPath: `#${pointer}${first.schemaPath.slice(1)}` });
    }
  }

  /** Walks the value at `key` of the current one. */
  private child(schema: unknown, pointer: string, value: unknown, key: string | number): void {
    this.path.push(key);
    this.walk(schema, pointer, value);
    this.path.pop();
  }

  walk(schema: unknown, pointer: string, value: unknown): void {
    if (schema === true) return;
    let plan = this.plans.get(schema);
    if (plan === undefined) this.plans.set(schema, (plan = planOf(schema)));
    if (plan === null) {
      this.asked(pointer, value);
      return;
    }
    const s = schema as Record<string, unknown>;
    if (s.$ref !== undefined) {
      const target = refTarget(s.$ref, this.root);
      if (target === undefined || typeof s.$ref !== "string") return this.asked(pointer, value);
      this.walk(target, s.$ref.slice(1), value);
    }
    // In Ajv's order: a type checked up front (unless it is one type and the schema has keywords
    // of that type), then const, enum and anyOf, then the keywords of each type the schema has,
    // for a value of that type; a type not checked up front is reported at its keywords' place.
    const wrongType = s.type !== undefined && !hasType(value, s.type);
    const { upFront, groups } = plan;
    if (wrongType && upFront) this.error(pointer, "type", "type", s.type);
    if (s.const !== undefined && !equal(s.const, value)) this.error(pointer, "const", "allowedValue", s.const);
    if (Array.isArray(s.enum) && !s.enum.some((allowed) => equal(allowed, value))) this.error(pointer, "enum", "allowedValues", s.enum);
    if (Array.isArray(s.anyOf)) {
      const fits = s.anyOf.some((_, i) => this.validatorAt(`${pointer}/anyOf/${i}`)(value) === true);
      if (!fits) this.error(pointer, "anyOf");
    }
    if (groups.length === 0) return;
    const group = jsonType(value);
    for (const type of groups) {
      if (group === type) this.typed(type, s, pointer, value);
      else if (wrongType && !upFront && s.type === type) this.error(pointer, "type", "type", s.type);
    }
  }

  private typed(type: string, s: Record<string, unknown>, pointer: string, value: unknown): void {
    if (type === "number") this.number(s, pointer, value as number);
    else if (type === "string") this.string(s, pointer, value as string);
    else if (type === "array") this.array(s, pointer, value as unknown[]);
    else this.object(s, pointer, value as Record<string, unknown>);
  }

  private number(s: Record<string, unknown>, pointer: string, value: number): void {
    const bound = (keyword: string, holds: (limit: number) => boolean) => {
      const limit = s[keyword];
      if (typeof limit === "number" && !holds(limit)) this.error(pointer, keyword, "limit", limit);
    };
    bound("maximum", (limit) => value <= limit);
    bound("minimum", (limit) => value >= limit);
    bound("exclusiveMaximum", (limit) => value < limit);
    bound("exclusiveMinimum", (limit) => value > limit);
    if (typeof s.multipleOf === "number") {
      const ratio = value / s.multipleOf; // as Ajv checks it (no multipleOfPrecision)
      if (ratio !== parseInt(String(ratio))) this.error(pointer, "multipleOf", "multipleOf", s.multipleOf);
    }
  }

  private string(s: Record<string, unknown>, pointer: string, value: string): void {
    if (typeof s.maxLength === "number" || typeof s.minLength === "number") {
      const length = codePoints(value);
      if (typeof s.maxLength === "number" && length > s.maxLength) this.error(pointer, "maxLength", "limit", s.maxLength);
      if (typeof s.minLength === "number" && length < s.minLength) this.error(pointer, "minLength", "limit", s.minLength);
    }
    if (typeof s.pattern === "string" && !this.regExp(s.pattern).test(value)) this.error(pointer, "pattern", "pattern", s.pattern);
  }

  private array(s: Record<string, unknown>, pointer: string, value: unknown[]): void {
    if (typeof s.maxItems === "number" && value.length > s.maxItems) this.error(pointer, "maxItems", "limit", s.maxItems);
    if (typeof s.minItems === "number" && value.length < s.minItems) this.error(pointer, "minItems", "limit", s.minItems);
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    for (let i = 0; i < Math.min(prefix.length, value.length); i++) this.child(prefix[i], `${pointer}/prefixItems/${i}`, value[i], i);
    if (s.items === false) {
      // After a tuple's prefixItems: no more items than the prefix (one error, as Ajv says it).
      if (value.length > prefix.length) this.error(pointer, "items", "limit", prefix.length);
    } else if (s.items !== undefined) {
      const items = `${pointer}/items`;
      for (let i = prefix.length; i < value.length; i++) this.child(s.items, items, value[i], i);
    }
  }

  private object(s: Record<string, unknown>, pointer: string, value: Record<string, unknown>): void {
    const present = (key: string) => value[key] !== undefined && hasOwn.call(value, key);
    const keys = Object.keys(value);
    if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) this.error(pointer, "maxProperties", "limit", s.maxProperties);
    if (typeof s.minProperties === "number" && keys.length < s.minProperties) this.error(pointer, "minProperties", "limit", s.minProperties);
    if (Array.isArray(s.required)) {
      for (const name of s.required) if (typeof name === "string" && !present(name)) this.error(pointer, "required", "missingProperty", name);
    }
    const properties = s.properties !== null && typeof s.properties === "object" ? (s.properties as Record<string, unknown>) : undefined;
    const patterns = s.patternProperties !== null && typeof s.patternProperties === "object" ? Object.keys(s.patternProperties) : [];
    const additional = s.additionalProperties;
    if (additional !== undefined) {
      for (const key of keys) {
        if ((properties && hasOwn.call(properties, key)) || patterns.some((pattern) => this.regExp(pattern).test(key))) continue;
        if (additional === false) this.error(pointer, "additionalProperties", "additionalProperty", key);
        else this.child(additional, `${pointer}/additionalProperties`, value[key], escapePointer(key));
      }
    }
    if (properties) {
      for (const name of Object.keys(properties)) {
        if (present(name)) this.child(properties[name], `${pointer}/properties/${escapePointer(name)}`, value[name], escapePointer(name));
      }
    }
    for (const pattern of patterns) {
      const schema = (s.patternProperties as Record<string, unknown>)[pattern];
      for (const key of keys) {
        if (this.regExp(pattern).test(key)) this.child(schema, `${pointer}/patternProperties/${escapePointer(pattern)}`, value[key], escapePointer(key));
      }
    }
  }

  private regExp(pattern: string): { test(text: string): boolean } {
    let regExp = this.patterns.get(pattern);
    if (!regExp) this.patterns.set(pattern, (regExp = linearRegExp(pattern)));
    return regExp;
  }
}

/** The first `limit` errors of `value` under `root` (which it must fail), and how many there are. */
export function boundedErrors(root: JsonSchema, value: unknown, limit: number, validatorAt: (pointer: string) => ValidateFunction): FoundErrors {
  const walk = new Walk(root, limit, validatorAt);
  walk.walk(root, "", value);
  return { errors: walk.errors, total: walk.total };
}

/** Whether a value has more than `limit` parts (values inside it, itself included): counted up to that, no further. */
export function hasMoreParts(value: unknown, limit: number): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const part = stack.pop();
    if (++count > limit) return true;
    if (part !== null && typeof part === "object") {
      if (Array.isArray(part)) {
        if (count + part.length > limit) return true;
        for (const item of part) stack.push(item);
      } else {
        const keys = Object.keys(part);
        if (count + keys.length > limit) return true;
        for (const key of keys) stack.push((part as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}
