/**
 * The compiled projector against the interpreter it stands in for (runtime/projector.ts vs
 * toWire in runtime/wire.ts): for every output schema the fixtures publish and for schemas
 * written to reach every branch of the generator, values of the schema and values broken on
 * purpose (a Date, undefined, NaN, a bigint, a function, a class instance with private fields,
 * toJSON, a cycle, nesting deeper than the generated code goes, a `__proto__` key, a hole,
 * a value of the wrong JSON type) must give the same wire value, byte for byte and with plain
 * prototypes, or the same error at the same path.
 *
 * Then: the shapes the generator handles do not reach the interpreter at all (else the
 * speed-up is gone without a failing test).
 */
import fc from "fast-check";
import { compiledForm } from "../runtime/validation";
import * as wire from "../runtime/wire";
import { anyJson, valuesOf, type Json } from "./support/json-arbitraries";
import { publishedSchemas } from "./support/emitted-contracts";
import { FIXTURES_OUT } from "./support/fixtures";

type JsonSchema = { [keyword: string]: unknown };

const SEED = 20_261_203;

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: "object", properties, required, additionalProperties: false });

/** Schemas for the generator's corners: property names, records, tuples, unions, references, and what it leaves to the interpreter. */
const WRITTEN: [string, JsonSchema][] = [
  ["property names that need quoting", closed({ 'say "hi"': { type: "string" }, "line\nbreak": { type: "number" }, "\u2028": { type: "boolean" }, constructor: { type: "string" }, "10": { type: "integer" }, "2": { type: "null" }, b: { type: "string" } })],
  ["a declared __proto__", { type: "object", properties: { __proto__: closed({ x: { type: "number" } }), a: { type: "string" } } }],
  ["a record with declared keys", { type: "object", properties: { id: { type: "string" } }, additionalProperties: closed({ n: { type: "number" } }) }],
  ["a record of arrays", { type: "object", additionalProperties: { type: "array", items: { type: "string" } } }],
  ["pattern properties", { type: "object", patternProperties: { "^x-": { type: "number" } }, additionalProperties: false }],
  ["an open object", { type: "object" }],
  ["additionalProperties true", { type: "object", properties: { a: { type: "string" } }, additionalProperties: true }],
  ["a tuple with a rest", { type: "array", prefixItems: [{ type: "string" }, closed({ a: { type: "number" } })], unevaluatedItems: { type: "boolean" } }],
  ["a tuple with items", { type: "array", prefixItems: [{ type: "number" }], items: { type: "string" } }],
  ["a union of objects by tag", { anyOf: [closed({ kind: { const: "a" }, a: { type: "number" } }, ["kind", "a"]), closed({ kind: { const: "b" }, b: { type: "string" } }, ["kind", "b"])] }],
  ["a union of arrays, objects and scalars", { anyOf: [{ type: "array", items: { type: "number" } }, { type: "object", properties: { a: { type: "string" } } }, { type: "string" }, { type: "null" }] }],
  ["a union of arrays", { anyOf: [{ type: "array", items: { type: "number" } }, { type: "array", items: closed({ s: { type: "string" } }) }] }],
  ["nested unions", { anyOf: [{ anyOf: [closed({ a: { type: "number" } }, ["a"]), { type: "string" }] }, closed({ b: { type: "number" } }, ["b"])] }],
  ["a recursive tree", { $ref: "#/$defs/Node", $defs: { Node: closed({ name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, ["name"]) } }],
  ["a reference to the root", closed({ next: { anyOf: [{ $ref: "#" }, { type: "null" }] }, v: { type: "integer" } })],
  ["a list of types", { type: ["string", "null"] }],
  ["a boolean schema for items", { type: "array", items: true }],
  ["a scalar root", { type: "number" }],
  ["a wrapped date", { type: "object", properties: { result: { type: "string", format: "date-time" } }, required: ["result"] }],
  ["a reference that leads nowhere", { type: "object", properties: { a: { $ref: "#/definitions/X" } } }],
];

// ---------------------------------------------------------------------------------------
// Values broken on purpose

class Account {
  #pin = 1234;
  private token = "secret";
  constructor(readonly name: string) {}
  get upper(): string {
    return this.name.toUpperCase() + this.#pin;
  }
}

type Container = Record<string, unknown> | unknown[];
type Breakage = (node: unknown, parent: Container | undefined, root: unknown) => unknown;

function deeply(levels: number): unknown {
  let value: unknown = { leaf: 1 };
  for (let i = 0; i < levels; i++) value = i % 2 ? { name: "n", children: [value] } : [value];
  return value;
}

/** Replacements for a node: what it becomes (the node is the original, already copied). */
const BREAKAGES: Record<string, Breakage> = {
  date: () => new Date(0),
  undefined: () => undefined,
  NaN: () => NaN,
  infinity: () => -Infinity,
  bigint: () => 12n,
  function: () => () => 1,
  symbol: () => Symbol("s"),
  "wrong type: string": () => "text",
  "wrong type: number": () => 7,
  "wrong type: array": () => [1, "a", null],
  "wrong type: object": () => ({ a: 1, name: "n" }),
  null: () => null,
  "extra key": (node) => (node !== null && typeof node === "object" && !Array.isArray(node) ? { ...node, extra: () => 1, more: 1 } : node),
  "class instance": (node) => (node !== null && typeof node === "object" && !Array.isArray(node) ? Object.assign(new Account("n"), node) : new Account("n")),
  "null prototype": (node) => (node !== null && typeof node === "object" && !Array.isArray(node) ? Object.assign(Object.create(null) as object, node) : node),
  "toJSON to undefined": () => ({ toJSON: () => undefined }),
  "toJSON to the node": (node) => ({ toJSON: () => node }),
  "a cycle to the parent": (node, parent) => parent ?? node,
  "a cycle to the root": (_, __, root) => root,
  "deeper than the generated code goes": () => deeply(40),
  "a __proto__ key": () => JSON.parse('{"__proto__": {"polluted": true}, "name": "n", "a": 1}'),
  hole: (node) => {
    if (!Array.isArray(node) || node.length === 0) return node;
    const sparse = [...node];
    delete sparse[0];
    return sparse;
  },
};

/** A deep copy of JSON, in which breakages can be placed without touching the drawn value. */
const copy = (value: Json): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** Every container and leaf of a value, with its parent and key. */
function sites(value: unknown): { parent: Container | undefined; key: string | number | undefined }[] {
  const out: { parent: Container | undefined; key: string | number | undefined }[] = [{ parent: undefined, key: undefined }];
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    const container = node as Container;
    for (const key of Array.isArray(container) ? container.keys() : Object.keys(container)) {
      out.push({ parent: container, key });
      walk((container as Record<string | number, unknown>)[key]);
    }
  };
  walk(value);
  return out;
}

/** The value with up to three breakages placed at drawn sites. */
function broken(value: Json, picks: [number, string][]): unknown {
  let root = copy(value);
  for (const [at, how] of picks) {
    const all = sites(root);
    const { parent, key } = all[at % all.length];
    const node = parent === undefined ? root : (parent as Record<string | number, unknown>)[key!];
    const replacement = BREAKAGES[how](node, parent, root);
    if (parent === undefined) root = replacement;
    else (parent as Record<string | number, unknown>)[key!] = replacement;
  }
  return root;
}

const breakagePicks = fc.array(fc.tuple(fc.nat(), fc.constantFrom(...Object.keys(BREAKAGES))), { minLength: 0, maxLength: 3 });

// ---------------------------------------------------------------------------------------
// Comparing outcomes

/** Paths of objects in a wire value whose prototype is not Object.prototype or Array.prototype. */
function notPlain(value: unknown, at = "$"): string[] {
  if (value === null || typeof value !== "object") return [];
  const prototype = Object.getPrototypeOf(value);
  const own = prototype === Object.prototype || prototype === Array.prototype ? [] : [at];
  return [...own, ...Object.entries(value).flatMap(([key, child]) => notPlain(child, `${at}.${key}`))];
}

/** A projection's result: the value itself (compared strictly: undefined is not null, a hole is not a value), its JSON text (key order), or its error. */
function outcome(project: () => unknown): { value?: unknown; json?: string; notPlain?: string[]; error?: string } {
  try {
    const value = project();
    return { value, json: JSON.stringify(value), notPlain: notPlain(value) };
  } catch (error) {
    return { error: error instanceof wire.WireError ? `WireError ${error.describe("result")}` : `${(error as Error).constructor.name}: ${(error as Error).message}` };
  }
}

function valuesFor(schema: JsonSchema): fc.Arbitrary<Json> {
  try {
    return fc.oneof(valuesOf(schema, schema), anyJson(3));
  } catch {
    return anyJson(3); // a schema the generator of valid values does not cover
  }
}

describe.each([...publishedSchemas(FIXTURES_OUT, ["outputSchema"]), ...WRITTEN])("%s", (_, schema) => {
  test("the compiled projector gives what the interpreter gives", () => {
    const form = compiledForm(schema);
    fc.assert(
      fc.property(valuesFor(schema), breakagePicks, (value, picks) => {
        const input = broken(value, picks);
        const interpreted = outcome(() => wire.toWire(input, form.form, form));
        expect(outcome(() => form.toWire(input))).toStrictEqual(interpreted);
        expect(interpreted.notPlain ?? []).toEqual([]);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});

describe("the generated code handles common shapes itself", () => {
  const cases: [string, JsonSchema, unknown][] = [
    ["a closed object with nested objects and arrays", WRITTEN.find(([name]) => name === "a recursive tree")![1], { name: "a", children: [{ name: "b", children: [] }] }],
    ["a record", WRITTEN.find(([name]) => name === "a record with declared keys")![1], JSON.parse('{"id": "x", "k": {"n": 1}, "__proto__": {"n": 2}}')],
    ["a tuple with a rest", WRITTEN.find(([name]) => name === "a tuple with a rest")![1], ["a", { a: 1 }, true, false]],
    ["a union of objects by tag", WRITTEN.find(([name]) => name === "a union of objects by tag")![1], { kind: "b", b: "x" }],
    ["a value or null", WRITTEN.find(([name]) => name === "a reference to the root")![1], { v: 1, next: { v: 2, next: null } }],
  ];
  test.each(cases)("%s", (_, schema, value) => {
    const form = compiledForm(schema);
    const projected = form.toWire(value); // compiles
    const interpreter = jest.spyOn(wire, "projectWithin");
    const whole = jest.spyOn(wire, "toWire");
    try {
      expect(form.toWire(value)).toEqual(projected);
      expect(JSON.stringify(projected)).toBe(JSON.stringify(wire.toWire(value, form.form, form)));
      expect(interpreter).not.toHaveBeenCalled();
      expect(whole).toHaveBeenCalledTimes(1); // the comparison's own call above
    } finally {
      interpreter.mockRestore();
      whole.mockRestore();
    }
  });

  test("a Date is handed to the interpreter where it stands, the rest stays compiled", () => {
    const form = compiledForm(closed({ when: { type: "string", format: "date-time" }, n: { type: "number" } }));
    form.toWire({ when: "x", n: 1 });
    const interpreter = jest.spyOn(wire, "projectWithin");
    try {
      expect(form.toWire({ when: new Date(0), n: 1, secret: "s" })).toEqual({ when: "1970-01-01T00:00:00.000Z", n: 1 });
      expect(interpreter).toHaveBeenCalledTimes(1);
    } finally {
      interpreter.mockRestore();
    }
  });
});
