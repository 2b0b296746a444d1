/**
 * The generated wire copy (runtime/validation/generate.ts): what it writes for the cases it takes,
 * and what it leaves to the closures, compared value by value with the closures' copy
 * (test/check-vs-ajv.test.ts compares them on every fixture's schema besides).
 */
import type { JsonSchema } from "../../contract/contract";
import { SchemaCompiler } from "../../runtime/validation/compile";
import { type Generated, generateCheck, generateCopy, MISS } from "../../runtime/validation/generate";
import { WireError } from "../../runtime/validation/issues";
import { compileValidator, GENERATE_AT } from "../../runtime/validation/validator";

function generated(schema: JsonSchema): Generated {
  const compiler = new SchemaCompiler(schema);
  const fast = generateCopy(schema, compiler);
  if (!fast) throw new Error("nothing generated");
  return fast;
}

/** The closures' copy, as the validator made it before any copy was generated. */
const closures = (schema: JsonSchema, value: unknown) => compileValidator(schema, Infinity).wireCopy(value);

const closed = (properties: Record<string, JsonSchema>, required = Object.keys(properties)): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

const WEATHER: JsonSchema = {
  title: "Weather",
  ...closed(
    {
      temperature: { type: "number", description: "Degrees Celsius." },
      conditions: { type: "string" },
      station: { $ref: "#/$defs/Station" },
      history: { type: "array", items: { $ref: "#/$defs/Day" } },
      note: { type: "string" },
    },
    ["temperature", "conditions", "station", "history"],
  ),
  $defs: {
    Station: closed({ id: { type: "string" }, kind: { type: "string", enum: ["land", "sea"] } }),
    Day: closed({ day: { type: "string" }, high: { type: "integer" } }),
  },
};

const weather = () => ({
  temperature: 16.2,
  conditions: "Overcast",
  station: { id: "st-1", kind: "land" },
  history: [
    { day: "d0", high: 18 },
    { day: "d1", high: 19 },
  ],
});

describe("the generated copy", () => {
  test("is a fresh value holding what the schema describes, in the schema's order", () => {
    const value = {
      history: [{ high: 18, day: "d0" }],
      station: { kind: "sea", id: "x" },
      conditions: "c",
      temperature: 1,
    };
    const out = generated(WEATHER)(value) as typeof value;
    expect(JSON.stringify(out)).toBe(
      '{"temperature":1,"conditions":"c","station":{"id":"x","kind":"sea"},"history":[{"day":"d0","high":18}]}',
    );
    expect(out).not.toBe(value);
    expect(out.station).not.toBe(value.station);
    expect(out.history).not.toBe(value.history);
    expect(out.history[0]).not.toBe(value.history[0]);
  });

  test("leaves undeclared keys behind, and an optional key that is undefined out, as the closures do", () => {
    const value = { ...weather(), note: undefined, secret: "s", station: { id: "a", kind: "land", extra: 1 } };
    const out = generated(WEATHER)(value);
    expect(out).toStrictEqual(closures(WEATHER, value).value);
    expect(Object.keys(out as object)).toEqual(["temperature", "conditions", "station", "history"]);
  });

  test.each([
    ["a missing required key", () => ({ ...weather(), conditions: undefined })],
    ["a value of the wrong type", () => ({ ...weather(), temperature: "16" })],
    ["a value outside an enum", () => ({ ...weather(), station: { id: "a", kind: "air" } })],
    ["NaN", () => ({ ...weather(), temperature: NaN })],
    ["a bigint", () => ({ ...weather(), history: [{ day: "d", high: 1n }] })],
    ["an undefined item", () => ({ ...weather(), history: [undefined] })],
    ["a nested toJSON", () => ({ ...weather(), station: { toJSON: () => ({ id: "j", kind: "sea" }) } })],
    [
      "a toJSON beside keys that would do",
      () => ({ ...weather(), station: { id: "a", kind: "land", toJSON: () => ({ id: "j", kind: "sea" }) } }),
    ],
    ["a toJSON at the root", () => ({ ...weather(), toJSON: () => ({ ...weather(), conditions: "from toJSON" }) })],
    [
      "a getter that throws",
      () => ({
        ...weather(),
        get conditions(): string {
          throw new Error("no");
        },
      }),
    ],
    ["a string object", () => ({ ...weather(), conditions: new String("c") })],
  ])("leaves %s to the closures, which answer as they always did", (_, make) => {
    expect(generated(WEATHER)(make())).toBe(MISS);
    const validator = compileValidator(WEATHER, 1);
    let expected: unknown;
    try {
      expected = closures(WEATHER, make());
    } catch (error) {
      expected = error;
    }
    let got: unknown;
    try {
      got = validator.wireCopy(make());
    } catch (error) {
      got = error;
    }
    expect(got).toStrictEqual(expected);
    if (expected instanceof WireError) expect((got as WireError).describe("result")).toBe(expected.describe("result"));
  });

  test("copies a class instance's own properties, as the closures do, and no getter of its class", () => {
    class Station {
      id = "c";
      kind = "land";
      get name(): string {
        return "from the class";
      }
    }
    const value = { ...weather(), station: new Station() };
    const out = generated(WEATHER)(value) as { station: unknown };
    expect(out).toStrictEqual(closures(WEATHER, value).value);
    expect(out.station).toStrictEqual({ id: "c", kind: "land" });
    expect(Object.getPrototypeOf(out.station)).toBe(Object.prototype);
  });

  test("reads own properties only: a value on Object.prototype is no key's", () => {
    const schema = closed({ a: { type: "string" }, polluted: { type: "string" } }, ["a"]);
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = "from the prototype";
    try {
      expect(generated(schema)({ a: "x" })).toStrictEqual({ a: "x" });
      expect(generated(schema)({ a: "x" })).toStrictEqual(closures(schema, { a: "x" }).value);
    } finally {
      delete prototype.polluted;
    }
    const named = closed({ constructor: { type: "string" }, toString: { type: "string" } }, []);
    expect(generated(named)({})).toStrictEqual({});
    expect(generated(named)({ constructor: "c" })).toStrictEqual({ constructor: "c" });
  });

  test("writes any key as the data it is", () => {
    const keys = ['"', "\\", "a\u2028b", "'); throw new Error('x'); ('", "${1}", "\n", "0", "-1", "hasOwnProperty"];
    const schema = closed(Object.fromEntries(keys.map((key) => [key, { type: "string" }])));
    const value = Object.fromEntries(keys.map((key) => [key, `v${key}`]));
    const out = generated(schema)(value);
    expect(out).toStrictEqual(closures(schema, value).value);
    expect(out).toStrictEqual(value);
  });

  test("leaves an object declaring __proto__ to the closures, which keep it as data", () => {
    const schema = JSON.parse(
      '{"type": "object", "properties": {"__proto__": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"], "additionalProperties": false}',
    ) as JsonSchema;
    const value = JSON.parse('{"__proto__": "p", "b": 1}');
    const out = compileValidator(schema, 1).wireCopy(value).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(["__proto__", "b"]);
    expect(JSON.stringify(out)).toBe('{"__proto__":"p","b":1}');
  });

  test("leaves a value nested deeper than the cycle search starts to the closures", () => {
    const tree: JsonSchema = closed({ next: { anyOf: [{ $ref: "#" }, { type: "null" }] } });
    const deep = (n: number): unknown => (n === 0 ? { next: null } : { next: deep(n - 1) });
    expect(generated(tree)(deep(10))).toStrictEqual(deep(10));
    expect(generated(tree)(deep(40))).toBe(MISS);
    const cyclic: { next: unknown } = { next: null };
    cyclic.next = cyclic;
    expect(generated(tree)(cyclic)).toBe(MISS);
    expect(() => compileValidator(tree, 1).wireCopy(cyclic)).toThrow("a cycle: the value contains itself");
  });

  test("takes the one branch of a union a value's type or a required string tells apart", () => {
    const union: JsonSchema = {
      type: "object",
      properties: {
        result: {
          anyOf: [{ $ref: "#/$defs/Found" }, { $ref: "#/$defs/Missing" }, { type: "null" }, { type: "string" }],
        },
      },
      required: ["result"],
      $defs: {
        Found: closed({ status: { type: "string", enum: ["open", "shipped"] }, id: { type: "string" } }),
        Missing: closed({ status: { type: "string", const: "not_found" }, reason: { type: "string" } }),
      },
    };
    for (const result of [{ status: "open", id: "1" }, { status: "not_found", reason: "gone" }, null, "text"])
      expect(generated(union)({ result })).toStrictEqual({ result });
    for (const result of [{ status: "lost", id: "1" }, { status: "open", reason: "r" }, 3, [1]])
      expect(generated(union)({ result })).toBe(MISS);
    // Two object branches nothing tells apart: their closures decide, inside the generated copy.
    const untold: JsonSchema = closed({
      result: { anyOf: [closed({ a: { type: "string" } }), closed({ b: { type: "integer" } })] },
    });
    expect(generated(untold)({ result: { b: 1 } })).toStrictEqual({ result: { b: 1 } });
    expect(generated(untold)({ result: { c: 1 } })).toBe(MISS);
  });

  test("checks what it does not write with the closures, inside the generated copy", () => {
    const schema = closed({
      name: { type: "string", minLength: 2, pattern: "^[a-z]+$" },
      when: { type: "string", format: "date" },
      score: { type: "number", minimum: 0 },
      any: {},
    });
    const value = { name: "ab", when: "2026-12-05", score: 1, any: { x: [1, { y: 2 }] } };
    expect(generated(schema)(value)).toStrictEqual(closures(schema, value).value);
    expect(generated(schema)({ ...value, name: "A" })).toBe(MISS);
    expect(generated(schema)({ ...value, score: -1 })).toBe(MISS);
  });

  test("is made at a schema's second result, and changes nothing a validator answers", () => {
    expect(GENERATE_AT).toBe(2);
    const validator = compileValidator(WEATHER);
    const wrong = { ...weather(), temperature: "warm" };
    for (let i = 0; i < 4; i++) {
      expect(validator.wireCopy(weather())).toStrictEqual(closures(WEATHER, weather()));
      expect(validator.wireCopy(wrong)).toStrictEqual(closures(WEATHER, wrong));
    }
  });

  test("is not made where the runtime forbids generating code", () => {
    const original = globalThis.Function;
    jest.isolateModules(() => {
      globalThis.Function = function () {
        throw new EvalError("Code generation from strings disallowed for this context");
      } as unknown as FunctionConstructor;
      try {
        const isolated =
          require("../../runtime/validation/generate") as typeof import("../../runtime/validation/generate");
        const { SchemaCompiler: Compiler } =
          require("../../runtime/validation/compile") as typeof import("../../runtime/validation/compile");
        const compiler = new Compiler(WEATHER);
        expect(isolated.generateCopy(WEATHER, compiler)).toBeUndefined();
      } finally {
        globalThis.Function = original;
      }
    });
  });
});

describe("the generated check", () => {
  const ARGUMENTS: JsonSchema = {
    type: "object",
    properties: {
      city: { type: "string" },
      days: { type: "integer" },
      filters: { type: "object", properties: { tags: { type: "array", items: { type: "string" } } } },
    },
    required: ["city"],
    additionalProperties: false,
  };
  const check = (value: unknown) => {
    const compiler = new SchemaCompiler(ARGUMENTS);
    return generateCheck(ARGUMENTS, compiler)!(value);
  };

  test("takes a valid value as it is", () => {
    const value = JSON.parse('{"city": "Oslo", "days": 3, "filters": {"tags": ["a"], "other": 1}}');
    expect(check(value)).toBe(value);
  });

  test.each([
    ["an undeclared key of a closed object", { city: "Oslo", extra: 1 }],
    ["an integer beyond 2^53 - 1, which JSON.parse would have changed", { city: "Oslo", days: 2 ** 53 + 2 }],
    ["a missing required key", { days: 1 }],
    ["a wrong item", { city: "Oslo", filters: { tags: [1] } }],
    ["a toJSON, which a check does not apply", { city: "Oslo", toJSON: () => ({ city: "x" }) }],
  ])("leaves %s to the closures, which say why", (_, value) => {
    expect(check(value)).toBe(MISS);
    const validator = compileValidator(ARGUMENTS, 1);
    expect(validator.validate(value)).toStrictEqual(compileValidator(ARGUMENTS, Infinity).validate(value));
    expect(validator.validate(value).total).toBeGreaterThan(0);
  });
});
