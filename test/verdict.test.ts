/**
 * The walk that answers for a validator not compiled yet (runtime/verdict.ts) against Ajv,
 * which it stands in for: on every input and output schema the fixtures publish and on
 * schemas written for its corners, for values of the schema, mutations of them and any JSON,
 * its verdict is Ajv's, or undefined (then Ajv is asked). A walk that accepted what Ajv
 * rejects would let an invalid value through on a tool's first call.
 *
 * Then: the walk answers for the shapes most tools have (else the first call waits for Ajv
 * again without a failing test), and a form accepts without compiling, compiles in the next
 * idle turn, and leaves every rejection to Ajv.
 */
import fc from "fast-check";
import { compiledForm } from "../runtime/validation";
import type { ValidateFunction } from "ajv/dist/2020";
import { boundedErrors } from "../runtime/errors";
import { verdictOf } from "../runtime/verdict";
import * as wire from "../runtime/wire";
import { anyJson, mutantsOf, valuesOf, type Json } from "./support/json-arbitraries";
import { publishedSchemas } from "./support/emitted-contracts";
import { FIXTURES_OUT } from "./support/fixtures";

type JsonSchema = { [keyword: string]: unknown };

const SEED = 20_261_203;

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({ type: "object", properties, required, additionalProperties: false });

/** Schemas for the walk's corners, each with values that reach them. */
const WRITTEN: [string, JsonSchema, unknown[]][] = [
  ["bounds", closed({ a: { type: "integer", minimum: 1, maximum: 3 }, b: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 } }), [{ a: 1, b: 0.5 }, { a: 0 }, { a: 3.5 }, { b: 0 }, { b: 1 }, { a: 2, b: 1e-9 }]],
  ["lengths in code points", { type: "string", minLength: 2, maxLength: 3 }, ["ab", "a", "abcd", "😀😀", "😀", "😀😀😀😀", "\ud800", "\ud800\ud800", "a\udc00"]],
  ["a pattern, read with the u flag", { type: "string", pattern: "^.$" }, ["a", "😀", "ab", "", "\n"]],
  ["enum and const", closed({ e: { enum: ["x", 1, null, true] }, c: { const: "k" }, n: { const: null } }), [{ e: "x" }, { e: 1 }, { e: null }, { e: "1" }, { e: [] }, { c: "k" }, { c: "K" }, { n: null }, { n: 0 }]],
  ["an enum of objects", { enum: [{ a: 1 }, 2] }, [{ a: 1 }, 2, 3]],
  ["required and undefined", closed({ a: { type: "string" }, b: { type: "number" } }, ["a"]), [{ a: "x" }, {}, { a: undefined }, { b: 1 }, { a: "x", c: 1 }]],
  ["a tuple, closed", { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 1 }, [["a", 1], ["a"], [], ["a", 1, 2], [1, "a"], ["a", undefined]]],
  ["a list with bounds", { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 }, [[1], [], [1, 2, 3], [1.5], [1, "2"]]],
  ["a record", { type: "object", additionalProperties: { type: "number" }, minProperties: 1, maxProperties: 2 }, [{ a: 1 }, {}, { a: 1, b: 2, c: 3 }, { a: "1" }, { a: undefined }]],
  ["a list of types", { type: ["string", "null"] }, ["a", null, 1, {}, []]],
  ["references, to $defs and to the root", closed({ v: { type: "integer" }, next: { anyOf: [{ $ref: "#" }, { type: "null" }] }, d: { $ref: "#/$defs/D" } }), [{ v: 1, next: { v: 2, next: null } }, { v: 1, next: { v: 1.5 } }, { d: "x" }, { d: 1 }]],
  ["a union with a branch only Ajv knows", { anyOf: [{ type: "string", format: "email" }, { type: "number" }] }, ["a@b.c", "nope", 1, null]],
  ["keywords only Ajv knows", { type: "array", uniqueItems: true, items: { type: "number", multipleOf: 0.1 } }, [[0.3], [1, 1], []]],
  ["a reference that leads nowhere", closed({ a: { $ref: "#/definitions/X" } }), [{ a: 1 }, {}]],
  ["not JSON", { type: "object", properties: { n: { type: "number" } } }, [{ n: NaN }, { n: Infinity }, { n: 1n }, { f: () => 1 }, new Date(0), Symbol("s")]],
];
(WRITTEN[10][1] as JsonSchema).$defs = { D: { type: "string" } };

/** The walk's verdict as the runtime asks for it: on the schema's validation form (no titles, no descriptions). */
const walked = (schema: JsonSchema, value: unknown) => verdictOf(compiledForm(schema).form, value);

function sameAsAjv(schema: JsonSchema, value: unknown): void {
  const verdict = walked(schema, value);
  if (verdict === undefined) return;
  const ajv = compiledForm(schema).validate(value) === true;
  if (verdict !== ajv) throw new Error(`the walk says ${verdict}, Ajv ${ajv}, for ${String(JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v)))}`);
}

function generated(schema: JsonSchema): fc.Arbitrary<Json> {
  const arbitraries: fc.Arbitrary<Json>[] = [anyJson(3)];
  try {
    arbitraries.push(valuesOf(schema, schema), mutantsOf(schema, schema, "broad").map((mutant) => (mutant ? mutant.value : null)));
  } catch {
    // a schema the generators do not cover: any JSON still goes
  }
  return fc.oneof(...arbitraries);
}

describe.each(publishedSchemas(FIXTURES_OUT, ["inputSchema", "outputSchema"]))("%s", (_, schema) => {
  test("the walk's verdict is Ajv's, or it leaves the value to Ajv", () => {
    fc.assert(fc.property(generated(schema), (value) => sameAsAjv(schema, value)), { seed: SEED, numRuns: 150 });
  });
});

describe.each(WRITTEN)("%s", (_, schema, values) => {
  test("the walk's verdict is Ajv's, or it leaves the value to Ajv", () => {
    for (const value of values) sameAsAjv(schema, value);
    fc.assert(fc.property(generated(schema), (value) => sameAsAjv(schema, value)), { seed: SEED, numRuns: 150 });
  });
});

test("the walk answers for the corners it knows, and leaves formats, uniqueItems and broken references to Ajv", () => {
  const verdicts = Object.fromEntries(WRITTEN.map(([name, schema, values]) => [name, values.map((value) => walked(schema, value))]));
  expect(verdicts).toEqual({
    bounds: [true, false, false, false, false, true],
    "lengths in code points": [true, false, false, true, false, false, false, true, true],
    "a pattern, read with the u flag": [true, true, false, false, false],
    "enum and const": [true, true, true, false, false, true, false, true, false],
    "an enum of objects": [undefined, undefined, undefined],
    "required and undefined": [true, false, false, false, false],
    "a tuple, closed": [true, true, false, false, false, undefined],
    "a list with bounds": [true, false, false, false, false],
    "a record": [true, false, false, false, undefined],
    "a list of types": [true, true, false, false, false],
    "references, to $defs and to the root": [true, false, true, false],
    "a union with a branch only Ajv knows": [undefined, undefined, true, undefined],
    "keywords only Ajv knows": [undefined, undefined, undefined],
    "a reference that leads nowhere": [undefined, undefined],
    "not JSON": [undefined, undefined, undefined, true, true, undefined],
  });
});

// The values come from the schemas' generator, which leaves out some bounds: true or false, the walk answers (and the tests above hold its answers to Ajv's).
test("the walk answers for every value of the fixtures' schemas that have no format, pattern property or uniqueItems", () => {
  const KNOWN_ONLY = /"(format|patternProperties|uniqueItems|multipleOf|propertyNames|unevaluatedItems|unevaluatedProperties|not|allOf|oneOf)"/;
  const plain = publishedSchemas(FIXTURES_OUT, ["inputSchema", "outputSchema"]).filter(([, schema]) => !KNOWN_ONLY.test(JSON.stringify(schema)));
  expect(plain.length).toBeGreaterThan(20);
  for (const [name, schema] of plain) {
    for (const value of fc.sample(valuesOf(schema, schema), { seed: SEED, numRuns: 20 })) {
      expect([name, typeof walked(schema, value)]).toEqual([name, "boolean"]);
    }
  }
});

describe("a validation form before its validator is compiled", () => {
  const notCompiled = (form: object) => (form as unknown as { whole?: unknown }).whole === undefined;
  const idleTurn = () => new Promise((resolve) => setImmediate(resolve));

  test("accepts a valid value without compiling, then compiles in the next idle turn", async () => {
    const form = compiledForm(closed({ id: { type: "string", minLength: 1 }, n: { type: "integer" } }, ["id"]));
    expect(notCompiled(form)).toBe(true);
    expect(form.accepts({ id: "a", n: 2 })).toBe(true);
    expect(notCompiled(form)).toBe(true);
    await idleTurn();
    expect(notCompiled(form)).toBe(false);
    expect(form.accepts({ id: "a", n: 2 })).toBe(true);
  });

  test("a call the walk accepts needs no Ajv: the form is given to Ajv with its first validator", async () => {
    const form = compiledForm(closed({ unseen: { type: "boolean" } }, ["unseen"]));
    const added = () => (form as unknown as { added: boolean }).added;
    expect(form.accepts({ unseen: true })).toBe(true);
    expect(added()).toBe(false);
    await idleTurn();
    expect(added()).toBe(true);
  });

  test("projects a result with the interpreter until the projector is compiled, in the next idle turn", async () => {
    const form = compiledForm(closed({ at: { type: "string" }, tags: { type: "array", items: { type: "string" } } }, ["at"]));
    const projector = () => (form as unknown as { projector?: unknown }).projector;
    const value = { at: new Date(0), tags: ["a"], secret: 1 };
    const interpreter = jest.spyOn(wire, "toWire");
    try {
      expect(form.project(value)).toEqual({ at: "1970-01-01T00:00:00.000Z", tags: ["a"] });
      expect(interpreter).toHaveBeenCalledTimes(1);
      expect(projector()).toBeUndefined();
      await idleTurn();
      expect(projector()).toBeDefined();
      expect(form.project(value)).toEqual({ at: "1970-01-01T00:00:00.000Z", tags: ["a"] });
      expect(interpreter).toHaveBeenCalledTimes(1);
    } finally {
      interpreter.mockRestore();
    }
  });

  test("without an idle turn, the projector is compiled after 16 answers given without compiled code", () => {
    const form = compiledForm(closed({ burst2: { type: "number" } }, ["burst2"]));
    const projector = () => (form as unknown as { projector?: unknown }).projector;
    for (let call = 1; call <= 8; call++) expect([call, form.accepts({ burst2: call }), form.project({ burst2: call }), projector()]).toEqual([call, true, { burst2: call }, undefined]);
    expect(form.project({ burst2: 9 })).toEqual({ burst2: 9 });
    expect(projector()).toBeDefined();
  });

  test("without an idle turn, compiles once the walk has answered 16 times", () => {
    const form = compiledForm(closed({ burst: { type: "string" } }, ["burst"]));
    for (let call = 1; call <= 16; call++) expect([call, form.accepts({ burst: "x" }), notCompiled(form)]).toEqual([call, true, true]);
    expect(form.accepts({ burst: "x" })).toBe(true);
    expect(notCompiled(form)).toBe(false);
  });

  test("leaves a rejection to Ajv, whose errors say why", () => {
    const form = compiledForm(closed({ id2: { type: "string" } }, ["id2"]));
    expect(form.accepts({ id2: 7 })).toBe(false);
    expect(notCompiled(form)).toBe(false);
    expect(form.validate.errors?.map((e) => [e.instancePath, e.keyword])).toEqual([["/id2", "type"]]);
  });

  test("picks a union's branch by the walk, and compiles the branch validators in the next idle turn", async () => {
    const form = compiledForm({ anyOf: [closed({ kind: { const: "x" } }, ["kind"]), closed({ kind: { const: "y" }, y: { type: "number" } }, ["kind", "y"])] });
    const parts = (form as unknown as { parts: Map<string, unknown> }).parts;
    expect(form.toWire({ kind: "y", y: 1, extra: true })).toEqual({ kind: "y", y: 1 });
    expect(parts.size).toBe(0);
    await idleTurn();
    expect([...parts.keys()].sort()).toEqual(["/anyOf/0", "/anyOf/1"]);
    expect(form.toWire({ kind: "y", y: 2 })).toEqual({ kind: "y", y: 2 });
  });
});

describe("the bounded walk that finds a large value's errors (runtime/errors.ts)", () => {
  /**
   * The errors as a message names them, in order: where, and which keyword. The walk reports a
   * union no branch fits as one error; Ajv adds the branches' errors before it (unions inside
   * them included): those at or below its place are left out.
   */
  const named = (errors: { instancePath: string; keyword: string }[]) => {
    const under = (path: string, at: string) => path === at || path.startsWith(`${at}/`);
    const inside = (j: number) => errors.some((union, k) => k > j && union.keyword === "anyOf" && under(errors[j].instancePath, union.instancePath));
    return errors.filter((_, j) => !inside(j)).map((e) => `${e.instancePath} ${e.keyword}`);
  };

  test("finds the errors Ajv finds with allErrors, in Ajv's order, on every fixture schema and on the walk's corners", () => {
    // Where a schema has a keyword the walk leaves to Ajv (a format, uniqueItems), that part gets Ajv's first error only: not compared.
    const ASKED_OF_AJV = /"(format|uniqueItems|propertyNames|unevaluatedItems|unevaluatedProperties|not|allOf|oneOf|contains)"/;
    const schemas = [...publishedSchemas(FIXTURES_OUT, ["inputSchema", "outputSchema"]), ...WRITTEN.map(([name, schema]) => [name, schema] as [string, JsonSchema])].filter(
      ([, schema]) => !ASKED_OF_AJV.test(JSON.stringify(schema)),
    );
    let compared = 0;
    for (const [name, schema] of schemas) {
      const form = compiledForm(schema);
      const values = [...fc.sample(generated(schema), { seed: SEED, numRuns: 12 }), ...(WRITTEN.find(([n]) => n === name)?.[2] ?? [])];
      for (const value of values) {
        // As values come to a validator: JSON (the walk's corners include what JSON cannot carry).
        let json: unknown;
        try {
          json = JSON.parse(JSON.stringify(value) ?? "undefined");
        } catch {
          continue;
        }
        let valid: boolean;
        try {
          valid = form.validate(json) === true;
        } catch {
          continue; // a schema Ajv cannot compile (a reference that leads nowhere): no errors to compare
        }
        if (valid) {
          // Nothing to find in a valid value.
          expect([name, json, boundedErrors(form.form, json, 1000, (pointer) => (form as unknown as { validatorAt(p: string): ValidateFunction }).validatorAt(pointer)).total]).toEqual([name, json, 0]);
          continue;
        }
        const ajv = form.errorsOf(json);
        const walked = boundedErrors(form.form, json, 1000, (pointer) => (form as unknown as { validatorAt(p: string): ValidateFunction }).validatorAt(pointer));
        expect([name, json, named(walked.errors)]).toEqual([name, json, named(ajv.errors)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });
});
