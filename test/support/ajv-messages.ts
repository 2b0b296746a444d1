/**
 * The messages a tool's caller would read if Ajv, a JSON Schema validator independent of
 * typemcp's checker, had found the errors: the reference test/check-vs-ajv.test.ts holds the
 * checker to. Ajv's errors become issues, written by the checker's message writer; errors
 * inside a failed `anyOf` fold into it, except those Ajv reports from inside a `$ref` (its
 * schema path then starts at the definition).
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Issue } from "../../runtime/validation/issues";
import { validationMessage } from "../../runtime/validation/messages";

const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: false });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();

/** Ajv's validator of a schema (compiled once per schema object). */
export function ajvValidator(schema: object): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = ajv.compile(schema)));
  return validate;
}

function valueAt(data: unknown, location: readonly string[]): unknown {
  let value = data;
  for (const key of location)
    value = value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

/** What Ajv's error says, as the checker's issue would say it: where, which keyword, with what. */
function issueOf(error: ErrorObject, data: unknown): Issue {
  const location =
    error.instancePath === ""
      ? []
      : error.instancePath
          .slice(1)
          .split("/")
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const value = valueAt(data, location);
  const p = error.params as Record<string, never>;
  const issue = (expected?: unknown, path: string[] = location): Issue => ({
    path,
    keyword: error.keyword,
    expected,
    value,
  });
  switch (error.keyword) {
    case "required":
      return issue(p.missingProperty, [...location, p.missingProperty]);
    case "additionalProperties":
      return issue(undefined, [...location, p.additionalProperty]);
    case "type":
      return issue(p.type);
    case "const":
      return issue(p.allowedValue);
    case "enum":
      return issue(p.allowedValues);
    case "format":
      return issue(p.format);
    case "multipleOf":
      return issue(p.multipleOf);
    case "uniqueItems":
      return issue([Math.min(p.i, p.j), Math.max(p.i, p.j)]);
    case "pattern":
      return issue(p.pattern);
    case "anyOf":
      return issue();
    default:
      // the bounds, the lengths and the item counts
      return issue(p.limit);
  }
}

/**
 * Ajv's verdict on a value, and the message its errors make (undefined when valid), written by
 * the checker's own message writer: the two are compared issue by issue, in order.
 */
export function ajvMessage(schema: object, title: string, data: unknown): string | undefined {
  const validate = ajvValidator(schema);
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  const unions = errors.filter((e) => e.keyword === "anyOf").map((e) => `${e.schemaPath}/`);
  const kept = errors.filter((e) => !unions.some((prefix) => e.schemaPath.startsWith(prefix)));
  const issues = kept.map((e) => issueOf(e, data));
  return validationMessage(title, { issues, total: issues.length });
}
