/**
 * The messages a tool's caller would read if Ajv, a JSON Schema validator independent of
 * typemcp's checker, had found the errors: the reference test/check-vs-ajv.test.ts holds the
 * checker to. Ajv's errors become pydantic-style lines as the checker's issues do; errors
 * inside a failed `anyOf` fold into it, except those Ajv reports from inside a `$ref` (its
 * schema path then starts at the definition).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { shortText } from "../../runtime/messages";

const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

/** Ajv's validator of a schema (compiled once per schema object). */
export function ajvValidator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

function valueAt(data: unknown, location: string[]): unknown {
  let value = data;
  for (const key of location)
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function oneOfList(values: unknown[]): string {
  const texts = values.map((v) => JSON.stringify(v));
  return texts.length === 1 ? texts[0] : `${texts.slice(0, -1).join(", ")} or ${texts[texts.length - 1]}`;
}

const BOUNDS: Record<string, string> = {
  minimum: "greater than or equal to",
  maximum: "less than or equal to",
  exclusiveMinimum: "greater than",
  exclusiveMaximum: "less than",
};

function describe(error: ErrorObject, data: unknown): { location: string[]; message: string } {
  const location =
    error.instancePath === ""
      ? []
      : error.instancePath
          .slice(1)
          .split("/")
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const input = () => ` [input_value=${shortText(valueAt(data, location))}]`;
  const p = error.params as Record<string, never>;
  switch (error.keyword) {
    case "required":
      return { location: [...location, p.missingProperty], message: "Field required" };
    case "additionalProperties":
      return { location: [...location, p.additionalProperty], message: "Extra inputs are not permitted" };
    case "type":
      return { location, message: `Input should be a valid ${p.type}${input()}` };
    case "const":
      return { location, message: `Input should be ${JSON.stringify(p.allowedValue)}${input()}` };
    case "enum":
      return { location, message: `Input should be ${oneOfList(p.allowedValues)}${input()}` };
    case "anyOf":
      return { location, message: `Input matches none of the allowed types${input()}` };
    case "format":
      return { location, message: `Input should be a valid ${p.format}${input()}` };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return { location, message: `Input should be ${BOUNDS[error.keyword]} ${p.limit}${input()}` };
    case "multipleOf":
      return { location, message: `Input should be a multiple of ${p.multipleOf}${input()}` };
    case "minLength":
    case "maxLength":
      return {
        location,
        message: `String should have at ${error.keyword === "minLength" ? "least" : "most"} ${p.limit} characters${input()}`,
      };
    case "minItems":
    case "maxItems":
      return {
        location,
        message: `List should have at ${error.keyword === "minItems" ? "least" : "most"} ${p.limit} items${input()}`,
      };
    case "uniqueItems":
      return {
        location,
        message: `List items should be unique (items ${Math.min(p.i, p.j)} and ${Math.max(p.i, p.j)} are equal)${input()}`,
      };
    case "pattern":
      return { location, message: `String should match pattern ${JSON.stringify(p.pattern)}${input()}` };
    default:
      return { location, message: `Input is invalid (${error.keyword})${input()}` };
  }
}

/** Ajv's verdict on a value, and the message its errors make (undefined when valid). */
export function ajvMessage(schema: object, title: string, data: unknown): string | undefined {
  const validate = ajvValidator(schema);
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  const unions = errors.filter((e) => e.keyword === "anyOf").map((e) => `${e.schemaPath}/`);
  const kept = errors.filter((e) => !unions.some((prefix) => e.schemaPath.startsWith(prefix)));
  const lines = kept
    .map((e) => describe(e, data))
    .flatMap(({ location, message }) => [location.join(".") || "(root)", `  ${message}`]);
  const count = kept.length === 1 ? "1 validation error" : `${kept.length} validation errors`;
  return [`${count} for ${title}`, ...lines].join("\n");
}
