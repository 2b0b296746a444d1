/**
 * Which TypeScript typemcp is given, and what to do when it cannot work with it. Every entry
 * point asks before it loads anything of TypeScript: TypeScript 7's `typescript` package holds
 * no compiler API (`require("typescript")` is its version and nothing else), so code written
 * for 5 and 6 would fail deep inside with a TypeError instead of saying what to run.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface InstalledTypeScript {
  /** The package's folder. */
  directory: string;
  version: string;
  major: number;
}

/** The commands for each TypeScript, as the messages name them. */
export const BUILD_WITH_TS7 = "npx typemcp build";
export const BUILD_WITH_TSPC = "npx tspc";

/** The TypeScript package in `directory`. */
export function typeScriptAt(directory: string): InstalledTypeScript {
  const { version } = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as { version: string };
  return { directory, version, major: Number(version.split(".")[0]) };
}

/**
 * The `typescript` a project uses: the one its own folder resolves (`from`), else typemcp's.
 * TYPEMCP_TYPESCRIPT names another package folder (one of several TypeScripts installed side by
 * side, such as an npm alias).
 */
export function findTypeScript(from = process.cwd()): InstalledTypeScript | undefined {
  const chosen = process.env.TYPEMCP_TYPESCRIPT;
  if (chosen) return typeScriptAt(path.resolve(chosen));
  for (const base of [from, __dirname]) {
    try {
      return typeScriptAt(path.dirname(require.resolve("typescript/package.json", { paths: [base] })));
    } catch {
      // not found from there
    }
  }
  return undefined;
}

/** The version of an already loaded `typescript` module (TypeScript 7's has `version` too). */
export function majorOf(version: string | undefined): number {
  return Number((version ?? "").split(".")[0]);
}

/** What to run instead, for a transformer entry (tspc, ts-patch, ts-jest) loaded by TypeScript `version` (7 or later). */
export function transformerUnsupported(version: string): string {
  return `typemcp: TypeScript ${version} has no transformer API, so neither tspc nor ts-patch can run typemcp's transformer on it. Build with \`${BUILD_WITH_TS7}\` (TypeScript 7's own compiler, with every tool's schemas written in), and remove { "transform": "typemcp/transformer" } from tsconfig.json; or install TypeScript 5 or 6 with ts-patch to build with tspc.`;
}
