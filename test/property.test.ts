/**
 * Property tests over every echo tool of the type fixtures (fixtures/type_*), through the
 * official SDK client over InMemoryTransport, so through the server's own validation:
 *
 * - values of the type go through, and come back exactly: structuredContent is the value
 *   (or `{"result": value}` where typemcp wraps);
 * - mutated values are refused with a validation error: a JSON type the schema does not admit,
 *   a missing required key, an extra key in a closed object, a value outside its enum, a tuple
 *   too long or too short, a fraction for an Integer, a string that is no date-time.
 *
 * Values are drawn from the published schema, so TypeScript decides whether they are what the
 * test says they are: every drawn value must be a value of the type and every mutant must not
 * (test/support/ts-oracle.ts, all of them in one program). Where the schema is known to be wrong,
 * test/support/known-disagreements.ts says so; anything else fails, printed in full.
 *
 * fast-check runs with a fixed seed: `fc.assert` draws the same values as `fc.sample` with that
 * seed and run count, which is what TypeScript judges (each test checks it saw those values).
 */
import fc from "fast-check";
import { mutantsOf, valuesOf, type Json, type Mutant } from "./support/json-arbitraries";
import { knownDisagreement, type Direction } from "./support/known-disagreements";
import { literal, TypeScriptOracle, type Judgement } from "./support/ts-oracle";
import {
  connectTypeFixtures,
  typeFixtureModules,
  valueSchema,
  type ConnectedFixtures,
  type EchoTool,
  type ServedTool,
} from "./support/type-fixtures";

const SEED = 7_340_033;
const RUNS = 30;

/** The types every JSON value is a value of: nothing to mutate. */
const ANY_JSON = ["type_functions_any/echo_any", "type_functions_any/echo_unknown", "type_interfaces/echo_json"];

const modules = typeFixtureModules();
const echoTools = modules.flatMap((m) => m.tools);

interface Drawn {
  values: Json[];
  mutants: (Mutant | undefined)[];
  valueVerdicts: Judgement[];
  mutantVerdicts: Judgement[];
}

let fixtures: ConnectedFixtures;
const served = new Map<string, ServedTool>();
const drawn = new Map<string, Drawn>();

function seedOf(tool: EchoTool): number {
  return SEED + echoTools.findIndex((t) => t.id === tool.id);
}

beforeAll(async () => {
  fixtures = await connectTypeFixtures(modules);
  for (const tool of fixtures.tools) served.set(tool.id, tool);
  const cases: { tool: ServedTool; value: unknown }[] = [];
  for (const tool of fixtures.tools) {
    const { schema, root } = valueSchema(tool);
    const seed = seedOf(tool);
    const values = fc.sample(valuesOf(schema, root), { seed, numRuns: RUNS });
    const mutants = ANY_JSON.includes(tool.id)
      ? []
      : fc.sample(mutantsOf(schema, root, "strict"), { seed, numRuns: RUNS });
    drawn.set(tool.id, { values, mutants, valueVerdicts: [], mutantVerdicts: [] });
    for (const value of values) cases.push({ tool, value });
    for (const mutant of mutants) if (mutant) cases.push({ tool, value: mutant.value });
  }
  const verdicts = new TypeScriptOracle(modules).judge(cases, "property");
  let i = 0;
  for (const tool of fixtures.tools) {
    const d = drawn.get(tool.id)!;
    d.valueVerdicts = d.values.map(() => verdicts[i++]);
    d.mutantVerdicts = d.mutants.map((m) => (m ? verdicts[i++] : { accepted: false }));
  }
});

afterAll(async () => {
  await fixtures?.close();
});

function servedTool(id: string): ServedTool {
  const tool = served.get(id);
  if (!tool) throw new Error(`${id} is not served: ${JSON.stringify(fixtures.failures)}`);
  return tool;
}

/** The first text block of a tool result ("" when there is none). */
function text(result: unknown): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return first?.type === "text" ? (first.text ?? "") : "";
}

test("every echo tool is served", () => {
  expect(fixtures.failures).toEqual([]);
  expect(fixtures.tools.map((t) => t.id)).toEqual(echoTools.map((t) => t.id));
});

describe.each(echoTools.map((t) => ({ id: t.id, type: t.type })))("$id ($type)", ({ id }) => {
  test("values of the type go through and come back exactly", async () => {
    const tool = servedTool(id);
    const { schema, root } = valueSchema(tool);
    const seen: Json[] = [];
    await fc.assert(
      fc.asyncProperty(valuesOf(schema, root), async (value) => {
        seen.push(value);
        const result = await tool.client.callTool({ name: tool.tool, arguments: { value } });
        // The value and the answer's text ride along, so that a failure shows what was refused and why.
        expect({ value, isError: result.isError, text: text(result) }).toEqual({
          value,
          isError: undefined,
          text: expect.any(String),
        });
        const expected = tool.outputSchema === undefined ? undefined : tool.wrapped ? { result: value } : value;
        expect(result.structuredContent).toEqual(expected);
      }),
      { seed: seedOf(tool), numRuns: RUNS },
    );
    expect(seen).toEqual(drawn.get(id)!.values);
  });

  test("mutated values are refused with a validation error", async () => {
    const tool = servedTool(id);
    const { schema, root } = valueSchema(tool);
    if (ANY_JSON.includes(id)) return; // no JSON value is outside the type: see the last test

    const seen: Json[] = [];
    const refusal = new RegExp(
      `^Error executing tool ${tool.tool}: \\d+ validation errors? for ${tool.tool}Arguments\\n`,
    );
    await fc.assert(
      fc.asyncProperty(mutantsOf(schema, root, "strict"), async (mutant) => {
        expect(mutant).toBeDefined(); // every value of a type that not all JSON is has something to mutate
        const { value, mutation } = mutant!;
        seen.push(value);
        const result = await tool.client.callTool({ name: tool.tool, arguments: { value } });
        expect([mutation, value, result.isError]).toEqual([mutation, value, true]);
        expect(text(result)).toMatch(refusal);
        expect(result.structuredContent).toBeUndefined();
      }),
      { seed: seedOf(tool), numRuns: RUNS },
    );
    expect(seen).toEqual(drawn.get(id)!.mutants.map((m) => m!.value));
  });
});

test("TypeScript agrees: the drawn values are values of the type, the mutants are not", () => {
  const unexpected: string[] = [];
  const known = new Map<string, number>();
  let judged = 0;
  for (const tool of fixtures.tools) {
    const d = drawn.get(tool.id)!;
    const report = (direction: Direction, value: Json, verdict: Judgement, what: string) => {
      const entry = knownDisagreement(tool.id, direction);
      if (entry) known.set(`${tool.id}: ${direction}`, (known.get(`${tool.id}: ${direction}`) ?? 0) + 1);
      else
        unexpected.push(
          `${tool.id} (${tool.type}) ${literal(value)}: ${direction} [${what}]${verdict.reason ? `\n    TypeScript: ${verdict.reason}` : ""}`,
        );
    };
    d.values.forEach((value, i) => {
      judged++;
      if (!d.valueVerdicts[i].accepted)
        report("schema accepts, TypeScript rejects", value, d.valueVerdicts[i], "drawn from the schema");
    });
    d.mutants.forEach((mutant, i) => {
      if (!mutant) return;
      judged++;
      if (d.mutantVerdicts[i].accepted)
        report("schema rejects, TypeScript accepts", mutant.value, d.mutantVerdicts[i], mutant.mutation);
    });
  }
  const summary = [`${judged} values judged by TypeScript`, ...[...known].map(([k, n]) => `known: ${k}: ${n}`)];
  if (unexpected.length) summary.push(`UNEXPECTED (${unexpected.length}):`, ...unexpected);
  console.log(summary.join("\n"));
  expect(unexpected).toEqual([]);
  expect(judged).toBeGreaterThanOrEqual(echoTools.length * RUNS);
});

test("the types of any JSON value take anything: their schemas admit every JSON type", () => {
  for (const id of ANY_JSON) {
    const tool = servedTool(id);
    const { schema, root } = valueSchema(tool);
    expect([
      id,
      fc.sample(mutantsOf(schema, root, "strict"), { seed: SEED, numRuns: RUNS }).filter((m) => m !== undefined),
    ]).toEqual([id, []]);
  }
});
