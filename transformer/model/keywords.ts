import { KEYWORD_ROWS, KNOWN_FORMATS, type TagValue } from "../../contract/keywords";
import type { JsonValue, Keywords, Model } from "./model";

/**
 * The JSON Schema keywords typemcp writes from JSDoc tags (`@minimum 0`) and from its tag
 * types (`number & Minimum<0>`): the rows of contract/keywords.ts that have a tag, each read
 * by the reader of its kind of value (VALUES), so both ways of writing a constraint mean
 * exactly the same.
 */

type Applies = "number" | "string" | "array" | "object" | "any";

/** How the value of one kind (contract/keywords.ts, TagValue) is read from a tag's text and checked in a tag type. */
interface ValueReader {
  /** The keyword's value from a JSDoc tag's text; a message when the text is not one. */
  fromText(text: string): JsonValue | { error: string };
  /** Whether a value from a tag type is valid; a message when not. */
  check(value: JsonValue): string | undefined;
}

const FORMATS: readonly string[] = KNOWN_FORMATS;

/** A value as a message shows it: JSON, but numbers as JavaScript writes them (JSON writes Infinity as null). */
const shown = (value: JsonValue) => (typeof value === "number" ? String(value) : JSON.stringify(value));

/** Why a value is not JSON: a number JSON has not (`1e400` parses as Infinity). Undefined when it is JSON. */
function notJson(value: JsonValue): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
  if (Array.isArray(value)) return value.map(notJson).find((problem) => problem !== undefined);
  if (value !== null && typeof value === "object")
    return Object.values(value)
      .map(notJson)
      .find((problem) => problem !== undefined);
  return undefined;
}

/**
 * A JSON value from a tag's text; an error when it holds what JSON cannot carry, or looks like
 * a JSON object, array or string and is neither JSON nor JSON5 (taken as a string it would be
 * a default its own schema refuses).
 */
function jsonFromText(text: string): JsonValue | { error: string } {
  const value = json(text);
  if (value === undefined)
    return {
      error: `takes a JSON value: ${text.trim()} is neither JSON nor JSON5 (keys and strings go in quotes)`,
    };
  const problem = notJson(value);
  return problem ? { error: `takes a JSON value: ${problem}` } : value;
}

const checkJson = (value: JsonValue) => {
  const problem = notJson(value);
  return problem && `takes a JSON value: ${problem}`;
};

const number = (check: (n: number) => string | undefined = () => undefined): ValueReader => ({
  fromText: (text) => {
    const value = text.trim() === "" ? NaN : Number(text);
    if (!Number.isFinite(value)) return { error: `takes a number, not ${JSON.stringify(text)}` };
    // The same bounds as a tag type's value: `@minLength 1.5` is no more a schema than MinLength<1.5>.
    const problem = check(value);
    return problem === undefined ? value : { error: problem };
  },
  check: (value) =>
    typeof value === "number" && Number.isFinite(value) ? check(value) : `takes a number, not ${shown(value)}`,
});

const count = number((n) => (Number.isInteger(n) && n >= 0 ? undefined : `takes a whole number ≥ 0, not ${n}`));
const positive = number((n) => (n > 0 ? undefined : `takes a number > 0, not ${n}`));

function checkPattern(value: JsonValue): string | undefined {
  if (typeof value !== "string") return `takes a regular expression, not ${JSON.stringify(value)}`;
  try {
    new RegExp(value, "u");
    return undefined;
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
}

const checkFormat = (value: JsonValue) =>
  typeof value === "string" && FORMATS.includes(value)
    ? undefined
    : `is not a format typemcp validates (one of: ${FORMATS.join(", ")})`;

/** Text that opens a JSON object, array or string: read as JSON5 when it is not JSON. */
const JSON_LIKE = /^\s*[[{"']/;

/** JSON5, loaded the first time a tag's text needs it (most never do). */
let json5: { parse(text: string): unknown } | undefined;

/**
 * The JSON value a tag's text is: JSON; or, for an object, an array or a quoted string that is
 * not JSON, JSON5, which is how such values are written in code (`{extra: {field: "value"}}`,
 * unquoted keys, single quotes, a trailing comma); or, for other text, the string it says
 * (`@default metric`). Undefined when it opens an object, array or string and is neither.
 * (A bare number stays JSON's: `0x10` and `Infinity` are the strings they say.)
 */
function json(text: string): JsonValue | undefined {
  const parsed = jsonText(text);
  if (parsed !== undefined) return parsed.value;
  return JSON_LIKE.test(text) ? undefined : text.trim();
}

/** The value of a tag's text as JSON, or JSON5 where it opens an object, array or string; undefined when it is no such value. */
function jsonText(text: string): { value: JsonValue } | undefined {
  try {
    return { value: JSON.parse(text) as JsonValue };
  } catch {
    if (!JSON_LIKE.test(text)) return undefined;
  }
  try {
    json5 ??= require("json5") as { parse(text: string): unknown };
    return { value: json5.parse(text) as JsonValue };
  } catch {
    return undefined;
  }
}

/** The reader of each kind of value a tag gives a keyword. */
const VALUES: Record<TagValue, ValueReader> = {
  number: number(),
  count,
  positive,
  pattern: {
    fromText: (text) => (checkPattern(text.trim()) === undefined ? text.trim() : { error: checkPattern(text.trim())! }),
    check: checkPattern,
  },
  format: {
    fromText: (text) =>
      checkFormat(text.trim()) === undefined
        ? text.trim()
        : { error: `${JSON.stringify(text.trim())} ${checkFormat(text.trim())}` },
    check: (value) => checkFormat(value) && `${JSON.stringify(value)} ${checkFormat(value)}`,
  },
  boolean: {
    fromText: (text) =>
      text.trim() === "" || text.trim() === "true"
        ? true
        : text.trim() === "false"
          ? false
          : { error: `takes true or false, not ${JSON.stringify(text)}` },
    check: (value) => (typeof value === "boolean" ? undefined : `takes true or false, not ${JSON.stringify(value)}`),
  },
  json: { fromText: jsonFromText, check: checkJson },
  examples: {
    fromText: (text) => {
      const value = jsonFromText(text);
      return Array.isArray(value) || (value !== null && typeof value === "object" && "error" in value)
        ? value
        : [value];
    },
    check: (value) => (Array.isArray(value) ? checkJson(value) : "takes an array of examples"),
  },
  flag: {
    fromText: () => true,
    check: (value) => (typeof value === "boolean" ? undefined : "takes true or false"),
  },
  text: {
    fromText: (text) => text.trim(),
    check: (value) => (typeof value === "string" ? undefined : "takes a string"),
  },
};

interface KeywordRule extends ValueReader {
  applies: Applies;
}

/** The keywords a tag writes, by name: the table's rows with a tag, each with its value's reader. */
const RULES = new Map<string, KeywordRule>(
  KEYWORD_ROWS.flatMap(([name, row]) => (row.tag ? [[name, { applies: row.applies, ...VALUES[row.tag] }]] : [])),
);

export function isKeyword(name: string): boolean {
  return RULES.has(name);
}

/** The JSON kinds a model can take, seen through references and unions. */
function kindsOf(model: Model, seen = new Set<Model>()): Set<string> {
  const kinds = new Set<string>();
  if (seen.has(model)) return kinds;
  seen.add(model);
  switch (model.kind) {
    case "ref":
      return kindsOf(model.definition.model, seen);
    case "union":
      for (const member of model.members) for (const kind of kindsOf(member, seen)) kinds.add(kind);
      return kinds;
    case "integer":
      kinds.add("number");
      return kinds;
    case "literal":
      kinds.add(typeof model.value);
      return kinds;
    case "tuple":
      kinds.add("array");
      return kinds;
    default:
      kinds.add(model.kind);
      return kinds;
  }
}

function admitsString(model: Model): boolean {
  const kinds = kindsOf(model);
  return kinds.has("string") || kinds.has("any");
}

function appliesTo(rule: KeywordRule, model: Model): boolean {
  if (rule.applies === "any") return true;
  const kinds = kindsOf(model);
  return kinds.has(rule.applies) || kinds.has("any");
}

/** A keyword from a JSDoc tag on `model`: its value, or a message saying what is wrong. */
export function keywordFromTag(name: string, text: string, model: Model): { value: JsonValue } | { error: string } {
  const rule = RULES.get(name)!;
  const value = rule.fromText(text);
  if (value !== null && typeof value === "object" && !Array.isArray(value) && "error" in value)
    return { error: `@${name} ${value.error}` };
  if (!appliesTo(rule, model))
    return { error: `@${name} applies to ${rule.applies === "array" ? "arrays" : `${rule.applies}s`} only` };
  // A bare word is a string default (`@default metric`): for a type no string is, it is a mistake.
  if (name === "default" && jsonText(text) === undefined && !admitsString(model)) {
    return { error: `@default takes a JSON value: ${text.trim()} is not JSON, and this type admits no string` };
  }
  return { value: value as JsonValue };
}

/** A keyword from a tag type (`Minimum<0>`) on `model`: undefined when valid, else a message. */
export function checkTagKeyword(name: string, value: JsonValue, model: Model): string | undefined {
  const rule = RULES.get(name)!;
  const problem = rule.check(value);
  if (problem) return `${name} ${problem}`;
  if (!appliesTo(rule, model))
    return `${name} applies to ${rule.applies === "array" ? "arrays" : `${rule.applies}s`} only`;
  return undefined;
}

/** `base` with more keywords: a new node (models are shared between every use of a type). */
export function withKeywords(base: Model, keywords: Keywords): Model {
  if (Object.keys(keywords).length === 0) return base;
  return { ...base, keywords: { ...base.keywords, ...keywords } } as Model;
}
