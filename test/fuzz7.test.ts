/**
 * One type model, two checkers, on every type a codebase can contain: the generated types of
 * test/fuzz.test.ts (same seed, same batches), each batch compiled by the transformer on
 * TypeScript 5.9 (in process) and by `typemcp` on TypeScript 7 (through its checker API, in a
 * process of its own), contract by contract. A contract must be the same byte for byte, or differ
 * only in one of the ways listed in docs/typescript-7.md, each counted: the order of a union's
 * members and of a mapped type's properties, each TypeScript's lib files, a lone surrogate
 * TypeScript 7 cannot hold, an Infinity literal its API cannot send, a union of promises its API
 * cannot await, the keys TypeScript 7's checker gives a mapped type over `keyof` a union that
 * holds a primitive. Anything else fails, printed in full.
 *
 * FUZZ_SEED and FUZZ_TYPES as test/fuzz.test.ts's.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import type { ToolContract } from "typemcp";
import { MAX_PROBLEMS } from "../transformer/problems";
import { ROOT } from "./support/build";
import { typeArbitrary, type GeneratedType } from "./support/type-arbitraries";
import { compileTypeBatch, type BatchResult } from "./support/type-batch";
import { compileTypeBatchTs7, TS7_DIR } from "./support/ts7";

const SEED = Number(process.env.FUZZ_SEED ?? 93_099);
const TYPES = Number(process.env.FUZZ_TYPES ?? 2000);
const PER_PROGRAM = 250;

function describeType(type: GeneratedType): string {
  return `${type.text}${type.decls.length ? `\n    where ${type.decls.join("\n          ")}` : ""}`;
}

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
  /**
   * A mapped type over `keyof` a union that holds a primitive (`{ [K in keyof (D | "a")]: 1 }`):
   * TypeScript 7's checker gives it the primitive's `toString` and `valueOf`, as its own tsc
   * requires them; 5.9 gives it none (docs/typescript-7.md).
   */
  primitiveKeys: [] as string[],
  /** Refused both ways, with other problems listed (each lists a union's problems in its order, the first 20). */
  refusedBoth: [] as string[],
  different: [] as string[],
};

/** A property `toString` or `valueOf` in a contract: a schema's, or a problem's path. */
const APPARENT_KEYS = /"(?:toString|valueOf)":|\.(?:toString|valueOf):/;
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
          ? Object.fromEntries(
              Object.entries(node)
                .filter(
                  ([k, v]) =>
                    !(
                      (k === "description" || k === "title") &&
                      typeof v === "string" &&
                      !source.includes(v.slice(0, 24))
                    ),
                )
                .map(([k, v]) => [k, strip(v)]),
            )
          : node;
    return sameUpToOrder(strip(a) as ToolContract, strip(b) as ToolContract);
  }
  // A type's text (a title, the $defs key made of it) as the characters it is made of: each
  // TypeScript prints a union's members in its own order, and 5 escapes non-ASCII characters
  // in template literal texts where 7 does not.
  const letters = (text: string) =>
    [...text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))]
      .sort()
      .join("");
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
        return key === "anyOf" || key === "required" || key === "enum"
          ? [...items].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)))
          : items;
      }
      if (typeof node === "string")
        return key === "title"
          ? letters(node)
          : key === "$ref" && node !== "#"
            ? `#/$defs/${keys.get(node.slice(8)) ?? node}`
            : node;
      if (node === null || typeof node !== "object") return node;
      const entries = Object.entries(node).map(
        ([k, v]) =>
          [
            key === "$defs" ? (keys.get(k) ?? k) : k,
            walk(v, key === "properties" || key === "$defs" ? undefined : k),
          ] as const,
      );
      return Object.fromEntries(entries.sort(([x], [y]) => x.localeCompare(y)));
    };
    return walk(value);
  };
  return JSON.stringify(sorted(a)) === JSON.stringify(sorted(b));
}

/** Compares each tool's contract from TypeScript 7 with the transformer's on 5.9. */
function compareTs7(
  batch: BatchResult,
  outcomes: Map<string, { contract: ToolContract; messages: string[] }>,
): string[] {
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
      else if (
        LONE_SURROGATE.test(
          JSON.stringify(outcome.contract).replace(/\\u[0-9a-fA-F]{4}/g, (e) =>
            String.fromCharCode(parseInt(e.slice(2), 16)),
          ),
        )
      )
        ts7.loneSurrogate.push(`${outcome.fn}: ${c.type.text}`);
      else if (other.contract.error?.includes("API process stopped") && /e[34]\d\d|Infinity/.test(describeType(c.type)))
        ts7.infinity.push(`${outcome.fn}: ${c.type.text}`);
      else if (sameUpToOrder(outcome.contract, other.contract, batch.source))
        ts7.libraryDocs.push(`${outcome.fn}: ${c.type.text}`);
      else if (other.contract.error?.includes("is a union of promises of different types"))
        ts7.awaitedUnion.push(`${outcome.fn}: ${c.type.text}`);
      else if (outcome.contract?.error !== undefined && other.contract.error !== undefined)
        ts7.refusedBoth.push(`${outcome.fn}: ${c.type.text}`);
      else if (APPARENT_KEYS.test(b) && !APPARENT_KEYS.test(a) && describeType(c.type).includes("keyof ("))
        ts7.primitiveKeys.push(`${outcome.fn}: ${c.type.text}`);
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

describe(`${TYPES} generated types (seed ${SEED}), ${PER_PROGRAM} per program, on TypeScript 5.9 and 7`, () => {
  test.each(batches)("batch %i: TypeScript 7 gives the same contracts", (i) => {
    const folder = `fuzz7_${i}`;
    const batch = compileTypeBatch(folder, types.slice(i * PER_PROGRAM, (i + 1) * PER_PROGRAM), i * PER_PROGRAM);
    expect(compareTs7(batch, compileTypeBatchTs7(folder, TS7_DIR))).toEqual([]);
  });

  afterAll(() => {
    const dir = path.join(ROOT, ".build", "fuzz");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "ts7-report.json"), JSON.stringify({ seed: SEED, types: TYPES, ...ts7 }, null, 2));
    process.stdout.write(
      `\nfuzz on TypeScript 7 (seed ${SEED}): ${ts7.compared} contracts compared, ${ts7.exact} the same byte for byte, ${ts7.orderOnly.length} the same up to the order of union members and properties, ` +
        `${ts7.loneSurrogate.length} with a lone surrogate TypeScript 7 cannot hold, ${ts7.infinity.length} on an Infinity literal its API cannot send, ${ts7.libraryDocs.length} with its own lib files' documentation or type names, ` +
        `${ts7.awaitedUnion.length} awaiting a union of thenables, ${ts7.primitiveKeys.length} with a mapped type over keyof a union holding a primitive, ${ts7.refusedBoth.length} refused both ways with other problems listed, ${ts7.different.length} different (report: .build/fuzz/ts7-report.json)\n`,
    );
  });
});
