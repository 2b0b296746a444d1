/**
 * The build side against every type a codebase can contain: fast-check generates thousands of
 * TypeScript types (test/support/type-arbitraries.ts), each registered twice — as the only
 * parameter of a tool, and as the declared return type of another (`structuredOutput: true`,
 * so that no type goes without a schema silently) — and the transformer runs on them, a few
 * hundred types per program. For every tool, the build must either
 *
 *   - emit a contract whose schemas are valid JSON Schema 2020-12 (Ajv's meta-schema, and what
 *     it cannot see: values JSON has no form for, dangling `$ref`s, required properties an exact
 *     object does not declare, patterns that are no regular expression), or
 *   - report a diagnostic with a location (file and start) inside the tool's declaration,
 *
 * never throw, never report TS93099 (typemcp's own failure), and finish each batch in bounded
 * time. Every registration must carry the contract (`JSON.parse('{"v":1,...}')`). The generated sources
 * must type-check: the transformer is tried on the types the generator means.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import * as ts from "typescript";
import type { ToolContract } from "typemcp";
import { ROOT } from "./support/build";
import { typeArbitrary, type GeneratedType } from "./support/type-arbitraries";
import { compileTypeBatch, compileTypeBatchTs7, DiagnosticCode, verdictOf, type BatchResult, type ToolOutcome } from "./support/type-batch";
import { TS7_DIR } from "./support/ts7";
import { MAX_PROBLEMS } from "../transformer/problems";

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

const tally: Tally = { types: 0, tools: 0, schema: 0, diagnostic: 0, bothSchemas: 0, bothDiagnostics: 0, mixed: 0, reasons: {}, capped: 0, batchMs: [] };
const failures: string[] = [];

function describeType(type: GeneratedType): string {
  return `${type.text}${type.decls.length ? `\n    where ${type.decls.join("\n          ")}` : ""}`;
}

/** A reason without the type it names: "is not JSON-serializable", "has no values", ... */
function reasonOf(detail: string): string {
  const known = [
    "is not JSON-serializable", "is a function, which JSON drops", "has no values", "is an unresolved type parameter", "depends on an unresolved type parameter", "has no JSON form typemcp knows",
    "is a class with no declared properties", "says nothing about the value's shape", "intersects primitives that no value can be", "is a tag typemcp does not know",
    "has no exact JSON Schema pattern", "is nested too deeply to describe", "is too large to describe", "spreads a type parameter", "has a rest element before other elements",
    "is not a JSON number", "whose own toJSON() JSON.stringify does not call", "have no exact pattern", "cannot be a tool argument", "overloaded functions cannot be tools",
    "applies to", "takes a", "is not a format typemcp validates",
  ];
  return known.find((reason) => detail.includes(reason)) ?? detail.replace(/^.*?: /, "").slice(0, 80);
}

/** Checks one tool of one generated type; returns whether it got a schema (undefined: it failed). */
function checkTool(type: GeneratedType, outcome: ToolOutcome, direction: "input" | "output", overloaded: boolean): boolean | undefined {
  const verdict = verdictOf(outcome, direction, overloaded);
  if (verdict.kind === "failure") {
    failures.push(`${outcome.fn} (${direction}): ${verdict.why}\n  type: ${describeType(type)}`);
    return undefined;
  }
  if (verdict.kind === "schema") return true;
  for (const message of verdict.messages) {
    const [head, ...details] = message.split("\n");
    for (const line of details.length ? details : [head]) tally.reasons[reasonOf(line)] = (tally.reasons[reasonOf(line)] ?? 0) + 1;
  }
  return false;
}

function checkBatch(batch: BatchResult): void {
  tally.batchMs.push(batch.ms);
  tally.capped += batch.capped;
  for (const error of batch.compilerErrors) failures.push(`the generator wrote invalid TypeScript: ${error}`);
  for (const d of batch.diagnostics) {
    if (d.code === DiagnosticCode.InternalError) failures.push(`TS93099 in the batch: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").slice(0, 2000)}`);
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

/** Batches also compiled on TypeScript 7 and compared, contract by contract (FUZZ_TS7_BATCHES; default: all). */
const TS7_BATCHES = Number(process.env.FUZZ_TS7_BATCHES ?? Infinity);

/**
 * Tools whose TypeScript 7 contract has the same schemas in another order (see test/support/ts7.ts);
 * whose types hold a lone surrogate (`"\ud800"`), which TypeScript 7 (its strings are UTF-8) turns
 * into U+FFFD; and those that differ otherwise (a failure).
 */
const ts7 = {
  compared: 0,
  exact: 0,
  orderOnly: [] as string[],
  loneSurrogate: [] as string[],
  /** The API process stopped on a number literal type of Infinity (it cannot send one): typemcp's error says so. */
  infinity: [] as string[],
  /** Descriptions and printed names of library types and their members, from each TypeScript's own lib files (which document and declare them differently), and union order. */
  libraryDocs: [] as string[],
  /** A union of thenables awaited to different types: TypeScript 7's API has no way to make their union (docs/typescript-7.md). */
  awaitedUnion: [] as string[],
  /** Refused both ways, with other problems listed (each lists a union's problems in its order, the first 20). */
  refusedBoth: [] as string[],
  different: [] as string[],
};

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether two contracts differ only where TypeScript 7 orders a union otherwise: schemas the
 * same once object keys, `required`, `enum` and `anyOf` members are in one order; a refused
 * registration refused both ways, with as many problems (their texts print the types, whose
 * unions each TypeScript prints in its own order).
 */
function sameUpToOrder(a: ToolContract | undefined, b: ToolContract | undefined, source?: string): boolean {
  if (!a || !b) return false;
  if (a.error !== undefined || b.error !== undefined) {
    // Problems are listed per member, in the union's order, the first MAX_PROBLEMS of them.
    const lines = (error: string) => Math.min(error.split("\n").length, MAX_PROBLEMS + 1);
    return a.error !== undefined && b.error !== undefined && lines(a.error) === lines(b.error);
  }
  if (source !== undefined) {
    // Descriptions that are not in the batch's source come from each TypeScript's own lib files.
    const strip = (node: unknown): unknown =>
      Array.isArray(node)
        ? node.map(strip)
        : node !== null && typeof node === "object"
          ? Object.fromEntries(Object.entries(node).filter(([k, v]) => !((k === "description" || k === "title") && typeof v === "string" && !source.includes(v.slice(0, 24)))).map(([k, v]) => [k, strip(v)]))
          : node;
    return sameUpToOrder(strip(a) as ToolContract, strip(b) as ToolContract);
  }
  // A type's text (a title, the $defs key made of it) as the characters it is made of: each
  // TypeScript prints a union's members in its own order, and 5 escapes non-ASCII characters
  // in template literal texts where 7 does not.
  const letters = (text: string) => [...text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))].sort().join("");
  const sorted = (value: unknown): unknown => {
    // $defs keys are made of the printed titles: each stands for its definition's title.
    const keys = new Map<string, string>();
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(collect);
      if (node === null || typeof node !== "object") return;
      const defs = (node as Record<string, unknown>).$defs as Record<string, { title?: string }> | undefined;
      if (defs) for (const [k, definition] of Object.entries(defs)) keys.set(k, letters(definition.title ?? k));
      Object.values(node).forEach(collect);
    };
    collect(value);
    const walk = (node: unknown, key?: string): unknown => {
      if (Array.isArray(node)) {
        const items = node.map((item) => walk(item));
        return key === "anyOf" || key === "required" || key === "enum" ? [...items].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))) : items;
      }
      if (typeof node === "string") return key === "title" ? letters(node) : key === "$ref" && node !== "#" ? `#/$defs/${keys.get(node.slice(8)) ?? node}` : node;
      if (node === null || typeof node !== "object") return node;
      const entries = Object.entries(node).map(([k, v]) => [key === "$defs" ? keys.get(k) ?? k : k, walk(v, key === "properties" || key === "$defs" ? undefined : k)] as const);
      return Object.fromEntries(entries.sort(([x], [y]) => x.localeCompare(y)));
    };
    return walk(value);
  };
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/** Compares each tool's contract from TypeScript 7 with the transformer's on 5.9. */
function compareTs7(batch: BatchResult, outcomes: Map<string, { contract: ToolContract; messages: string[] }>): string[] {
  const problems: string[] = [];
  for (const c of batch.cases) {
    for (const outcome of [c.in, c.out]) {
      const other = outcomes.get(outcome.fn);
      ts7.compared++;
      if (!other) {
        problems.push(`${outcome.fn}: TypeScript 7 found no registration`);
        continue;
      }
      const [a, b] = [JSON.stringify(outcome.contract), JSON.stringify(other.contract)];
      if (a === b) ts7.exact++;
      else if (sameUpToOrder(outcome.contract, other.contract)) ts7.orderOnly.push(`${outcome.fn}: ${c.type.text}`);
      else if (LONE_SURROGATE.test(JSON.stringify(outcome.contract).replace(/\\u[0-9a-fA-F]{4}/g, (e) => String.fromCharCode(parseInt(e.slice(2), 16))))) ts7.loneSurrogate.push(`${outcome.fn}: ${c.type.text}`);
      else if (other.contract.error?.includes("API process stopped") && /e[34]\d\d|Infinity/.test(describeType(c.type))) ts7.infinity.push(`${outcome.fn}: ${c.type.text}`);
      else if (sameUpToOrder(outcome.contract, other.contract, batch.source)) ts7.libraryDocs.push(`${outcome.fn}: ${c.type.text}`);
      else if (other.contract.error?.includes("is a union of promises of different types")) ts7.awaitedUnion.push(`${outcome.fn}: ${c.type.text}`);
      else if (outcome.contract?.error !== undefined && other.contract.error !== undefined) ts7.refusedBoth.push(`${outcome.fn}: ${c.type.text}`);
      else {
        ts7.different.push(`${outcome.fn}: ${c.type.text}`);
        problems.push(`${outcome.fn} (${describeType(c.type)}):\n  TypeScript 5.9: ${a}\n  TypeScript 7:   ${b}`);
      }
    }
  }
  return problems;
}

const types = fc.sample(typeArbitrary, { seed: SEED, numRuns: TYPES });
const batches = Array.from({ length: Math.ceil(TYPES / PER_PROGRAM) }, (_, i) => i);

describe(`${TYPES} generated types (seed ${SEED}), ${PER_PROGRAM} per program`, () => {
  test.each(batches)("batch %i: every tool gets a valid schema or a located diagnostic, and the transformer never fails; TypeScript 7 gives the same contracts", (i) => {
    const batch = compileTypeBatch(`fuzz_${i}`, types.slice(i * PER_PROGRAM, (i + 1) * PER_PROGRAM), i * PER_PROGRAM);
    const before = failures.length;
    checkBatch(batch);
    expect(batch.ms).toBeLessThan(BATCH_BOUND_MS);
    expect(failures.slice(before)).toEqual([]);
    if (i < TS7_BATCHES) expect(compareTs7(batch, compileTypeBatchTs7(`fuzz_${i}`, TS7_DIR))).toEqual([]);
  });

  afterAll(() => {
    const report = { seed: SEED, ...tally, reasons: Object.fromEntries(Object.entries(tally.reasons).sort((a, b) => b[1] - a[1])), ts7 };
    const dir = path.join(ROOT, ".build", "fuzz");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "report.json"), JSON.stringify(report, null, 2));
    process.stdout.write(
      `\nfuzz (seed ${SEED}): ${tally.types} types tried, ${tally.tools} tools: ${tally.schema} with a valid schema, ${tally.diagnostic} with a located diagnostic; ` +
        `per type: ${tally.bothSchemas} schema both ways, ${tally.bothDiagnostics} diagnostic both ways, ${tally.mixed} one of each; ` +
        `TypeScript capped ${tally.capped} instantiations (TS2589); ` +
        `TypeScript 7: ${ts7.compared} contracts compared, ${ts7.exact} the same byte for byte, ${ts7.orderOnly.length} the same up to the order of union members and properties, ${ts7.loneSurrogate.length} with a lone surrogate TypeScript 7 cannot hold, ${ts7.infinity.length} on an Infinity literal its API cannot send, ${ts7.libraryDocs.length} with its own lib files' documentation or type names, ${ts7.awaitedUnion.length} awaiting a union of thenables, ${ts7.refusedBoth.length} refused both ways with other problems listed, ${ts7.different.length} different; ` +
        `batches of ${PER_PROGRAM}: ${tally.batchMs.join(", ")} ms (report: .build/fuzz/report.json)\n`,
    );
  });
});
