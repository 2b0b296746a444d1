/**
 * runtime/validation/json-text.ts on its own: a JSON resource's text written while its value is checked
 * must be, byte for byte, what the projection and JSON.stringify write (the checker's wire
 * copy, two spaces of indentation), or nothing, so that the resource takes that way instead.
 * Hand-picked values (escapes, numbers, undeclared and undefined keys, class instances, what
 * the writer leaves to the checker) and generated ones, valid and mutated, on schemas of the
 * forms the transformer writes; and the schemas it has no writer for.
 */
import fc from "fast-check";
import { validatorOf } from "../../runtime/validation/validator";
import { jsonWriterOf } from "../../runtime/validation/json-text";
import { anyJson, mutantsOf, valuesOf } from "../support/json-arbitraries";

type JsonSchema = Record<string, unknown>;

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** The benchmark's resource: nested closed objects, arrays, an optional number, a string-literal union, a nullable reference. */
const CONFIG: JsonSchema = {
  title: "AppConfig",
  ...closed(
    {
      service: { type: "string" },
      version: { type: "string" },
      rate_limit: { type: "integer", description: "Requests a client may make per minute." },
      regions: { type: "array", items: { type: "string" } },
      features: { type: "array", items: { $ref: "#/$defs/Feature" } },
      maintenance: { anyOf: [{ $ref: "#/$defs/Maintenance" }, { type: "null" }] },
    },
    ["service", "version", "rate_limit", "regions", "features", "maintenance"],
  ),
  $defs: {
    Feature: {
      title: "Feature",
      ...closed({ name: { type: "string" }, enabled: { type: "boolean" }, rollout: { type: "number" } }, [
        "name",
        "enabled",
      ]),
    },
    Maintenance: {
      title: "Maintenance",
      ...closed(
        {
          weekday: { type: "string", enum: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] },
          start: { type: "string" },
          minutes: { type: "integer" },
        },
        ["weekday", "start", "minutes"],
      ),
    },
  },
};

const CONFIG_VALUE = {
  service: "orders",
  version: "4.2.1",
  rate_limit: 600,
  regions: ["eu-west-1", "us-east-1", "ap-south-1"],
  features: [
    { name: "bulk_export", enabled: true, rollout: 0.25 },
    { name: "new_checkout", enabled: false },
    { name: "audit_log", enabled: true, rollout: 1 },
  ],
  maintenance: { weekday: "sun", start: "02:00", minutes: 45 },
};

/** A recursive type: a tree of labelled nodes. */
const TREE: JsonSchema = {
  $ref: "#/$defs/Node",
  $defs: {
    Node: closed({ label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, [
      "label",
      "children",
    ]),
  },
};

/** Literals of each scalar type, a const, and a nullable list. */
const LITERALS: JsonSchema = closed(
  {
    level: { enum: [1, 2, 3] },
    flag: { const: true },
    mode: { type: "string", enum: ["a", "b", 7] },
    nothing: { type: "null" },
    scores: { anyOf: [{ type: "array", items: { type: "number" } }, { type: "null" }] },
    'key with "quotes" and \n': { type: "string" },
  },
  ["level", "mode"],
);

/** What the resource wrote before the writer: the checked wire copy, as JSON with two spaces. */
function projected(schema: JsonSchema, value: unknown): string | undefined {
  const outcome = validatorOf(schema).wireCopy(value);
  return outcome.total === 0 ? JSON.stringify(outcome.value, null, 2) : undefined;
}

function writerOf(schema: JsonSchema) {
  const writer = jsonWriterOf(schema);
  if (!writer) throw new Error("no writer for a schema it writes");
  return writer;
}

test("the benchmark's resource: the projection's text, byte for byte", () => {
  const text = writerOf(CONFIG)(CONFIG_VALUE);
  expect(text).toBe(JSON.stringify(CONFIG_VALUE, null, 2));
  expect(text).toBe(projected(CONFIG, CONFIG_VALUE));
  expect(writerOf(CONFIG)({ ...CONFIG_VALUE, maintenance: null, features: [], regions: [] })).toBe(
    '{\n  "service": "orders",\n  "version": "4.2.1",\n  "rate_limit": 600,\n  "regions": [],\n  "features": [],\n  "maintenance": null\n}',
  );
});

test.each<[string, JsonSchema, unknown]>([
  ["escapes: quotes, backslashes, controls", closed({ s: { type: "string" } }), { s: 'a "b" \\ c\n\t\u0001\u001f' }],
  [
    "a lone surrogate, a pair, U+2028 and DEL",
    closed({ s: { type: "string" } }),
    { s: "\ud800 x \udfff 😀 \u2028 \u007f" },
  ],
  ["an empty string", closed({ s: { type: "string" } }), { s: "" }],
  [
    "numbers as JSON writes them",
    closed({ n: { type: "array", items: { type: "number" } } }),
    { n: [-0, 0.1, 1e21, 5e-7, -1.5, 2 ** 53, 123456789.125] },
  ],
  [
    "integers, -0 among them",
    closed({ n: { type: "array", items: { type: "integer" } } }),
    { n: [0, -0, -7, 2 ** 53 - 1] },
  ],
  [
    "undeclared keys left behind, in the declared order",
    closed({ b: { type: "integer" }, a: { type: "string" } }, ["a"]),
    { z: 1, a: "x", secret: "no", b: 2 },
  ],
  [
    "an optional key undefined: left out",
    closed({ a: { type: "string" }, b: { type: "integer" } }, ["a"]),
    { a: "x", b: undefined },
  ],
  ["an empty closed object", closed({}), {}],
  ["an object whose keys are all optional and absent", closed({ a: { type: "string" } }), {}],
  [
    "a class instance: its own declared keys",
    closed({ id: { type: "integer" } }, ["id"]),
    new (class {
      id = 3;
      other = 4;
      get label() {
        return "x";
      }
    })(),
  ],
  [
    "a recursive tree",
    TREE,
    {
      label: "root",
      children: [
        { label: "a", children: [] },
        { label: "b", children: [{ label: "c", children: [] }] },
      ],
    },
  ],
  [
    "literals: numbers, a const, strings, null, a nullable list",
    LITERALS,
    { level: 2, flag: true, mode: "b", nothing: null, scores: [1.5, 2], 'key with "quotes" and \n': "k" },
  ],
  ["a nullable list that is null", LITERALS, { level: 3, mode: "a", scores: null }],
])("%s: written as the projection writes it", (_, schema, value) => {
  const text = writerOf(schema)(value);
  expect(text).toBeDefined();
  expect(text).toBe(projected(schema, value));
});

test.each<[string, JsonSchema, unknown]>([
  ["a Date (toJSON)", closed({ at: { type: "string" } }, ["at"]), { at: new Date(0) }],
  ["an object with toJSON", CONFIG, { toJSON: () => CONFIG_VALUE }],
  [
    "an array with toJSON",
    closed({ xs: { type: "array", items: { type: "integer" } } }, ["xs"]),
    { xs: Object.assign([1], { toJSON: () => [2] }) },
  ],
  [
    "an undefined item (JSON writes null)",
    closed({ xs: { type: "array", items: { anyOf: [{ type: "integer" }, { type: "null" }] } } }, ["xs"]),
    { xs: [1, undefined] },
  ],
  ["a hole in an array", closed({ xs: { type: "array", items: { type: "null" } } }, ["xs"]), { xs: new Array(2) }],
  ["a wrong type", CONFIG, { ...CONFIG_VALUE, rate_limit: "600" }],
  ["a missing required key", CONFIG, { ...CONFIG_VALUE, service: undefined }],
  ["a value out of the enum", CONFIG, { ...CONFIG_VALUE, maintenance: { weekday: "someday", start: "x", minutes: 1 } }],
  ["an enum's value of another type than the schema's", LITERALS, { level: 1, mode: 7 }],
  ["an integer beyond the safe range", closed({ n: { type: "integer" } }, ["n"]), { n: 2 ** 53 }],
  ["NaN and Infinity", closed({ n: { type: "array", items: { type: "number" } } }, ["n"]), { n: [NaN, Infinity] }],
  ["a bigint", closed({ n: { type: "integer" } }, ["n"]), { n: 1n }],
  ["a function", closed({ f: { type: "string" } }, ["f"]), { f: () => "x" }],
  ["an array where an object is declared", CONFIG, [CONFIG_VALUE]],
  ["a value as deep as the checker's cycle search", TREE, deep(40)],
])("%s: left to the projection (undefined)", (_, schema, value) => {
  expect(writerOf(schema)(value)).toBeUndefined();
});

/** A tree `depth` nodes deep. */
function deep(depth: number): unknown {
  let node: unknown = { label: "leaf", children: [] };
  for (let i = 0; i < depth; i++) node = { label: `level ${i}`, children: [node] };
  return node;
}

test("a cycle is left to the projection, which says where it is", () => {
  const node: { label: string; children: unknown[] } = { label: "loop", children: [] };
  node.children.push(node);
  expect(writerOf(TREE)(node)).toBeUndefined();
  expect(() => validatorOf(TREE).wireCopy(node)).toThrow("a cycle: the value contains itself");
});

test.each<[string, JsonSchema]>([
  ["a pattern", closed({ s: { type: "string", pattern: "^a" } })],
  ["a bound", closed({ n: { type: "number", minimum: 0 } })],
  ["a format", closed({ at: { type: "string", format: "date-time" } })],
  ["a record (additionalProperties with a schema)", { type: "object", additionalProperties: { type: "string" } }],
  ["an open object", { type: "object", properties: { a: { type: "string" } } }],
  ["any value", {}],
  ["a union of two objects", { anyOf: [closed({ a: { type: "string" } }), closed({ b: { type: "string" } })] }],
  ["a union of overlapping types", { anyOf: [{ type: "integer" }, { type: "number" }] }],
  ["a tuple", { type: "array", prefixItems: [{ type: "string" }], items: false }],
  ["an index key (JavaScript orders it first)", closed({ b: { type: "string" }, "0": { type: "string" } })],
  [
    "a __proto__ key",
    JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"additionalProperties":false}'),
  ],
  ["an object const", { const: { a: 1 } }],
  ["a reference to nothing", { $ref: "#/$defs/Missing" }],
])("no writer for a schema with %s", (_, schema) => {
  expect(jsonWriterOf(schema)).toBeUndefined();
});

describe.each<[string, JsonSchema]>([
  ["the benchmark's resource", CONFIG],
  ["a recursive tree", TREE],
  ["literals", LITERALS],
])("generated values of %s", (_, schema) => {
  const writer = writerOf(schema);

  /** The writer's text is the projection's, or it leaves the value to the projection. */
  const agrees = (value: unknown) => {
    const text = writer(value);
    if (text !== undefined) expect(text).toBe(projected(schema, value));
    return text;
  };

  test("valid values: the projection's text, each written", () => {
    fc.assert(
      // The arbitraries propose values; the checker says which are valid (LITERALS's "mode" may be 7, which is not).
      fc.property(valuesOf(schema, schema), (value) => {
        if (validatorOf(schema).wireCopy(value).total === 0) expect(agrees(value)).toBeDefined();
        else expect(writer(value)).toBeUndefined();
      }),
      { numRuns: 300, seed: 24 },
    );
  });

  test("mutated values and any JSON: the projection's text, or left to it", () => {
    fc.assert(
      fc.property(mutantsOf(schema, schema, "broad"), anyJson(3), (mutant, any) => {
        if (mutant) agrees(mutant.value);
        agrees(any);
      }),
      { numRuns: 200, seed: 24 },
    );
  });
});
