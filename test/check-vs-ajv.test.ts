/**
 * The runtime's validation (runtime/validation/) against Ajv, an independent JSON Schema validator: on every
 * input and output schema the fixtures publish, and on schemas written for the checker's
 * corners, for values of the schema, mutations of them and any JSON, the checker's verdict is
 * Ajv's, and its message is the one Ajv's errors make (test/support/ajv-messages.ts): the same
 * issues, in the same order. And the wire copy of a valid value is the value, and the generated
 * check and copy (runtime/validation/generate.ts) answer as the closures do for every valid
 * value, and leave every invalid one to them.
 *
 * Where the two differ by design, values are left out: integers beyond the safe range (the
 * checker refuses them in arguments; Ajv takes any whole number), and more issues than a
 * message lists (the checker lists LISTED_ISSUES and counts the rest).
 */
import fc from "fast-check";
import { LISTED_ISSUES } from "../runtime/validation/issues";
import { compileValidator, validatorOf } from "../runtime/validation/validator";
import { generateCheck, generateCopy, MISS } from "../runtime/validation/generate";
import { SchemaCompiler } from "../runtime/validation/compile";
import { WireError } from "../runtime/validation/issues";
import { validationMessage } from "../runtime/validation/messages";
import { ajvMessage } from "./support/ajv-messages";
import { publishedSchemas } from "./support/emitted-contracts";
import { FIXTURES_OUT } from "./support/fixtures";
import { anyJson, mutantsOf, valuesOf, type Json } from "./support/json-arbitraries";

type JsonSchema = { [keyword: string]: unknown };

const SEED = 20_261_203;

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** Schemas for the checker's corners. */
const WRITTEN: [string, JsonSchema][] = [
  [
    "bounds",
    closed({
      a: { type: "integer", minimum: 1, maximum: 3 },
      b: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    }),
  ],
  ["lengths in code points", closed({ s: { type: "string", minLength: 2, maxLength: 3 } })],
  ["a pattern, read with the u flag", closed({ s: { type: "string", pattern: "^.$" } })],
  [
    "enum and const",
    closed({ e: { enum: ["x", 1, null, true] }, c: { const: "k" }, n: { const: null }, o: { enum: [{ a: 1 }, [1]] } }),
  ],
  [
    "formats",
    closed({
      e: { type: "string", format: "email" },
      d: { type: "string", format: "date-time" },
      u: { type: "string", format: "uri" },
      i: { type: "string", format: "int32" },
    }),
  ],
  [
    "unique items, scalar and deep",
    closed({
      s: { type: "array", items: { type: "string" }, uniqueItems: true },
      o: { type: "array", items: closed({ a: { type: "number" } }), uniqueItems: true },
    }),
  ],
  [
    "a tuple with a rest",
    {
      type: "array",
      prefixItems: [{ type: "string" }, closed({ a: { type: "number" } })],
      unevaluatedItems: { type: "boolean" },
      minItems: 2,
    },
  ],
  [
    "a record with declared keys",
    { type: "object", properties: { id: { type: "string" } }, additionalProperties: closed({ n: { type: "number" } }) },
  ],
  // Keys for one pattern are drawn outside the others (a value drawn for one need not fit another's schema): overlapping, not nested.
  [
    "pattern properties",
    {
      type: "object",
      patternProperties: { "^x-": { type: "number" }, n$: { type: "integer" } },
      additionalProperties: false,
    },
  ],
  [
    "a discriminated union",
    {
      anyOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/B" }],
      $defs: {
        A: closed({ kind: { const: "a" }, a: { type: "number" } }, ["kind", "a"]),
        B: closed({ kind: { const: "b" }, b: { type: "string" } }, ["kind", "b"]),
      },
    },
  ],
  [
    "nested unions",
    {
      anyOf: [
        { anyOf: [closed({ a: { type: "number" } }, ["a"]), { type: "string" }] },
        closed({ b: { type: "number" } }, ["b"]),
      ],
    },
  ],
  [
    "a recursive tree",
    {
      $ref: "#/$defs/Node",
      $defs: {
        Node: closed({ name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, [
          "name",
        ]),
      },
    },
  ],
  ["a reference to the root", closed({ next: { anyOf: [{ $ref: "#" }, { type: "null" }] }, v: { type: "integer" } })],
];

/** Values on which the checker and Ajv differ by design (see above). */
function comparable(value: unknown): boolean {
  if (typeof value === "number") return !Number.isInteger(value) || Number.isSafeInteger(value);
  if (value !== null && typeof value === "object") return Object.values(value).every(comparable);
  return true;
}

function sameAsAjv(schema: JsonSchema, value: Json): void {
  if (!comparable(value)) return;
  const found = validatorOf(schema).validate(value);
  if (found.total > LISTED_ISSUES) return;
  const checked = found.total === 0 ? undefined : validationMessage("T", found);
  const expected = ajvMessage(schema, "T", value);
  if (checked !== expected) throw new Error(`for ${JSON.stringify(value)}:\nthe checker: ${checked}\nAjv: ${expected}`);
}

function generated(schema: JsonSchema): fc.Arbitrary<Json> {
  const arbitraries: fc.Arbitrary<Json>[] = [anyJson(3)];
  try {
    arbitraries.push(
      valuesOf(schema, schema),
      mutantsOf(schema, schema, "broad").map((mutant) => (mutant ? mutant.value : null)),
    );
  } catch {
    // a schema the generators do not cover: any JSON still goes
  }
  return fc.oneof(...arbitraries);
}

const cases: [string, JsonSchema][] = [...publishedSchemas(FIXTURES_OUT, ["inputSchema", "outputSchema"]), ...WRITTEN];

test("code is generated for every schema the fixtures publish but a record or an open object at the root", () => {
  const published = publishedSchemas(FIXTURES_OUT, ["inputSchema", "outputSchema"]);
  const left = published.filter(([, schema]) => {
    const compiler = new SchemaCompiler(schema);
    return !generateCopy(schema, compiler) || !generateCheck(schema, compiler);
  });
  // The tests below compare the generated code with the closures wherever it is made: here, nearly everywhere.
  expect(published.length - left.length).toBeGreaterThan(400);
  const record = (schema: JsonSchema) =>
    schema.properties === undefined ||
    schema.patternProperties !== undefined ||
    (schema.additionalProperties !== undefined && schema.additionalProperties !== false);
  expect(left.filter(([, schema]) => !record(schema)).map(([name]) => name)).toEqual([]);
});

describe.each(cases)("%s", (_, schema) => {
  test("the checker's verdict and message are Ajv's", () => {
    fc.assert(
      fc.property(generated(schema), (value) => sameAsAjv(schema, value)),
      { seed: SEED, numRuns: 150 },
    );
  });

  test("the wire copy of a valid value is the value", () => {
    let values: fc.Arbitrary<Json>;
    try {
      values = valuesOf(schema, schema);
    } catch {
      return; // a schema the generator does not cover
    }
    fc.assert(
      fc.property(values, (value) => {
        if (!comparable(value) || ajvMessage(schema, "T", value) !== undefined) return;
        expect(validatorOf(schema).wireCopy(value)).toEqual({ value, issues: [], total: 0 });
      }),
      { seed: SEED, numRuns: 60 },
    );
  });

  test("the generated copy is the closures' for every valid value, and leaves every invalid one to them", () => {
    const compiler = new SchemaCompiler(schema);
    const fast = generateCopy(schema, compiler);
    const closures = compileValidator(schema, Infinity);
    fc.assert(
      fc.property(generated(schema), (value) => {
        let copied;
        try {
          copied = closures.wireCopy(value);
        } catch (error) {
          if (!(error instanceof WireError)) throw error;
          expect(fast?.(value) ?? MISS).toBe(MISS);
          return;
        }
        if (!fast) return;
        const out = fast(value);
        if (copied.total > 0) expect(out).toBe(MISS);
        else expect(out).toStrictEqual(copied.value); // never MISS: a valid JSON value is the common case
      }),
      { seed: SEED, numRuns: 150 },
    );
  });

  test("the generated check takes every valid value, and leaves every invalid one to the closures", () => {
    const compiler = new SchemaCompiler(schema);
    const fast = generateCheck(schema, compiler);
    if (!fast) return;
    const closures = compileValidator(schema, Infinity);
    fc.assert(
      fc.property(generated(schema), (value) => {
        expect(fast(value)).toBe(closures.validate(value).total === 0 ? value : MISS);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
