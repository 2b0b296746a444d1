/**
 * The build side against every type a codebase can contain: fast-check generates thousands of
 * TypeScript types (test/support/type-arbitraries.ts), each registered twice — as the only
 * parameter of a tool, and as the declared return type of another (`structuredOutput: true`,
 * so that no type goes without a schema silently) — and the transformer runs on them, a few
 * hundred types per program. For every tool, the build must either
 *
 *   - emit a contract whose schemas are valid JSON Schema 2020-12 (Ajv's meta-schema, and what
 *     it cannot see: values JSON has no form for, dangling `$ref`s, required properties an exact
 *     object does not declare, patterns that are no regular expression) and, where the
 *     arguments hold Dates, a Date plan the runtime can follow, or
 *   - report a diagnostic with a location (file and start) inside the tool's declaration,
 *
 * never throw, never report TS93099 (typemcp's own failure), and finish each batch in bounded
 * time. Every registration must carry the contract (`JSON.parse('{"v":2,...}')`). The generated sources
 * must type-check: the transformer is tried on the types the generator means.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import * as ts from "typescript";
import { ROOT } from "./support/build";
import { typeArbitrary, type GeneratedType } from "./support/type-arbitraries";
import { compileTypeBatch, DiagnosticCode, verdictOf, type BatchResult, type ToolOutcome } from "./support/type-batch";

/** Fixed; FUZZ_SEED and FUZZ_TYPES explore further (a failure prints the types it failed on). */
const SEED = Number(process.env.FUZZ_SEED ?? 93_099);
const TYPES = Number(process.env.FUZZ_TYPES ?? 2000);
const PER_PROGRAM = 250;
/** A hang guard, not a measure: a batch takes a few seconds. */
const BATCH_BOUND_MS = PER_PROGRAM * 200;

interface Tally {
  types: number;
  tools: number;
  schema: number;
  diagnostic: number;
  /** Types with a schema in both directions, in neither, in one. */
  bothSchemas: number;
  bothDiagnostics: number;
  mixed: number;
  /** Diagnostic detail lines by their reason (the text after the type). */
  reasons: Record<string, number>;
  /** TS2589 (TypeScript capped an instantiation), which the generator may provoke. */
  capped: number;
  batchMs: number[];
}

const tally: Tally = {
  types: 0,
  tools: 0,
  schema: 0,
  diagnostic: 0,
  bothSchemas: 0,
  bothDiagnostics: 0,
  mixed: 0,
  reasons: {},
  capped: 0,
  batchMs: [],
};
const failures: string[] = [];

function describeType(type: GeneratedType): string {
  return `${type.text}${type.decls.length ? `\n    where ${type.decls.join("\n          ")}` : ""}`;
}

/** A reason without the type it names: "is not JSON-serializable", "has no values", ... */
function reasonOf(detail: string): string {
  const known = [
    "is not JSON-serializable",
    "is sent as {}",
    "is a function, which JSON drops",
    "has no values",
    "is an unresolved type parameter",
    "depends on an unresolved type parameter",
    "has no JSON form typemcp knows",
    "is a class with no declared properties",
    "says nothing about the value's shape",
    "intersects primitives that no value can be",
    "is a tag typemcp does not know",
    "has no exact JSON Schema pattern",
    "is nested too deeply to describe",
    "is too large to describe",
    "spreads a type parameter",
    "has a rest element before other elements",
    "is not a JSON number",
    "whose own toJSON() JSON.stringify does not call",
    "have no exact pattern",
    "cannot be a tool argument",
    "overloaded functions cannot be tools",
    "applies to",
    "takes a",
    "is not a format typemcp validates",
  ];
  return known.find((reason) => detail.includes(reason)) ?? detail.replace(/^.*?: /, "").slice(0, 80);
}

/** Checks one tool of one generated type; returns whether it got a schema (undefined: it failed). */
function checkTool(
  type: GeneratedType,
  outcome: ToolOutcome,
  direction: "input" | "output",
  overloaded: boolean,
): boolean | undefined {
  const verdict = verdictOf(outcome, direction, overloaded);
  if (verdict.kind === "failure") {
    failures.push(`${outcome.fn} (${direction}): ${verdict.why}\n  type: ${describeType(type)}`);
    return undefined;
  }
  if (verdict.kind === "schema") return true;
  for (const message of verdict.messages) {
    const [head, ...details] = message.split("\n");
    for (const line of details.length ? details : [head])
      tally.reasons[reasonOf(line)] = (tally.reasons[reasonOf(line)] ?? 0) + 1;
  }
  return false;
}

function checkBatch(batch: BatchResult): void {
  tally.batchMs.push(batch.ms);
  tally.capped += batch.capped;
  for (const error of batch.compilerErrors) failures.push(`the generator wrote invalid TypeScript: ${error}`);
  for (const d of batch.diagnostics) {
    if (d.code === DiagnosticCode.InternalError)
      failures.push(`TS93099 in the batch: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").slice(0, 2000)}`);
  }
  for (const c of batch.cases) {
    const input = checkTool(c.type, c.in, "input", c.overloaded);
    const output = checkTool(c.type, c.out, "output", false);
    tally.types++;
    for (const got of [input, output]) {
      if (got === undefined) continue;
      tally.tools++;
      if (got) tally.schema++;
      else tally.diagnostic++;
    }
    if (input && output) tally.bothSchemas++;
    else if (input === false && output === false) tally.bothDiagnostics++;
    else if (input !== undefined && output !== undefined) tally.mixed++;
  }
}

const types = fc.sample(typeArbitrary, { seed: SEED, numRuns: TYPES });
const batches = Array.from({ length: Math.ceil(TYPES / PER_PROGRAM) }, (_, i) => i);

describe(`${TYPES} generated types (seed ${SEED}), ${PER_PROGRAM} per program`, () => {
  test.each(batches)(
    "batch %i: every tool gets a valid schema or a located diagnostic, and the transformer never fails",
    (i) => {
      const batch = compileTypeBatch(`fuzz_${i}`, types.slice(i * PER_PROGRAM, (i + 1) * PER_PROGRAM), i * PER_PROGRAM);
      const before = failures.length;
      checkBatch(batch);
      expect(batch.ms).toBeLessThan(BATCH_BOUND_MS);
      expect(failures.slice(before)).toEqual([]);
    },
  );

  afterAll(() => {
    const report = {
      seed: SEED,
      ...tally,
      reasons: Object.fromEntries(Object.entries(tally.reasons).sort((a, b) => b[1] - a[1])),
    };
    const dir = path.join(ROOT, ".build", "fuzz");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "report.json"), JSON.stringify(report, null, 2));
    process.stdout.write(
      `\nfuzz (seed ${SEED}): ${tally.types} types tried, ${tally.tools} tools: ${tally.schema} with a valid schema, ${tally.diagnostic} with a located diagnostic; ` +
        `per type: ${tally.bothSchemas} schema both ways, ${tally.bothDiagnostics} diagnostic both ways, ${tally.mixed} one of each; ` +
        `TypeScript capped ${tally.capped} instantiations (TS2589); ` +
        `batches of ${PER_PROGRAM}: ${tally.batchMs.join(", ")} ms (report: .build/fuzz/report.json)\n`,
    );
  });
});
