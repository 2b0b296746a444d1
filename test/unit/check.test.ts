/**
 * runtime/validation/ (compile.ts, pass.ts, validator.ts, messages.ts) on its own: one test per keyword the checker
 * knows (the issue it reports, and the message a tool's caller reads, in the pydantic style the
 * Python SDK's users know), unions, several issues, the bound on issues, the wire copy of a
 * result (declared properties only, own properties only, toJSON, undefined, what JSON cannot
 * carry and where), schemas sharing one checker, and schemas the checker refuses.
 */
import { KEYWORD_ROWS } from "../../contract/keywords";
import { SchemaCompiler } from "../../runtime/validation/compile";
import { LISTED_ISSUES, WireError } from "../../runtime/validation/issues";
import { COPYING, Pass, VALIDATING } from "../../runtime/validation/pass";
import { ANY, validatorOf } from "../../runtime/validation/validator";
import { LinearRegExp } from "../../runtime/linear-regexp";
import { shortText, validationMessage } from "../../runtime/validation/messages";

type JsonSchema = Record<string, unknown>;

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** The message for a value the schema rejects, as a tool's arguments get it. */
function messageFor(schema: JsonSchema, value: unknown, title = "fArguments"): string {
  const found = validatorOf(schema).validate(value);
  expect(found.total).toBeGreaterThan(0);
  return validationMessage(title, found);
}

/** Every keyword the checker knows that can reject a value: a schema, a value it rejects, one it accepts, and the message. */
const KEYWORDS: [string, JsonSchema, unknown, unknown, string][] = [
  ["required", closed({ city: { type: "string" } }, ["city"]), {}, { city: "Oslo" }, "city\n  Field required"],
  ["additionalProperties", closed({}), { verbose: true }, {}, "verbose\n  Extra inputs are not permitted"],
  [
    "type",
    closed({ days: { type: "integer" } }),
    { days: 2.5 },
    { days: 2 },
    "days\n  Input should be a valid integer [input_value=2.5]",
  ],
  [
    "const",
    closed({ kind: { const: "circle" } }),
    { kind: "square" },
    { kind: "circle" },
    'kind\n  Input should be "circle" [input_value="square"]',
  ],
  [
    "enum",
    closed({ unit: { enum: ["c", "f", null] } }),
    { unit: "k" },
    { unit: null },
    'unit\n  Input should be "c", "f" or null [input_value="k"]',
  ],
  [
    "anyOf",
    closed({ when: { anyOf: [{ type: "string" }, { type: "integer" }] } }),
    { when: true },
    { when: 3 },
    "when\n  Input matches none of the allowed types [input_value=true]",
  ],
  [
    "format",
    closed({ contact: { type: "string", format: "email" } }),
    { contact: "nobody" },
    { contact: "a@b.co" },
    'contact\n  Input should be a valid email [input_value="nobody"]',
  ],
  [
    "minimum",
    closed({ n: { type: "number", minimum: 1 } }),
    { n: 0 },
    { n: 1 },
    "n\n  Input should be greater than or equal to 1 [input_value=0]",
  ],
  [
    "maximum",
    closed({ n: { type: "number", maximum: 100 } }),
    { n: 101 },
    { n: 100 },
    "n\n  Input should be less than or equal to 100 [input_value=101]",
  ],
  [
    "exclusiveMinimum",
    closed({ n: { type: "number", exclusiveMinimum: 0 } }),
    { n: 0 },
    { n: 0.1 },
    "n\n  Input should be greater than 0 [input_value=0]",
  ],
  [
    "exclusiveMaximum",
    closed({ n: { type: "number", exclusiveMaximum: 1 } }),
    { n: 1 },
    { n: 0.9 },
    "n\n  Input should be less than 1 [input_value=1]",
  ],
  [
    "multipleOf",
    closed({ n: { type: "number", multipleOf: 5 } }),
    { n: 7 },
    { n: 15 },
    "n\n  Input should be a multiple of 5 [input_value=7]",
  ],
  [
    "minLength",
    closed({ code: { type: "string", minLength: 3 } }),
    { code: "ab" },
    { code: "abc" },
    'code\n  String should have at least 3 characters [input_value="ab"]',
  ],
  [
    "maxLength",
    closed({ code: { type: "string", maxLength: 1 } }),
    { code: "ab" },
    { code: "😀" },
    'code\n  String should have at most 1 characters [input_value="ab"]',
  ],
  [
    "pattern",
    closed({ airport: { type: "string", pattern: "^[A-Z]{3}$" } }),
    { airport: "lhr" },
    { airport: "LHR" },
    'airport\n  String should match pattern "^[A-Z]{3}$" [input_value="lhr"]',
  ],
  [
    "minItems",
    closed({ tags: { type: "array", minItems: 1 } }),
    { tags: [] },
    { tags: [1] },
    "tags\n  List should have at least 1 items [input_value=[]]",
  ],
  [
    "maxItems",
    closed({ tags: { type: "array", maxItems: 1 } }),
    { tags: [1, 2] },
    { tags: [1] },
    "tags\n  List should have at most 1 items [input_value=[1,2]]",
  ],
  [
    "uniqueItems",
    closed({ tags: { type: "array", uniqueItems: true } }),
    { tags: ["a", "b", "a"] },
    { tags: ["a", "b"] },
    'tags\n  List items should be unique (items 0 and 2 are equal) [input_value=["a","b","a"]]',
  ],
  [
    "items",
    closed({ tags: { type: "array", items: { type: "string" } } }),
    { tags: ["a", 1] },
    { tags: ["a"] },
    "tags.1\n  Input should be a valid string [input_value=1]",
  ],
  [
    "prefixItems",
    closed({ at: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], minItems: 2, maxItems: 2 } }),
    { at: [1, "2"] },
    { at: [1, 2] },
    'at.1\n  Input should be a valid number [input_value="2"]',
  ],
  [
    "unevaluatedItems",
    closed({ t: { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: { type: "number" } } }),
    { t: ["a", 1, "b"] },
    { t: ["a", 1, 2] },
    't.2\n  Input should be a valid number [input_value="b"]',
  ],
  [
    "patternProperties",
    { type: "object", patternProperties: { "^x-": { type: "number" } }, additionalProperties: false },
    { "x-a": "1" },
    { "x-a": 1 },
    'x-a\n  Input should be a valid number [input_value="1"]',
  ],
  [
    "additionalProperties as a schema",
    { type: "object", additionalProperties: { type: "number" } },
    { a: "1" },
    { a: 1 },
    'a\n  Input should be a valid number [input_value="1"]',
  ],
  [
    "$ref",
    {
      type: "object",
      properties: { at: { $ref: "#/$defs/Point" } },
      $defs: { Point: closed({ x: { type: "number" } }, ["x"]) },
    },
    { at: {} },
    { at: { x: 1 } },
    "at.x\n  Field required",
  ],
];

test("every keyword of the table that can refuse a value has its case above (a row added is a case added)", () => {
  // An annotation refuses nothing; `$defs` and `properties` hold schemas, which refuse by their own keywords.
  const refusing = KEYWORD_ROWS.filter(
    ([name, row]) => !row.annotation && name !== "$defs" && name !== "properties",
  ).map(([name]) => name);
  const cased = new Set(KEYWORDS.map(([label]) => label.split(" ")[0]));
  expect(refusing).toEqual(expect.arrayContaining(["type", "minimum", "uniqueItems", "$ref"]));
  expect(refusing.filter((name) => !cased.has(name))).toEqual([]);
});

describe("one issue per keyword, and its message naming the field", () => {
  test.each(KEYWORDS)("%s", (_, schema, rejected, accepted, lines) => {
    expect(messageFor(schema, rejected)).toBe(`1 validation error for fArguments\n${lines}`);
    expect(validatorOf(schema).validate(accepted)).toEqual({ issues: [], total: 0 });
  });
});

describe("numbers JSON can carry, and nothing else", () => {
  const schema = closed({ n: { type: "number" }, i: { type: "integer" } });
  test.each([
    [
      "Infinity (1e400 parses to it)",
      JSON.parse('{"n": 1e400}'),
      "n\n  Input should be a finite number [input_value=Infinity]",
    ],
    ["-Infinity as an integer", { i: -Infinity }, "i\n  Input should be a finite number [input_value=-Infinity]"],
    [
      "an integer beyond the safe range (2^53 + 1, as JSON.parse reads it)",
      JSON.parse('{"i": 9007199254740993}'),
      "i\n  Input should be a safe integer, from -9007199254740991 to 9007199254740991 [input_value=9007199254740992]",
    ],
    ["NaN", { i: NaN }, "i\n  Input should be a finite number [input_value=NaN]"],
  ])("%s is refused", (_, value, lines) => {
    expect(messageFor(schema, value)).toBe(`1 validation error for fArguments\n${lines}`);
  });
});

test("a union whose branches are references: why the value is none of them, then that it matches none", () => {
  const schema = {
    type: "object",
    properties: { shape: { anyOf: [{ $ref: "#/$defs/Circle" }, { $ref: "#/$defs/Square" }] } },
    $defs: {
      Circle: closed({ kind: { const: "circle" }, radius: { type: "number" } }, ["kind", "radius"]),
      Square: closed({ kind: { const: "square" }, side: { type: "number" } }, ["kind", "side"]),
    },
  };
  expect(messageFor(schema, { shape: { kind: "circle", side: 2 } })).toBe(
    [
      "4 validation errors for fArguments",
      "shape.radius\n  Field required",
      "shape.side\n  Extra inputs are not permitted",
      'shape.kind\n  Input should be "square" [input_value="circle"]',
      'shape\n  Input matches none of the allowed types [input_value={"kind":"circle","side":2}]',
    ].join("\n"),
  );
});

test("issues inside an inline branch fold into one: the value matches none of the branches", () => {
  const schema = closed({
    when: {
      anyOf: [
        { type: "string", format: "date-time" },
        { type: "integer", minimum: 0 },
      ],
    },
  });
  expect(messageFor(schema, { when: -1 })).toBe(
    "1 validation error for fArguments\nwhen\n  Input matches none of the allowed types [input_value=-1]",
  );
});

test("several issues: counted, each with its path, in the order validators give them; the root is (root)", () => {
  const schema = closed({
    booking: closed({
      guests: { type: "integer", minimum: 1 },
      legs: { type: "array", items: closed({ from: { type: "string" } }, ["from"]) },
    }),
  });
  expect(messageFor(schema, { booking: { guests: 0, legs: [{ from: "OSL" }, {}] } }, "bookArguments")).toBe(
    "2 validation errors for bookArguments\nbooking.guests\n  Input should be greater than or equal to 1 [input_value=0]\nbooking.legs.1.from\n  Field required",
  );
  // The type first, then what applies to any type (a const), then what applies to the value's own type.
  expect(messageFor({ type: "boolean", const: false }, 0)).toBe(
    "2 validation errors for fArguments\n(root)\n  Input should be a valid boolean [input_value=0]\n(root)\n  Input should be false [input_value=0]",
  );
  // Required, then undeclared keys, then the declared ones.
  expect(messageFor(closed({ a: { type: "string" }, b: { type: "string" } }, ["b"]), { a: 1, z: 1 })).toBe(
    "3 validation errors for fArguments\nb\n  Field required\nz\n  Extra inputs are not permitted\na\n  Input should be a valid string [input_value=1]",
  );
});

test("a key matching two patterns is checked against both, as JSON Schema says", () => {
  const schema = {
    type: "object",
    patternProperties: { "^x-": { type: "number" }, n$: { type: "integer" } },
    additionalProperties: false,
  };
  expect(messageFor(schema, { "x-n": 1.5 })).toBe(
    "1 validation error for fArguments\nx-n\n  Input should be a valid integer [input_value=1.5]",
  );
  expect(validatorOf(schema).wireCopy({ "x-n": 2, "x-a": 0.5, n: 3 })).toEqual({
    value: { "x-n": 2, "x-a": 0.5, n: 3 },
    issues: [],
    total: 0,
  });
});

test("a million bad items: the first issues listed, all counted", () => {
  const values = Array.from({ length: 1_000_000 }, () => "x");
  const found = validatorOf(closed({ values: { type: "array", items: { type: "number" } } })).validate({ values });
  expect(found.total).toBe(1_000_000);
  expect(found.issues).toHaveLength(LISTED_ISSUES);
  expect(found.issues[LISTED_ISSUES - 1].path).toEqual(["values", LISTED_ISSUES - 1]);
  expect(validationMessage("sumArguments", found).split("\n").slice(0, 3)).toEqual([
    "1000000 validation errors for sumArguments (the first 50 listed)",
    "values.0",
    '  Input should be a valid number [input_value="x"]',
  ]);
});

test("a result's integer beyond the safe range goes out as the number it is; NaN cannot go out", () => {
  const schema = closed({ n: { type: "number" }, i: { type: "integer", minimum: 0 } });
  expect(validatorOf(schema).wireCopy({ n: 1, i: 2 ** 53 + 2 })).toEqual({
    value: { n: 1, i: 2 ** 53 + 2 },
    issues: [],
    total: 0,
  });
  expect(() => validatorOf(schema).wireCopy({ n: NaN })).toThrow(new WireError("NaN is not a JSON number"));
});

test("a value a backtracking pattern cannot decide in time is refused with the pattern and why; the others are checked", () => {
  const schema = closed({ s: { type: "array", items: { type: "string", pattern: "^(a{1,100}){1,100}$" } } });
  const hostile = (i: number) => `${"a".repeat(40 + i)}!`;
  expect(validatorOf(schema).validate({ s: ["aaa", "aaaa"] })).toEqual({ issues: [], total: 0 });
  // Twelve hostile values: each run stopped at 100 ms, the check's 1,000 ms spent by the tenth, the rest refused unrun.
  const found = validatorOf(schema).validate({ s: Array.from({ length: 12 }, (_, i) => hostile(i)) });
  expect(found.issues.map((issue) => [issue.path, issue.keyword])).toEqual(
    Array.from({ length: 12 }, (_, i) => [["s", i], "patternTooSlow"]),
  );
  expect(validationMessage("fArguments", { issues: found.issues.slice(0, 1), total: 1 })).toBe(
    `1 validation error for fArguments\ns.0\n  String could not be checked against pattern "^(a{1,100}){1,100}$" in time: the pattern holds counted repetitions that, written out, take more than 20,000 instructions, so it runs on a backtracking engine, stopped after 100 ms a value and 1000 ms a check [input_value="${hostile(0)}"]`,
  );
});

test("patterns run in linear time: ^(a+)+$ on 10,000 a's and a !", () => {
  const found = validatorOf(closed({ s: { type: "string", pattern: "^(a+)+$" } })).validate({
    s: `${"a".repeat(10_000)}!`,
  });
  expect(found.issues.map((issue) => issue.keyword)).toEqual(["pattern"]);
});

test("a value in a message is JSON, cut short past 120 characters with its length", () => {
  expect(shortText("London")).toBe('"London"');
  expect(shortText({ a: [1, null] })).toBe('{"a":[1,null]}');
  expect(shortText("x".repeat(200))).toBe(`"${"x".repeat(119)}… (202 characters)`);
  // What JSON cannot write is shown as JavaScript prints it.
  expect(shortText(undefined)).toBe("undefined");
  expect(shortText(12n)).toBe("12");
});

describe("the wire copy of a result", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string" },
      when: { type: "string", format: "date-time" },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["name"],
    additionalProperties: false,
  };
  const project = (value: unknown, on: JsonSchema = schema) => validatorOf(on).wireCopy(value);

  test("declared properties only, toJSON applied, undefined dropped (null in an array, checked as null)", () => {
    const value = { name: "Ada", when: new Date(0), tags: ["a"], secret: "x", fn: () => 1, missing: undefined };
    expect(project(value)).toEqual({
      value: { name: "Ada", when: "1970-01-01T00:00:00.000Z", tags: ["a"] },
      issues: [],
      total: 0,
    });
    expect(
      project([1, undefined], { type: "array", items: { anyOf: [{ type: "number" }, { type: "null" }] } }),
    ).toEqual({ value: [1, null], issues: [], total: 0 });
    expect(project({ name: "Ada", tags: [undefined] }).issues).toEqual([
      { path: ["tags", 0], keyword: "type", expected: "string", value: null },
    ]);
    expect(project(undefined, { type: "object" })).toEqual({
      value: null,
      issues: [{ path: [], keyword: "type", expected: "object", value: null }],
      total: 1,
    });
  });

  test("toJSON is applied once, as JSON.stringify applies it, through a $ref too", () => {
    const twice = { toJSON: () => ({ toJSON: () => "twice" }) };
    // JSON.stringify writes {"a":{}}: the second toJSON is a method of the value it wrote.
    expect(JSON.stringify({ a: twice })).toBe('{"a":{}}');
    const referred: JsonSchema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/S" } },
      $defs: { S: { type: "string" } },
    };
    // Once applied, the value is an object holding a function: refused, never sent as "twice".
    expect(() => project({ a: twice }, referred)).toThrow(new WireError("a function, which JSON cannot carry"));
    expect(project({ a: { toJSON: () => "once" } }, referred).value).toEqual({ a: "once" });
  });

  test("a class instance sends its declared public properties, not its private fields or getters", () => {
    class Account {
      #pin = 1234;
      private token = "secret";
      constructor(readonly name: string) {}
      get upper(): string {
        return this.name.toUpperCase() + this.#pin + this.token;
      }
    }
    expect(
      project(new Account("Ada"), closed({ name: { type: "string" }, upper: { type: "string" } }, ["name"])),
    ).toEqual({ value: { name: "Ada" }, issues: [], total: 0 });
  });

  test("own properties only: a polluted prototype adds nothing, a property named constructor is data", () => {
    const polluted = Object.prototype as Record<string, unknown>;
    polluted.note = "INJECTED";
    try {
      const on = closed({ name: { type: "string" }, note: { type: "string" }, constructor: { type: "string" } }, [
        "name",
      ]);
      expect(project({ name: "plain" }, on)).toEqual({ value: { name: "plain" }, issues: [], total: 0 });
      expect(project({ name: "plain", constructor: "c" }, on)).toEqual({
        value: { name: "plain", constructor: "c" },
        issues: [],
        total: 0,
      });
    } finally {
      delete polluted.note;
    }
  });

  test("an undefined item of an array of anything goes out as null, as JSON.stringify writes it", () => {
    expect(ANY.wireCopy(["a", undefined]).value).toEqual(["a", null]);
  });

  test("a __proto__ key stays data, never the copy's prototype", () => {
    const out = validatorOf({}).wireCopy(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')).value as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test.each([
    ["a bigint", { list: [1, { deep: 2n }] }, "result.list[1].deep: a bigint, which JSON cannot represent"],
    ["a function", { list: [() => 1] }, "result.list[0]: a function, which JSON cannot carry"],
    ["a symbol", { s: Symbol("s") }, "result.s: a symbol, which JSON cannot carry"],
    ["NaN", { n: NaN }, "result.n: NaN is not a JSON number"],
    ["Infinity", { n: -Infinity }, "result.n: -Infinity is not a JSON number"],
  ])("%s says where it is", (_, value, message) => {
    expect(() => validatorOf({}).wireCopy(value)).toThrow(WireError);
    try {
      validatorOf({}).wireCopy(value);
    } catch (error) {
      expect((error as WireError).describe("result")).toBe(message);
    }
  });

  test("a cycle is named by its shortest path, at any depth", () => {
    const shallow: Record<string, unknown> = { a: {} };
    (shallow.a as Record<string, unknown>).self = shallow.a;
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let i = 0; i < 40; i++) deep = deep.next = {};
    deep.back = root;
    for (const [value, path] of [
      [shallow, "result.a.self"],
      [root, `result${".next".repeat(40)}.back`],
    ] as const) {
      try {
        validatorOf({}).wireCopy(value);
        throw new Error("expected a WireError");
      } catch (error) {
        expect((error as WireError).describe("result")).toBe(`${path}: a cycle: the value contains itself`);
      }
    }
  });

  test("a result that breaks its schema: no copy, the issues", () => {
    expect(project({ name: 1 })).toEqual({
      value: null,
      issues: [{ path: ["name"], keyword: "type", expected: "string", value: 1 }],
      total: 1,
    });
    expect(project({})).toEqual({
      value: null,
      issues: [{ path: ["name"], keyword: "required", expected: "name", value: {} }],
      total: 1,
    });
  });
});

test("schemas that differ only in annotations share one checker; a property named like an annotation is kept apart", () => {
  const output = (title: string, description: string) => ({
    type: "object",
    title,
    description,
    properties: { temperature: { type: "number", description: "Degrees." } },
    required: ["temperature"],
  });
  const first = validatorOf(output("get_weather_1Output", "One."));
  expect(validatorOf(output("get_weather_2Output", "Two."))).toBe(first);
  const titled = validatorOf({
    type: "object",
    properties: { title: { type: "string", title: "Title" }, description: { type: "string" } },
  });
  expect(titled).not.toBe(first);
  expect(titled.validate({ title: 1 })).toEqual({
    issues: [{ path: ["title"], keyword: "type", expected: "string", value: 1 }],
    total: 1,
  });
});

test("annotations are left out of sub-schemas at every depth, never out of the data a keyword holds", () => {
  const nested = (note: string) => ({
    type: "object",
    properties: {
      list: { type: "array", description: note, items: { type: "string", title: note } },
      either: { anyOf: [{ type: "integer", title: note }, { $ref: "#/$defs/Point" }] },
      extra: { type: "object", additionalProperties: { type: "number", description: note } },
    },
    $defs: { Point: { type: "object", title: note, properties: { x: { type: "number", examples: [note] } } } },
  });
  expect(validatorOf(nested("one"))).toBe(validatorOf(nested("two")));
  // A const or an enum holds data: an object in it keeps every key, whatever it is called (a default
  // is an annotation, left out whole).
  const a = validatorOf({ const: { title: "a", description: ["x"] } });
  const b = validatorOf({ const: { title: "b", description: ["x"] } });
  expect(b).not.toBe(a);
  expect(a.validate({ title: "a", description: ["x"] })).toEqual({ issues: [], total: 0 });
  expect(b.validate({ title: "a", description: ["x"] }).total).toBe(1);
  const enumOf = (title: string) => validatorOf({ type: "object", enum: [{ title }] });
  expect(enumOf("a")).not.toBe(enumOf("b"));
  expect(enumOf("b").validate({ title: "a" }).total).toBe(1);
  // So do the names of the properties: two schemas whose properties are called by annotations' names differ.
  const named = (name: string) =>
    validatorOf({ type: "object", properties: { [name]: { type: "string" } }, additionalProperties: false });
  expect(named("title")).not.toBe(named("description"));
  expect(named("description").validate({ title: "x" }).total).toBe(1);
});

test("a keyword or a format the checker does not know is an error, never ignored", () => {
  expect(() => validatorOf({ type: "object", maxProperties: 1 }).validate({})).toThrow(
    'typemcp: the schema uses the keyword "maxProperties", which typemcp does not check',
  );
  expect(() => validatorOf({ type: "string", format: "color" }).validate("red")).toThrow(
    'typemcp: the schema asks for the format "color", which typemcp does not know',
  );
  expect(() => validatorOf({ $ref: "#/definitions/X" }).validate(1)).toThrow(
    "typemcp: the schema refers to #/definitions/X, which it does not define",
  );
});

test("a string a pattern refuses is run through it once: the second pass, which says where, reuses the answer", () => {
  const test = jest.spyOn(LinearRegExp.prototype, "test");
  try {
    const checker = validatorOf(closed({ version: { type: "string", pattern: "^[0-9]+(?:\\.[0-9]+){2}$" } }));
    const text = "1.2.3".repeat(1000) + "x";
    expect(checker.validate({ version: text })).toEqual({
      issues: [{ path: ["version"], keyword: "pattern", expected: "^[0-9]+(?:\\.[0-9]+){2}$", value: text }],
      total: 1,
    });
    expect(test.mock.calls).toEqual([[text]]);
  } finally {
    test.mockRestore();
  }
});

describe("a pass: the walk's state, ended without an exception", () => {
  const shared = () => ({ misses: [], backtracking: { left: 100, answers: new Map() } });
  const compiled = (schema: JsonSchema) => new SchemaCompiler(schema).compile(schema);

  test("a value JSON cannot carry ends the walk: noted with where it is, and nothing after it is looked at", () => {
    const later = jest.fn(() => 1);
    const schema = closed({ a: { type: "number" }, b: { type: "number" } });
    const pass = new Pass(COPYING, true, LISTED_ISSUES, shared());
    expect(() => compiled(schema)({ a: 1n, b: { toJSON: later } }, pass)).not.toThrow();
    expect(pass.wireError).toBeInstanceOf(WireError);
    expect(pass.wireError!.describe("result")).toBe("result.a: a bigint, which JSON cannot represent");
    expect([pass.stop, pass.halted]).toEqual([true, true]);
    expect(later).not.toHaveBeenCalled();
  });

  test("a cycle below the depth searched asks for the pass again, looking at every level", () => {
    const node: Record<string, unknown> = {};
    let deep = node;
    for (let i = 0; i < 40; i++) deep = (deep.next = {}) as Record<string, unknown>;
    deep.next = node;
    const pass = new Pass(COPYING, false, LISTED_ISSUES, shared());
    compiled({})(node, pass);
    expect([pass.startOver, pass.wireError]).toEqual([true, undefined]);
    const again = new Pass(COPYING, true, LISTED_ISSUES, shared(), true);
    compiled({})(node, again);
    expect(again.wireError!.path).toHaveLength(41);
  });

  test("a union's branches are tried in a pass of their own: the pass that tries them is left as it was", () => {
    const schema = { anyOf: [{ type: "string" }, closed({ n: { type: "integer", minimum: 1 } }, ["n"])] };
    for (const listing of [false, true]) {
      const pass = new Pass(VALIDATING, listing, LISTED_ISSUES, shared());
      compiled(schema)({ n: 2 }, pass);
      expect([pass.failed, pass.stop, pass.total, pass.issues, pass.insideRef]).toEqual([false, false, 0, [], false]);
      compiled(schema)({ n: 0 }, pass);
      expect([pass.failed || pass.total > 0, pass.halted]).toEqual([true, false]);
    }
  });
});

describe("the two strategies: what validating and the wire copy do differently, and the checks ask neither which", () => {
  test("a strategy is behaviour only: the same members, each a function, and no flag the checks could read", () => {
    const members = (strategy: object) =>
      Object.entries(strategy)
        .map(([name, member]) => [name, typeof member])
        .sort();
    expect(members(VALIDATING)).toEqual(members(COPYING));
    expect(members(VALIDATING).filter(([, kind]) => kind !== "function")).toEqual([]);
  });

  test("an integer beyond 2^53 - 1: refused among arguments, sent as it is in a result", () => {
    const schema = closed({ n: { type: "integer" } }, ["n"]);
    expect(validatorOf(schema).validate({ n: 2 ** 53 })).toEqual({
      issues: [{ path: ["n"], keyword: "safeInteger", expected: undefined, value: 2 ** 53 }],
      total: 1,
    });
    expect(validatorOf(schema).wireCopy({ n: 2 ** 53 })).toEqual({ value: { n: 2 ** 53 }, issues: [], total: 0 });
  });

  test("object keywords beside a $ref: checked among arguments; a result's copy is the reference's", () => {
    const schema = {
      $ref: "#/$defs/Point",
      properties: { x: { type: "integer" } },
      $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
    };
    expect(validatorOf(schema).validate({ x: 1.5 })).toEqual({
      issues: [{ path: ["x"], keyword: "type", expected: "integer", value: 1.5 }],
      total: 1,
    });
    expect(validatorOf(schema).wireCopy({ x: 1.5, y: undefined })).toEqual({
      value: { x: 1.5 },
      issues: [],
      total: 0,
    });
  });

  test("undefined in a result: a missing key, left out of the copy, null in an array and at the root", () => {
    const schema = closed({ a: { type: "string" }, b: { type: "array", items: {} } }, ["a"]);
    const value = { a: undefined, b: [undefined] };
    expect(validatorOf(schema).wireCopy(value)).toEqual({
      value: null,
      issues: [{ path: ["a"], keyword: "required", expected: "a", value }],
      total: 1,
    });
    expect(validatorOf(schema).wireCopy({ ...value, a: "x" })).toEqual({
      value: { a: "x", b: [null] },
      issues: [],
      total: 0,
    });
    expect(validatorOf({ type: "null" }).wireCopy(undefined)).toEqual({ value: null, issues: [], total: 0 });
  });
});
