/**
 * runtime/validation.ts on its own: the validation error message for every keyword typemcp
 * writes (the pydantic style the Python SDK's users know), how errors inside a failed anyOf
 * fold into it, values cut short in messages, and schemas that differ only in annotations
 * sharing one compiled form.
 */
import { compiledForm, shortText, validationMessage } from "../../runtime/validation";

type JsonSchema = Record<string, unknown>;

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: "object", properties, required, additionalProperties: false });

/** The message for a value the schema rejects, as a tool's arguments get it. */
function messageFor(schema: JsonSchema, value: unknown, title = "fArguments"): string {
  const form = compiledForm(schema);
  expect(form.validate(value)).toBe(false);
  return validationMessage(title, form.errorsOf(value), value);
}

const KEYWORDS: [string, JsonSchema, unknown, string][] = [
  ["required", closed({ city: { type: "string" } }, ["city"]), {}, "city\n  Field required"],
  ["additionalProperties", closed({}), { verbose: true }, "verbose\n  Extra inputs are not permitted"],
  ["type", closed({ days: { type: "integer" } }), { days: 2.5 }, "days\n  Input should be a valid integer [input_value=2.5]"],
  ["const", closed({ kind: { const: "circle" } }), { kind: "square" }, 'kind\n  Input should be "circle" [input_value="square"]'],
  ["enum", closed({ unit: { enum: ["c", "f", null] } }), { unit: "k" }, 'unit\n  Input should be "c", "f" or null [input_value="k"]'],
  ["format", closed({ contact: { type: "string", format: "email" } }), { contact: "nobody" }, 'contact\n  Input should be a valid email [input_value="nobody"]'],
  ["minimum", closed({ n: { type: "number", minimum: 1 } }), { n: 0 }, "n\n  Input should be greater than or equal to 1 [input_value=0]"],
  ["maximum", closed({ n: { type: "number", maximum: 100 } }), { n: 101 }, "n\n  Input should be less than or equal to 100 [input_value=101]"],
  ["exclusiveMinimum", closed({ n: { type: "number", exclusiveMinimum: 0 } }), { n: 0 }, "n\n  Input should be greater than 0 [input_value=0]"],
  ["exclusiveMaximum", closed({ n: { type: "number", exclusiveMaximum: 1 } }), { n: 1 }, "n\n  Input should be less than 1 [input_value=1]"],
  ["multipleOf", closed({ n: { type: "number", multipleOf: 5 } }), { n: 7 }, "n\n  Input should be a multiple of 5 [input_value=7]"],
  ["minLength", closed({ code: { type: "string", minLength: 3 } }), { code: "ab" }, 'code\n  String should have at least 3 characters [input_value="ab"]'],
  ["maxLength", closed({ code: { type: "string", maxLength: 1 } }), { code: "ab" }, 'code\n  String should have at most 1 characters [input_value="ab"]'],
  ["minItems", closed({ tags: { type: "array", minItems: 1 } }), { tags: [] }, "tags\n  List should have at least 1 items [input_value=[]]"],
  ["maxItems", closed({ tags: { type: "array", maxItems: 1 } }), { tags: [1, 2] }, "tags\n  List should have at most 1 items [input_value=[1,2]]"],
  ["uniqueItems", closed({ tags: { type: "array", uniqueItems: true } }), { tags: ["a", "b", "a"] }, 'tags\n  List items should be unique (items 0 and 2 are equal) [input_value=["a","b","a"]]'],
  ["pattern", closed({ airport: { type: "string", pattern: "^[A-Z]{3}$" } }), { airport: "lhr" }, 'airport\n  String should match pattern "^[A-Z]{3}$" [input_value="lhr"]'],
  ["any other: Ajv's own words", closed({ labels: { type: "object", maxProperties: 1 } }), { labels: { a: 1, b: 2 } }, 'labels\n  Input must NOT have more than 1 properties [input_value={"a":1,"b":2}]'],
];

describe("one message per keyword, naming the field", () => {
  test.each(KEYWORDS)("%s", (_, schema, value, lines) => {
    expect(messageFor(schema, value)).toBe(`1 validation error for fArguments\n${lines}`);
  });
});

test("errors inside a failed anyOf fold into one: the value matches none of the branches", () => {
  const schema = closed({ when: { anyOf: [{ type: "string", format: "date-time" }, { type: "integer", minimum: 0 }] } });
  expect(messageFor(schema, { when: -1 })).toBe("1 validation error for fArguments\nwhen\n  Input matches none of the allowed types [input_value=-1]");
});

test("several errors: counted, each with its path; the root is (root)", () => {
  const schema = closed({ booking: closed({ guests: { type: "integer", minimum: 1 }, legs: { type: "array", items: closed({ from: { type: "string" } }, ["from"]) } }) });
  expect(messageFor(schema, { booking: { guests: 0, legs: [{ from: "OSL" }, {}] } }, "bookArguments")).toBe(
    "2 validation errors for bookArguments\nbooking.guests\n  Input should be greater than or equal to 1 [input_value=0]\nbooking.legs.1.from\n  Field required",
  );
  expect(messageFor({ type: "object" }, [1], "fOutput")).toBe("1 validation error for fOutput\n(root)\n  Input should be a valid object [input_value=[1]]");
});

test("a value in a message is JSON, cut short past 120 characters with its length", () => {
  expect(shortText("London")).toBe('"London"');
  expect(shortText({ a: [1, null] })).toBe('{"a":[1,null]}');
  expect(shortText("x".repeat(200))).toBe(`"${"x".repeat(119)}… (202 characters)`);
  // What JSON cannot write is shown as JavaScript prints it.
  expect(shortText(undefined)).toBe("undefined");
  expect(shortText(12n)).toBe("12");
});

test("schemas that differ only in annotations share one compiled form; a property named like an annotation is kept", () => {
  const output = (title: string, description: string) => ({ type: "object", title, description, properties: { temperature: { type: "number", description: "Degrees." } }, required: ["temperature"] });
  const first = compiledForm(output("get_weather_1Output", "One."));
  expect(compiledForm(output("get_weather_2Output", "Two."))).toBe(first);
  expect(first.form).toEqual({ type: "object", properties: { temperature: { type: "number" } }, required: ["temperature"] });
  const titled = compiledForm({ type: "object", properties: { title: { type: "string", title: "Title" }, description: { type: "string" } } });
  expect(titled.form).toEqual({ type: "object", properties: { title: { type: "string" }, description: { type: "string" } } });
  expect(titled).not.toBe(first);
});

test("a form accepts what Ajv accepts, and leaves the reasons for a rejection in validate.errors", () => {
  const form = compiledForm(closed({ id: { type: "string", minLength: 1 } }, ["id"]));
  expect(form.accepts({ id: "a" })).toBe(true);
  expect(form.accepts({ id: "" })).toBe(false);
  expect(form.validate.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([["/id", "minLength"]]);
});
