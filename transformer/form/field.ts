/**
 * One field of a form: a property of `ctx.elicit<T>()`'s `T` → the protocol's restricted schema
 * for it (MCP 2025-11-25 `PrimitiveSchemaDefinition`: a string, a number or integer, a boolean,
 * a single-select enum in one of three shapes, a multi-select enum in one of two), or why it
 * cannot be one. It reads the property's model (transformer/model/), as a tool's schema does,
 * and the checker only for what the model does not keep: an enum member's JSDoc, its title.
 */
import type { JsonSchema } from "../../contract/contract";
import type { Type, TypeChecker } from "../checker/checker";
import { TypeFlags } from "../checker/flags";
import type { JsonValue, Keywords, Model, Property } from "../model/model";

/** The string formats a form may ask for (the protocol's `StringSchema.format`). */
export const FORM_FORMATS: readonly string[] = ["email", "uri", "date", "date-time"];

/** What a form holds: said by every message about a field that is none of it. */
export const FORM_HOLDS = "a form holds only strings, numbers, integers, booleans and enums (and lists of enum values)";

/** The keywords each kind of field takes besides `type` and `description`, in the order they are written. */
const KEYWORDS = {
  string: ["title", "format", "minLength", "maxLength", "default"],
  number: ["title", "minimum", "maximum", "default"],
  integer: ["title", "minimum", "maximum", "default"],
  boolean: ["title", "default"],
  enum: ["title", "default"],
  list: ["title", "minItems", "maxItems", "default"],
} as const;
type FieldKind = keyof typeof KEYWORDS;
const KIND_NAMES: Record<FieldKind, string> = {
  string: "a string field",
  number: "a number field",
  integer: "an integer field",
  boolean: "a boolean field",
  enum: "a single-select enum field",
  list: "a list field",
};

/** `a, b and c`. */
const listed = (items: readonly string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");

/** A property of the form's type, as the form compiler hands it over. */
export interface FormProperty {
  property: Property;
  /** The property's type without `undefined` (an optional property's). */
  type: Type;
  /** The names of the JSDoc tags written on the property (`@enumNames` is read from here). */
  tags: readonly string[];
  /** The property's type as written, if it is declared with one: messages show it. */
  text?: string;
  /**
   * The string literals written in the property's type and in the alias it names, in the order
   * written: an enum's values are offered in that order. (The checker orders a union's literals
   * as it happened to create them: `"b"` first if the program met it first.)
   */
  literals: readonly string[];
}

export type FieldResult = { schema: JsonSchema } | { problems: string[] };

const resolved = (model: Model): Model => (model.kind === "ref" ? model.definition.model : model);

/** The values of a model that is a string literal or a union of them; `null` when it holds a null; undefined when it is anything else. */
function stringValues(model: Model): string[] | null | undefined {
  const m = resolved(model);
  if (m.kind === "literal") return typeof m.value === "string" ? [m.value] : undefined;
  if (m.kind === "null") return null;
  if (m.kind !== "union") return undefined;
  if (m.members.some((member) => resolved(member).kind === "null")) return null;
  const values: string[] = [];
  for (const member of m.members) {
    const found = stringValues(member);
    if (found === undefined || found === null) return found;
    values.push(...found);
  }
  return values;
}

/** The element type of an array type (or of an array intersected with tag types: `Color[] & MinItems<1>`). */
function elementType(type: Type, checker: TypeChecker): Type | undefined {
  if (checker.isArrayType(type)) return checker.typeArguments(type)[0];
  if (checker.flags(type) & TypeFlags.Intersection)
    for (const member of checker.constituents(type))
      if (checker.isArrayType(member)) return checker.typeArguments(member)[0];
  return undefined;
}

/**
 * Each value's title: the JSDoc comment of the enum member it is (`/** First Option *\/ A =
 * "value1"`). A string literal type has no member, so no title.
 */
function titlesOf(type: Type, checker: TypeChecker): Map<string, string> {
  const titles = new Map<string, string>();
  const members = checker.flags(type) & TypeFlags.Union ? checker.constituents(type) : [type];
  for (const member of members) {
    const value = checker.literalValue(member);
    const symbol = checker.symbolOf(member);
    if (typeof value !== "string" || !symbol) continue;
    const title = checker.documentation(symbol)?.comment.trim();
    if (title) titles.set(value, title);
  }
  return titles;
}

/** Why a model that is no field is not one: the kind it is. `text`: the type as written, else as the checker prints it. */
function notAField(model: Model, type: Type, checker: TypeChecker, written: string | undefined): string {
  const m = resolved(model);
  const text = written ?? checker.typeToString(type);
  switch (m.kind) {
    case "string":
      return "a Date is not allowed: use string with @format date-time (or date), which the answer holds as its text";
    case "object":
      return `${FORM_HOLDS}; an object (${text}) is not allowed`;
    case "tuple":
      return `${FORM_HOLDS}; a tuple (${text}) is not allowed`;
    case "array":
      return `${FORM_HOLDS}; a list is allowed only of enum values (string literals or string enum members), not ${text}`;
    case "null":
      return "null is not allowed: make the property optional instead";
    case "literal":
      return `${FORM_HOLDS}; an enum's values are strings, not ${text}`;
    case "union":
      if (stringValues(m) === null) return "null is not allowed: make the property optional instead";
      return m.members.every((member) => resolved(member).kind === "literal")
        ? `${FORM_HOLDS}; an enum's values are strings, not ${text}`
        : `${FORM_HOLDS}; a union is allowed only of string literals, not ${text}`;
    case "any":
      return `${FORM_HOLDS}; ${text} says nothing of the value`;
    case "unsupported":
      return `${FORM_HOLDS}; ${m.message}`;
    default:
      return `${FORM_HOLDS}; ${text} is not one`;
  }
}

/** Why a default is not one of the field's values, or undefined when it is. */
function defaultProblem(kind: FieldKind, value: JsonValue, values: readonly string[] | undefined): string | undefined {
  const shown = JSON.stringify(value);
  switch (kind) {
    case "string":
      return typeof value === "string" ? undefined : `@default takes a string here, not ${shown}`;
    case "number":
      return typeof value === "number" ? undefined : `@default takes a number here, not ${shown}`;
    case "integer":
      return Number.isInteger(value) ? undefined : `@default takes an integer here, not ${shown}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `@default takes true or false here, not ${shown}`;
    case "enum":
      return typeof value === "string" && values!.includes(value)
        ? undefined
        : `@default takes one of the values (${values!.map((v) => JSON.stringify(v)).join(", ")}), not ${shown}`;
    case "list":
      return Array.isArray(value) && value.every((v) => typeof v === "string" && values!.includes(v))
        ? undefined
        : `@default takes a list of the values (${values!.map((v) => JSON.stringify(v)).join(", ")}), not ${shown}`;
  }
}

/**
 * The schema of one field, or why it cannot be one (each reason a sentence, without the
 * field's path). Keys are written in one order: `type`, `title`, `description`, the kind's
 * keywords, `default`.
 */
export function formField({ property, type, tags, text, literals }: FormProperty, checker: TypeChecker): FieldResult {
  const model = resolved(property.model);
  const problems = [...(property.model.tagProblems ?? []), ...(property.tagProblems ?? [])];
  let kind: FieldKind;
  let values: string[] | undefined;
  let valueType = type;
  if (model.kind === "string" && !model.date) kind = "string";
  else if (model.kind === "number" || model.kind === "integer" || model.kind === "boolean") kind = model.kind;
  else if (model.kind === "array" && stringValues(model.items)) {
    kind = "list";
    values = stringValues(model.items)!;
    valueType = elementType(type, checker) ?? type;
  } else if (stringValues(model)) {
    kind = "enum";
    values = stringValues(model)!;
  } else return { problems: [...problems, notAField(property.model, type, checker, text)] };
  if (values && values.every((value) => literals.includes(value)))
    values = [...values].sort((a, b) => literals.indexOf(a) - literals.indexOf(b));

  const keywords: Keywords = { ...property.model.keywords, ...property.keywords };
  const allowed: readonly string[] = KEYWORDS[kind];
  for (const keyword of Object.keys(keywords)) {
    if (allowed.includes(keyword)) continue;
    problems.push(
      `${keyword} is not allowed in a form: ${KIND_NAMES[kind]} takes only ${listed(["description", ...allowed])}`,
    );
  }
  if (keywords.format !== undefined && !FORM_FORMATS.includes(keywords.format as string))
    problems.push(
      `format ${JSON.stringify(keywords.format)} is not allowed in a form: the protocol's forms take ${listed(FORM_FORMATS)}`,
    );
  if (keywords.default !== undefined) {
    const problem = defaultProblem(kind, keywords.default, values);
    if (problem) problems.push(problem);
  }

  // An enum whose members all have a JSDoc comment is titled; one with none, untitled.
  let titles: string[] | undefined;
  if (values) {
    const found = titlesOf(valueType, checker);
    const missing = values.filter((value) => !found.has(value));
    if (found.size && missing.length)
      problems.push(
        `a titled enum needs a JSDoc comment (its title) on every member, or none on any: ${missing.map((v) => JSON.stringify(v)).join(", ")} has none`,
      );
    else if (found.size) titles = values.map((value) => found.get(value)!);
  }
  const legacy = tags.includes("enumNames");
  if (legacy && kind !== "enum")
    problems.push(`@enumNames applies to a single-select enum only, not to ${KIND_NAMES[kind]}`);
  else if (legacy && !titles)
    problems.push("@enumNames needs an enum whose members have JSDoc comments: they are the names it lists");
  if (problems.length) return { problems };

  const schema: JsonSchema = { type: kind === "list" ? "array" : kind === "enum" ? "string" : kind };
  if (keywords.title !== undefined) schema.title = keywords.title;
  const description = property.description ?? property.model.description;
  if (description !== undefined) schema.description = description;
  for (const keyword of allowed) {
    if (keyword !== "title" && keyword !== "default" && keywords[keyword] !== undefined)
      schema[keyword] = keywords[keyword];
  }
  const options = () => values!.map((value, i) => ({ const: value, title: titles![i] }));
  if (kind === "enum" && legacy) Object.assign(schema, { enum: values, enumNames: titles });
  else if (kind === "enum") Object.assign(schema, titles ? { oneOf: options() } : { enum: values });
  else if (kind === "list") schema.items = titles ? { anyOf: options() } : { type: "string", enum: values };
  if (keywords.default !== undefined) schema.default = keywords.default;
  return { schema };
}
