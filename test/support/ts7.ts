/**
 * TypeScript 7 beside the project's TypeScript 5.9, for the tests that build and check both
 * ways: installed as the npm alias `typescript-7`, chosen for the CLI with TYPEMCP_TYPESCRIPT
 * (as a user's project has it as `typescript`).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./build";
import { FIXTURES } from "./fixtures";
import { runCli, type CliRun } from "./cli";
import type { ToolContract } from "typemcp";

export const TS7_DIR = path.join(ROOT, "node_modules", "typescript-7");
export const TS7_VERSION = (
  JSON.parse(fs.readFileSync(path.join(TS7_DIR, "package.json"), "utf8")) as { version: string }
).version;
export const WITH_TS7 = { TYPEMCP_TYPESCRIPT: TS7_DIR };

/** TypeScript 7.1, whose API is at `typescript/sync` (7.0's at `typescript/unstable/sync`): the npm alias `typescript-7.1`. */
export const TS71_DIR = path.join(ROOT, "node_modules", "typescript-7.1");
export const WITH_TS71 = { TYPEMCP_TYPESCRIPT: TS71_DIR };

/** The CLI with TypeScript 7 as the project's TypeScript. */
export function runCli7(args: string[], cwd: string = ROOT): CliRun {
  return runCli(args, cwd, WITH_TS7);
}

/** The fixtures built by `typemcp build` on TypeScript 7 (test/global-setup.ts), beside the transformer's build. */
export const FIXTURES_TS7 = path.join(ROOT, ".build", "fixtures-ts7");
export const FIXTURES_TS7_OUT = path.join(FIXTURES_TS7, "out");

/**
 * The fixtures' tsconfig.json with another output folder (`folder`/out, default FIXTURES_TS7):
 * the same program, file for file, in the same order.
 */
export function writeFixturesTs7Config(folder: string = FIXTURES_TS7): string {
  fs.rmSync(folder, { recursive: true, force: true });
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, "tsconfig.json");
  fs.writeFileSync(
    file,
    JSON.stringify(
      {
        extends: path.relative(folder, path.join(FIXTURES, "tsconfig.json")),
        compilerOptions: { outDir: "out" },
      },
      null,
      2,
    ),
  );
  return file;
}

/**
 * The tools whose schemas TypeScript 7 cannot give in TypeScript 5's exact bytes, and why: the
 * same schemas, with union members or the properties of a mapped type in another order.
 *
 * TypeScript 5 orders a union of literals, and so the keys of a mapped type over one
 * (`Pick<User, "id" | "name">`, `Record<"wifi" | "bluetooth", T>`), as its checker happened
 * to create the literal types: for the Pick above it lists name, then id; for `1 | 2 | 3` it
 * lists 1, 2, 3 after tsc's full check, but 2, 1, 3 in `typemcp manifest` (no full check first).
 * TypeScript 7 keeps unions sorted its own way; typemcp puts a union's members back in the order
 * of their ids, as 5 does, but 7 creates some literals in another order, and orders a mapped
 * type's properties, and prints unions (in titles), in its own; its API exposes neither a
 * mapped type's keys nor a literal type by its value, to order them otherwise.
 */
export const KNOWN_ORDER_DIFFERENCES = [
  "type_enums/echo_priority",
  "type_optional/echo_settings",
  "type_optional/echo_wrapper",
  "type_records/echo_switches",
  "type_records/echo_partial_switches",
  "type_utility_types/echo_user_summary",
  "type_utility_types/echo_user_without_age",
  "type_utility_types/echo_nullable_user",
  "type_utility_types/echo_user_flags",
];

/** `"b" | "a"` → `"a" | "b"`: a union of string literals as text, its members sorted. */
function sortedUnionText(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"(?: \| "(?:[^"\\]|\\.)*")+/g, (union) => union.split(" | ").sort().join(" | "));
}

/**
 * A schema with everything the order of a union's members or of an object's properties can
 * change put in one order: object keys, `required` and `enum` members, the unions printed in
 * titles, and the `$defs` keys made from those titles.
 */
export function canonical(value: unknown): unknown {
  const keys = new Map<string, string>();
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(collect);
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (record.$defs && typeof record.$defs === "object") {
      for (const [key, definition] of Object.entries(record.$defs as Record<string, { title?: string }>))
        keys.set(key, sortedUnionText(definition.title ?? key));
    }
    Object.values(record).forEach(collect);
  };
  collect(value);
  const walk = (node: unknown, key?: string): unknown => {
    if (Array.isArray(node)) {
      const items = node.map((item) => walk(item));
      return key === "required" || key === "enum"
        ? [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
        : items;
    }
    if (typeof node === "string") {
      if (key === "$ref" && node.startsWith("#/$defs/")) return `#/$defs/${keys.get(node.slice(8)) ?? node.slice(8)}`;
      return key === "title" ? sortedUnionText(node) : node;
    }
    if (node === null || typeof node !== "object") return node;
    const record = node as Record<string, unknown>;
    const entries = Object.keys(record).map(
      (k) =>
        [
          key === "$defs" ? (keys.get(k) ?? k) : k,
          walk(record[k], key === "$defs" || key === "properties" ? undefined : k),
        ] as const,
    );
    return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
  };
  return walk(value);
}

/** One registration as `typemcp` compiles it on TypeScript 7 (through its checker API). */
export interface Ts7Outcome {
  contract: ToolContract;
  /** typemcp's diagnostics of the registration, flattened. */
  messages: string[];
}

/**
 * The batch `compileTypeBatch` wrote into `.build/snippets/<folder>`, compiled on TypeScript 7:
 * a tsconfig.json with the snippets' options beside it, the project opened through TypeScript 7's
 * API as `typemcp build` opens it (in a Node process of its own: jest's module loader cannot load
 * its ES modules), every registration compiled. By registered function name.
 */
export function compileTypeBatchTs7(folder: string, ts7Directory: string): Map<string, Ts7Outcome> {
  const dir = path.join(ROOT, ".build", "snippets", folder);
  const config = path.join(dir, "tsconfig.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        strict: true,
        skipLibCheck: true,
        types: [],
        outDir: "out",
        rootDir: ".",
      },
      files: ["batch.ts"],
    }),
  );
  const run = spawnSync(process.execPath, [path.join(__dirname, "ts7-compile.js"), config, ts7Directory], {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`compiling ${folder} on TypeScript 7 failed: ${run.stderr}`);
  return new Map(
    (JSON.parse(run.stdout) as (Ts7Outcome & { fn: string })[]).map(({ fn, ...outcome }) => [fn, outcome]),
  );
}
