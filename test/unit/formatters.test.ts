/**
 * The schema side of the type model (transformer/schema/): each formatter's exact JSON Schema
 * for hand-written models, with the real SchemaWriter as its context; then the writer itself
 * (annotations, `$defs` keys, a root that refers to itself) and the root helpers.
 */
import type { Definition, Model, ModelKind, ObjectModel } from "../../transformer/model/model";
import { formatters } from "../../transformer/schema/formatters";
import { rootObject, writeRoot } from "../../transformer/schema/root";
import { SchemaWriter } from "../../transformer/schema/writer";

type JsonSchema = Record<string, unknown>;

const string: Model = { kind: "string" };
const number: Model = { kind: "number" };
const definition = (name: string, model: Model, title = name): Definition => ({ name, title, model });
const point: ObjectModel = { kind: "object", properties: [{ name: "x", model: number, required: true }] };

/** Per model kind: a model and its exact schema, formatted by that kind's formatter. */
const CASES: { [K in ModelKind]: [string, Extract<Model, { kind: K }>, JsonSchema][] } = {
  any: [["any JSON value: the empty schema", { kind: "any" }, {}]],
  unsupported: [
    [
      "never published: the empty schema keeps the writer total",
      { kind: "unsupported", message: "bigint is not JSON-serializable" },
      {},
    ],
  ],
  string: [
    ["string", { kind: "string" }, { type: "string" }],
    // A Date is the string it travels as (its format is a keyword, written by the writer): that
    // the tool gets a Date is said by the contract's `dates`, not by the schema.
    ["a Date", { kind: "string", date: true }, { type: "string" }],
  ],
  number: [["number", { kind: "number" }, { type: "number" }]],
  integer: [["integer", { kind: "integer" }, { type: "integer" }]],
  boolean: [["boolean", { kind: "boolean" }, { type: "boolean" }]],
  null: [["null", { kind: "null" }, { type: "null" }]],
  literal: [
    ["a string", { kind: "literal", value: "a" }, { type: "string", const: "a" }],
    ["a number", { kind: "literal", value: 3 }, { type: "number", const: 3 }],
    ["a boolean", { kind: "literal", value: false }, { type: "boolean", const: false }],
  ],
  array: [["of strings", { kind: "array", items: string }, { type: "array", items: { type: "string" } }]],
  tuple: [
    [
      "with an optional element",
      { kind: "tuple", elements: [string, number], minItems: 1 },
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1, maxItems: 2 },
    ],
    [
      "with a rest element: unevaluatedItems, no maxItems",
      { kind: "tuple", elements: [string], minItems: 1, rest: { kind: "boolean" } },
      { type: "array", prefixItems: [{ type: "string" }], minItems: 1, unevaluatedItems: { type: "boolean" } },
    ],
    ["empty", { kind: "tuple", elements: [], minItems: 0 }, { type: "array", minItems: 0, maxItems: 0 }],
  ],
  object: [
    [
      "closed, with required and optional properties and their own annotations",
      {
        kind: "object",
        properties: [
          { name: "city", model: string, required: true, description: "The city." },
          { name: "days", model: { kind: "integer" }, required: false, keywords: { minimum: 1 } },
        ],
      },
      {
        type: "object",
        properties: { city: { type: "string", description: "The city." }, days: { type: "integer", minimum: 1 } },
        required: ["city"],
        additionalProperties: false,
      },
    ],
    [
      "without properties",
      { kind: "object", properties: [] },
      { type: "object", properties: {}, additionalProperties: false },
    ],
    [
      "a property never present (`a?: undefined`) is left out: the closed object refuses its key, null included",
      {
        kind: "object",
        properties: [
          { name: "gone", model: { kind: "null" }, required: false, absent: true },
          { name: "id", model: string, required: true },
        ],
      },
      { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false },
    ],
    [
      "a dictionary: additionalProperties alone",
      { kind: "object", properties: [], additional: number },
      { type: "object", additionalProperties: { type: "number" } },
    ],
    [
      "declared keys and an index signature",
      { kind: "object", properties: [{ name: "id", model: string, required: true }], additional: number },
      {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: { type: "number" },
      },
    ],
    [
      "template literal keys",
      { kind: "object", properties: [], patterns: [{ pattern: "^data_[\\s\\S]*$", model: number }] },
      { type: "object", patternProperties: { "^data_[\\s\\S]*$": { type: "number" } }, additionalProperties: false },
    ],
    [
      "number keys: an array of the values is one too",
      { kind: "object", properties: [], patterns: [{ pattern: "^[0-9]+$", model: string }], numberKeys: true },
      {
        anyOf: [
          { type: "object", patternProperties: { "^[0-9]+$": { type: "string" } }, additionalProperties: false },
          { type: "array", items: { type: "string" } },
        ],
      },
    ],
  ],
  union: [
    [
      "literals of one JSON type merge into an enum, null goes last",
      {
        kind: "union",
        members: [
          { kind: "null" },
          { kind: "literal", value: "a" },
          { kind: "literal", value: 1 },
          string,
          { kind: "literal", value: "b" },
        ],
      },
      {
        anyOf: [
          { type: "string", enum: ["a", "b"] },
          { type: "number", const: 1 },
          { type: "string" },
          { type: "null" },
        ],
      },
    ],
    [
      "true | false is boolean",
      {
        kind: "union",
        members: [
          { kind: "literal", value: true },
          { kind: "literal", value: false },
        ],
      },
      { type: "boolean" },
    ],
    [
      "an annotated literal keeps its own branch",
      {
        kind: "union",
        members: [
          { kind: "literal", value: "a", description: "The first." },
          { kind: "literal", value: "b" },
        ],
      },
      {
        anyOf: [
          { type: "string", const: "a", description: "The first." },
          { type: "string", const: "b" },
        ],
      },
    ],
    [
      "one branch is that branch",
      {
        kind: "union",
        members: [
          { kind: "literal", value: "a" },
          { kind: "literal", value: "b" },
          { kind: "literal", value: "c" },
        ],
      },
      { type: "string", enum: ["a", "b", "c"] },
    ],
  ],
  ref: [["a reference into $defs", { kind: "ref", definition: definition("Point", point) }, { $ref: "#/$defs/Point" }]],
};

test("every model kind has a formatter, and cases here", () => {
  expect(Object.keys(CASES).sort()).toEqual(Object.keys(formatters).sort());
});

describe.each(Object.entries(CASES).map(([kind, cases]) => ({ kind: kind as ModelKind, cases })))(
  "$kind",
  ({ kind, cases }) => {
    test.each(cases)("%s", (_, model, schema) => {
      expect(formatters[kind].format(model as never, new SchemaWriter(formatters))).toEqual(schema);
    });
  },
);

describe("the writer", () => {
  test("adds a node's description and keywords after its formatter's schema", () => {
    expect(
      new SchemaWriter(formatters).format({
        kind: "string",
        description: "A code.",
        keywords: { minLength: 2, pattern: "^[A-Z]+$" },
      }),
    ).toEqual({ type: "string", description: "A code.", minLength: 2, pattern: "^[A-Z]+$" });
  });

  test("a property's annotations go on a copy: the shared model is unchanged", () => {
    const shared: Model = { kind: "string" };
    const model: Model = {
      kind: "object",
      properties: [
        { name: "a", model: shared, required: true, description: "A." },
        { name: "b", model: shared, required: true },
      ],
    };
    expect(new SchemaWriter(formatters).format(model)).toEqual({
      type: "object",
      properties: { a: { type: "string", description: "A." }, b: { type: "string" } },
      required: ["a", "b"],
      additionalProperties: false,
    });
    expect(shared).toEqual({ kind: "string" });
  });

  test("a property named __proto__ is an own property, not the schema's prototype", () => {
    const schema = new SchemaWriter(formatters).format({
      kind: "object",
      properties: [{ name: "__proto__", model: string, required: true }],
    });
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties)).toEqual(["__proto__"]);
    expect(JSON.stringify(schema)).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__"],"additionalProperties":false}',
    );
  });

  test("each definition is formatted once into $defs, titled; two of one name get distinct keys", () => {
    const writer = new SchemaWriter(formatters);
    const first = definition("Page", point, "Page<User>");
    const second = definition("Page", { kind: "array", items: string }, "Page<Item>");
    expect(
      writer.format({
        kind: "union",
        members: [
          { kind: "ref", definition: first },
          { kind: "ref", definition: second },
          { kind: "ref", definition: first },
        ],
      }),
    ).toEqual({
      anyOf: [{ $ref: "#/$defs/Page" }, { $ref: "#/$defs/Page_2" }, { $ref: "#/$defs/Page" }],
    });
    expect(writer.definitions()).toEqual({
      Page: {
        title: "Page<User>",
        type: "object",
        properties: { x: { type: "number" } },
        required: ["x"],
        additionalProperties: false,
      },
      Page_2: { title: "Page<Item>", type: "array", items: { type: "string" } },
    });
  });

  test("no definitions: no $defs", () => {
    const writer = new SchemaWriter(formatters);
    writer.format(string);
    expect(writer.definitions()).toBeUndefined();
  });
});

describe("roots", () => {
  test("a named root is written in place and refers to itself as #", () => {
    const tree = definition("Tree", { kind: "object", properties: [] });
    (tree.model as ObjectModel).properties.push({
      name: "children",
      model: { kind: "array", items: { kind: "ref", definition: tree } },
      required: true,
    });
    const schema = writeRoot({ type: "object", title: "TreeOutput" }, (writer) => writer.formatDefinition(tree), tree);
    expect(schema).toEqual({
      type: "object",
      title: "Tree",
      properties: { children: { type: "array", items: { $ref: "#" } } },
      required: ["children"],
      additionalProperties: false,
    });
  });

  test("what a root reaches goes into $defs, after the root's own keywords", () => {
    const schema = writeRoot({ type: "object", title: "fArguments" }, (writer) => ({
      properties: { p: writer.format({ kind: "ref", definition: definition("Point", point) }) },
    }));
    expect(Object.keys(schema)).toEqual(["type", "title", "properties", "$defs"]);
    expect(schema.$defs).toEqual({
      Point: {
        title: "Point",
        type: "object",
        properties: { x: { type: "number" } },
        required: ["x"],
        additionalProperties: false,
      },
    });
  });

  test("an object can be a root as is; a named one with its definition; number keys and other kinds cannot", () => {
    const named = definition("Point", point);
    expect(rootObject(point)).toEqual({ object: point, definition: undefined });
    expect(rootObject({ kind: "ref", definition: named })).toEqual({ object: point, definition: named });
    expect(
      rootObject({
        kind: "object",
        properties: [],
        patterns: [{ pattern: "^[0-9]+$", model: string }],
        numberKeys: true,
      }),
    ).toBeUndefined();
    expect(rootObject({ kind: "array", items: string })).toBeUndefined();
    expect(rootObject({ kind: "ref", definition: definition("Name", string) })).toBeUndefined();
  });
});
