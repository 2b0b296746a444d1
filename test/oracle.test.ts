/**
 * The type-checker oracle. For every echo tool of the type fixtures (fixtures/type_*) and many
 * JSON values v (drawn from its input schema, mutations of those, the same with the numbers in
 * their strings and keys spelled otherwise, arbitrary JSON), two verdicts must agree:
 *
 *   the schema accepts v       Ajv 2020-12 with ajv-formats, as the runtime validates,
 *                              on the tool's arguments {"value": v}
 *   TypeScript accepts v       `const x: Wire<T> = <v>;` type-checks (test/support/ts-oracle.ts),
 *                              all pairs in one program
 *
 * Every disagreement is a bug in the schema typemcp publishes for T. Known ones are listed in
 * test/support/known-disagreements.ts; any other fails this suite, printed in full. The seed is
 * fixed, so a run draws the same values every time. The whole report, every pair included, is
 * written to .build/oracle/report.json.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { anyJson, mutantsOf, numberEdgesOf, valuesOf, type Json } from "./support/json-arbitraries";
import { KNOWN_DISAGREEMENTS, knownDisagreement, type Direction } from "./support/known-disagreements";
import { literal, ORACLE_DIR, TypeScriptOracle } from "./support/ts-oracle";
import {
  connectTypeFixtures,
  typeFixtureModules,
  valueSchema,
  type ConnectedFixtures,
  type ServedTool,
} from "./support/type-fixtures";

const SEED = 20260102;
/** Per type: values drawn from the schema, mutations of such values, arbitrary JSON values. */
const FROM_SCHEMA = 25;
const MUTANTS = 45;
const ARBITRARY = 12;
/** Of the values drawn from the schema, how many are also tried with each number in them spelled otherwise. */
const WITH_NUMBER_EDGES = 2;
const MIN_PAIRS = 4000;

interface Pair {
  tool: ServedTool;
  value: Json;
  origin: "schema" | "mutant" | "number edge" | "arbitrary" | "known example";
  schema: boolean;
  typescript: boolean;
  /** TypeScript's reason, when it refuses. */
  reason?: string;
}

let fixtures: ConnectedFixtures;
let pairs: Pair[] = [];

beforeAll(async () => {
  const modules = typeFixtureModules();
  fixtures = await connectTypeFixtures(modules);
  const drawn: { tool: ServedTool; value: Json; origin: Pair["origin"] }[] = [];
  fixtures.tools.forEach((tool, i) => {
    const { schema, root } = valueSchema(tool);
    const seed = SEED + i;
    const seen = new Set<string>();
    const add = (value: Json, origin: Pair["origin"]) => {
      const key = JSON.stringify(value);
      if (seen.has(key)) return;
      seen.add(key);
      drawn.push({ tool, value, origin });
    };
    const values = fc.sample(valuesOf(schema, root), { seed, numRuns: FROM_SCHEMA });
    for (const value of values) add(value, "schema");
    for (const value of values.slice(0, WITH_NUMBER_EDGES))
      for (const edge of numberEdgesOf(value)) add(edge, "number edge");
    for (const mutant of fc.sample(mutantsOf(schema, root, "broad"), { seed, numRuns: MUTANTS }))
      if (mutant) add(mutant.value, "mutant");
    for (const value of fc.sample(anyJson(3), { seed, numRuns: ARBITRARY })) add(value, "arbitrary");
    for (const known of KNOWN_DISAGREEMENTS) if (known.tool === tool.id) add(known.example as Json, "known example");
  });

  const verdicts = new TypeScriptOracle(modules).judge(drawn, "oracle");
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validators = new Map(fixtures.tools.map((t) => [t, ajv.compile(t.inputSchema)]));
  pairs = drawn.map((d, i) => ({
    ...d,
    schema: validators.get(d.tool)!({ value: d.value }) === true,
    typescript: verdicts[i].accepted,
    reason: verdicts[i].reason,
  }));
  fs.writeFileSync(
    path.join(ORACLE_DIR, "report.json"),
    JSON.stringify(
      pairs.map((p) => ({
        tool: p.tool.id,
        type: p.tool.type,
        value: p.value,
        origin: p.origin,
        schema: p.schema,
        typescript: p.typescript,
        reason: p.reason,
      })),
      null,
      1,
    ),
  );
});

afterAll(async () => {
  await fixtures?.close();
});

function direction(pair: Pair): Direction {
  return pair.schema ? "schema accepts, TypeScript rejects" : "schema rejects, TypeScript accepts";
}

function describePair(pair: Pair): string {
  const because = pair.reason ? `\n      TypeScript: ${pair.reason}` : "";
  return `${pair.tool.id} (${pair.tool.type}) ${literal(pair.value)}: ${direction(pair)} [${pair.origin}]${because}`;
}

test(`at least ${MIN_PAIRS} (value, type) pairs, over every echo tool of the type fixtures`, () => {
  expect(fixtures.failures).toEqual([]);
  expect(fixtures.tools.map((t) => t.id)).toEqual(typeFixtureModules().flatMap((m) => m.tools.map((t) => t.id)));
  expect(pairs.length).toBeGreaterThanOrEqual(MIN_PAIRS);
});

test("the schema accepts a JSON value exactly when TypeScript does", () => {
  const disagreements = pairs.filter((p) => p.schema !== p.typescript);
  const unexpected = disagreements.filter((p) => !knownDisagreement(p.tool.id, direction(p)));
  const rate = ((100 * (pairs.length - disagreements.length)) / pairs.length).toFixed(2);
  const lines = [
    `agreement: ${pairs.length - disagreements.length} of ${pairs.length} pairs (${rate}%), ${fixtures.tools.length} types`,
  ];
  for (const known of KNOWN_DISAGREEMENTS) {
    const hits = disagreements.filter((p) => p.tool.id === known.tool && direction(p) === known.direction);
    lines.push(`known: ${known.tool}, ${known.direction} (${known.reason}): ${hits.length} pairs`);
    for (const hit of hits) lines.push(`    ${literal(hit.value)}${hit.reason ? `  — ${hit.reason}` : ""}`);
  }
  if (unexpected.length)
    lines.push(`UNEXPECTED (${unexpected.length}):`, ...unexpected.map((p) => `  ${describePair(p)}`));
  console.log(lines.join("\n"));
  expect(unexpected.map(describePair)).toEqual([]);
});

test("every known disagreement still happens on its example (remove the entries the transformer now gets right)", () => {
  const stale = KNOWN_DISAGREEMENTS.filter((k) => {
    const example = pairs.find((p) => p.tool.id === k.tool && JSON.stringify(p.value) === JSON.stringify(k.example));
    return !example || example.schema === example.typescript || direction(example) !== k.direction;
  });
  expect(stale).toEqual([]);
});

/**
 * The oracle itself, on values whose verdict is known: TypeScript's rules where they are
 * subtle, the JSON form of what is not JSON in TypeScript, and the tags.
 */
const HAND_PICKED: [tool: string, value: Json, accepted: boolean][] = [
  ["type_primitives/echo_integer", 2, true],
  ["type_primitives/echo_integer", 1.5, false],
  ["type_arrays/echo_matrix", [[1], [2, -3]], true],
  ["type_arrays/echo_matrix", [[1], [2.5]], false],
  ["type_arrays/echo_flagged", ["a", true, 1.5], false],
  ["type_to_json/echo_date", "2026-01-02T03:04:05.000Z", true],
  ["type_to_json/echo_date", "yesterday", false],
  ["type_to_json/echo_meeting", { title: "t", at: "soon" }, false],
  ["type_to_json/echo_money", "12.00 EUR", true],
  ["type_to_json/echo_money", { cents: 1200 }, false],
  ["type_to_json/echo_temperature", { celsius: 10, fahrenheit: 50 }, true],
  ["type_to_json/echo_counter", 3, true],
  ["type_to_json/echo_counter", 3.5, false],
  ["type_enums/echo_color", "red", true],
  ["type_enums/echo_color", "Red", false],
  ["type_enums/echo_level", 2, true],
  ["type_enums/echo_level", 3, false],
  ["type_enums/echo_answer", "yes", true],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0 }, true],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0, summary: "s" }, false],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0, label: "s" }, false],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0, secret: "s" }, false],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0, deposit: 1 }, false],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0, internal: 1 }, false],
  ["type_classes/echo_account", { id: "1", owner: "Ada", balance: 0, count: 1 }, false],
  ["type_classes/echo_labelled_point", { x: 1, y: 2, label: "a" }, true],
  ["type_classes/echo_labelled_point", { x: 1, y: 2, label: "a", norm: 1 }, false],
  ["type_functions_any/echo_button", { label: "ok" }, true],
  ["type_functions_any/echo_button", { label: "ok", onClick: 1 }, false],
  ["type_optional/echo_profile", { name: "Ada" }, true],
  ["type_optional/echo_profile", { name: "Ada", age: null }, false],
  ["type_functions_any/echo_envelope", { kind: "k" }, true],
  ["type_optional/echo_settings", {}, true],
  ["type_optional/echo_settings", 3, false],
  ["type_optional/echo_settings", [], false],
  ["type_unions/echo_shape", { kind: "circle", radius: 1, side: 2 }, false],
  ["type_unions/echo_contact", { email: "a@b", phone: "1" }, true],
  ["type_unions/echo_contact", { email: "a@b", fax: "1" }, false],
  ["type_arrays/echo_series", ["a", 1, 2], true],
  ["type_arrays/echo_series", [3], false],
  ["type_arrays/echo_labelled", ["a", null], false],
  ["type_arrays/echo_empty", [], true],
  ["type_arrays/echo_empty", [1], false],
  ["type_interfaces/echo_tree", { value: 1, children: [{ value: 2, children: [], extra: 1 }] }, false],
  ["type_interfaces/echo_json", { a: [1, { b: null }] }, true],
  ["type_interfaces/echo_pending", 1, true],
  ["type_interfaces/echo_pending", { any: ["thing"] }, true],
  ["type_interfaces/echo_pending", null, false],
  ["type_interfaces/echo_tagged", { label: "a", meta: "x" }, true],
  ["type_interfaces/echo_tagged", { label: "a", meta: {}, extra: 1 }, false],
  ["type_intersections/echo_picky_container", { a: { foo: 1 } }, true],
  ["type_intersections/echo_picky_container", { a: 1 }, false],
  ["type_intersections/echo_mixed_record", { k: 1 }, true],
  ["type_intersections/echo_mixed_record", { k: "s" }, false],
  ["type_records/echo_by_hour", { "1": { celsius: 1 }, "-2.5": { celsius: 2 } }, true],
  ["type_records/echo_by_hour", { "01": { celsius: 1 } }, false],
  ["type_records/echo_by_hour", { "5e+6": { celsius: 1 } }, false],
  ["type_records/echo_data_attributes", { data_x: 1 }, true],
  ["type_records/echo_data_attributes", { x: 1 }, false],
  ["type_template_literals/echo_user_id", "user_0x1F", true],
  ["type_template_literals/echo_user_id", "user_ 1", true],
  ["type_template_literals/echo_user_id", "user_Infinity", false],
  ["type_template_literals/echo_user_id", "user_1_000", false],
  ["type_template_literals/echo_version", "v1.2.3", true],
  ["type_template_literals/echo_version", "v.5.1", false],
  ["type_template_literals/echo_toggle", "true", true],
  ["type_functions_any/echo_unknown", [null, { a: 1 }], true],
];

test("the oracle on hand-picked values", () => {
  const byId = new Map(fixtures.tools.map((t) => [t.id, t]));
  const cases = HAND_PICKED.map(([tool, value]) => {
    const served = byId.get(tool);
    if (!served) throw new Error(`no echo tool ${tool}`);
    return { tool: served, value };
  });
  const verdicts = new TypeScriptOracle(typeFixtureModules()).judge(cases, "hand-picked");
  const got = HAND_PICKED.map(([tool, value], i) => [tool, value, verdicts[i].accepted]);
  expect(got).toEqual(HAND_PICKED);
});

/** The fixtures whose types are their own JSON form: no enums, classes, toJSON, functions, properties that admit undefined. */
const SELF_JSON_FIXTURES = [
  "type_primitives",
  "type_unions",
  "type_intersections",
  "type_arrays",
  "type_records",
  "type_template_literals",
  "type_interfaces",
  "type_utility_types",
];

test("Wire<T> is T where T is its own JSON form: the same verdicts, pair by pair", () => {
  const mine = pairs.filter((p, i) => SELF_JSON_FIXTURES.includes(p.tool.fixture) && i % 2 === 0);
  const verdicts = new TypeScriptOracle(typeFixtureModules()).judge(mine, "self-json", { wire: false });
  const differ = mine
    .filter((p, i) => verdicts[i].accepted !== p.typescript)
    .map((p) => `${p.tool.id} ${literal(p.value)}: Wire<T> ${p.typescript}, T ${!p.typescript}`);
  expect(differ).toEqual([]);
  expect(mine.length).toBeGreaterThan(2000);
});

/** The types every JSON value is a value of. */
const ANY_JSON = ["type_functions_any/echo_any", "type_functions_any/echo_unknown", "type_interfaces/echo_json"];

test("every type is tried both ways: values TypeScript accepts, and values it rejects", () => {
  const lopsided: string[] = [];
  for (const tool of fixtures.tools) {
    const mine = pairs.filter((p) => p.tool === tool);
    const accepted = mine.filter((p) => p.typescript).length;
    const rejected = mine.length - accepted;
    if (ANY_JSON.includes(tool.id) ? rejected > 0 : accepted === 0 || rejected === 0)
      lopsided.push(`${tool.id}: ${accepted} accepted, ${rejected} rejected`);
  }
  expect(lopsided).toEqual([]);
  expect(fixtures.tools.filter((t) => ANY_JSON.includes(t.id))).toHaveLength(ANY_JSON.length);
});
