/**
 * The JSON Schema keywords typemcp writes and checks, one row each: the values it applies to,
 * how a JSDoc tag and a tag type write it, how a value is checked against it, and the sentence
 * an issue of it is told in. The transformer reads the tags from it
 * (transformer/model/keywords.ts), the runtime's checks and messages read the rest
 * (runtime/validation/), and the tests read the list. A keyword that is no row is one the
 * runtime refuses to compile, never one it ignores.
 *
 * Adding a keyword: its row here, and its tests (test/unit/keywords.test.ts for the tag,
 * test/unit/check.test.ts and test/check-vs-ajv.test.ts for the check and the sentence). A bound
 * (a limit on a number, a length, a count) needs nothing else; a keyword of another shape, a
 * function of the runtime's compiler too (runtime/validation/compile.ts).
 *
 * The rows are in the order validators evaluate a schema's keywords, which is the order the
 * runtime reports issues in: Ajv's, which the tests hold the runtime to.
 */

/** A JSON type a keyword says something about (`integer` is a number here); `any`: every value. */
export type Applies = "number" | "string" | "array" | "object" | "any";

/**
 * The value a JSDoc tag's text and a tag type's literal give the keyword, each read by the
 * transformer (transformer/model/keywords.ts, VALUES): a number; a whole number ≥ 0; a number
 * > 0; a regular expression; one of FORMATS; true or false (an empty tag is true); any JSON
 * value; JSON examples (one value is a list of one); a flag (the tag alone says true); text.
 */
export type TagValue =
  "number" | "count" | "positive" | "pattern" | "format" | "boolean" | "json" | "examples" | "flag" | "text";

export interface Keyword {
  /** The values it says something about; a tag on a type none of whose values are such is an error. */
  applies: Applies;
  /** Says nothing about which values are valid (a title, a description): left out of the checks. */
  annotation?: true;
  /** Written from a JSDoc tag `@keyword` and a tag type `Tag<"keyword", V>`: the value they give. Absent: from the type only. */
  tag?: TagValue;
  /** The tag type runtime/tags.ts exports for it (`Minimum<N>`). */
  tagType?: string;
  /**
   * A bound's check: whether the measured value is outside the keyword's `limit`. What is
   * measured follows `applies`: a number itself, a string's length in code points, an array's
   * number of items. Keywords without it are checked by the runtime's compiler, each by its own
   * function.
   */
  outside?: (measured: number, limit: number) => boolean;
  /**
   * The issue as a sentence, in pydantic's words (which the Python SDK's users know): from the
   * keyword's value in the schema (`expected`), the value found, and that value as a message
   * shows it (`input`, made only when asked for).
   */
  sentence?: (expected: unknown, value: unknown, input: () => string) => string;
}

/**
 * The formats typemcp validates (ajv-formats' checks, runtime/validation/values.ts): a build
 * refuses any other in a `@format` tag or a `Format<…>` type, as the runtime would refuse to
 * check it.
 */
export const KNOWN_FORMATS = [
  "date",
  "time",
  "date-time",
  "iso-time",
  "iso-date-time",
  "duration",
  "uri",
  "uri-reference",
  "uri-template",
  "url",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "regex",
  "uuid",
  "json-pointer",
  "json-pointer-uri-fragment",
  "relative-json-pointer",
  "byte",
  "int32",
  "int64",
  "float",
  "double",
  "password",
  "binary",
] as const;

/** `["a", "b", "c"]` as `"a", "b" or "c"`. */
function oneOf(values: unknown[]): string {
  const texts = values.map((v) => JSON.stringify(v));
  return texts.length === 1 ? texts[0] : `${texts.slice(0, -1).join(", ")} or ${texts[texts.length - 1]}`;
}

const annotation = (tag?: TagValue): Keyword => ({ applies: "any", annotation: true, ...(tag && { tag }) });

const bound = (
  applies: "number" | "string" | "array",
  tagType: string,
  tag: TagValue,
  outside: (measured: number, limit: number) => boolean,
  says: (limit: number) => string,
): Keyword => ({ applies, tag, tagType, outside, sentence: (limit, _, input) => `${says(limit as number)}${input()}` });

/** Every keyword typemcp knows, by name. */
export const KEYWORDS = {
  title: annotation("text"),
  description: annotation(),
  default: annotation("json"),
  examples: annotation("examples"),
  deprecated: annotation("flag"),
  $comment: annotation(),
  readOnly: annotation(),
  writeOnly: annotation(),
  $schema: annotation(),
  $id: annotation(),
  $ref: { applies: "any" },
  $defs: { applies: "any" },
  type: {
    applies: "any",
    tagType: "Integer",
    sentence: (type, value, input) =>
      `Input should be a ${typeof value === "number" && !Number.isFinite(value) ? "finite number" : `valid ${type as string}`}${input()}`,
  },
  const: { applies: "any", sentence: (allowed, _, input) => `Input should be ${JSON.stringify(allowed)}${input()}` },
  enum: { applies: "any", sentence: (allowed, _, input) => `Input should be ${oneOf(allowed as unknown[])}${input()}` },
  anyOf: { applies: "any", sentence: (_, __, input) => `Input matches none of the allowed types${input()}` },
  maximum: bound(
    "number",
    "Maximum",
    "number",
    (v, l) => v > l,
    (l) => `Input should be less than or equal to ${l}`,
  ),
  minimum: bound(
    "number",
    "Minimum",
    "number",
    (v, l) => v < l,
    (l) => `Input should be greater than or equal to ${l}`,
  ),
  exclusiveMaximum: bound(
    "number",
    "ExclusiveMaximum",
    "number",
    (v, l) => v >= l,
    (l) => `Input should be less than ${l}`,
  ),
  exclusiveMinimum: bound(
    "number",
    "ExclusiveMinimum",
    "number",
    (v, l) => v <= l,
    (l) => `Input should be greater than ${l}`,
  ),
  // As JSON Schema validators compute it: the quotient is a whole number.
  multipleOf: bound(
    "number",
    "MultipleOf",
    "positive",
    (v, l) => v / l !== parseInt(String(v / l)),
    (l) => `Input should be a multiple of ${l}`,
  ),
  maxLength: bound(
    "string",
    "MaxLength",
    "count",
    (n, l) => n > l,
    (l) => `String should have at most ${l} characters`,
  ),
  minLength: bound(
    "string",
    "MinLength",
    "count",
    (n, l) => n < l,
    (l) => `String should have at least ${l} characters`,
  ),
  pattern: {
    applies: "string",
    tag: "pattern",
    tagType: "Pattern",
    sentence: (pattern, _, input) => `String should match pattern ${JSON.stringify(pattern)}${input()}`,
  },
  format: {
    applies: "string",
    tag: "format",
    tagType: "Format",
    sentence: (format, _, input) => `Input should be a valid ${format as string}${input()}`,
  },
  maxItems: bound(
    "array",
    "MaxItems",
    "count",
    (n, l) => n > l,
    (l) => `List should have at most ${l} items`,
  ),
  minItems: bound(
    "array",
    "MinItems",
    "count",
    (n, l) => n < l,
    (l) => `List should have at least ${l} items`,
  ),
  prefixItems: { applies: "array" },
  items: { applies: "array" },
  unevaluatedItems: { applies: "array" },
  uniqueItems: {
    applies: "array",
    tag: "boolean",
    tagType: "UniqueItems",
    sentence: (pair, _, input) => {
      const [i, j] = pair as [number, number];
      return `List items should be unique (items ${i} and ${j} are equal)${input()}`;
    },
  },
  properties: { applies: "object" },
  required: { applies: "object", sentence: () => "Field required" },
  additionalProperties: { applies: "object", sentence: () => "Extra inputs are not permitted" },
  patternProperties: { applies: "object" },
} satisfies Record<string, Keyword>;

export type KeywordName = keyof typeof KEYWORDS;

/** The row of a keyword, or undefined for a name that is none (`toString`, `__proto__` too). */
export function keywordRow(name: string): Keyword | undefined {
  return Object.prototype.hasOwnProperty.call(KEYWORDS, name) ? (KEYWORDS as Record<string, Keyword>)[name] : undefined;
}

/** The keywords in the table's order, each with its row. */
export const KEYWORD_ROWS: readonly (readonly [string, Keyword])[] = Object.entries(KEYWORDS);
