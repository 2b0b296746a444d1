/**
 * Which TypeScript typemcp is given, and what runs on it: the one place that decides, for the
 * CLI (cli/index.ts), the plugin's entry (transformer/index.ts), the editor plugin
 * (transformer/language-service.ts) and the runtime's message for a registration built without
 * typemcp (runtime/server.ts). Every entry point asks before it loads anything of TypeScript:
 * TypeScript 7's `typescript` package holds no compiler API (`require("typescript")` is its
 * version and nothing else), so code written for 5 and 6 would fail deep inside with a
 * TypeError instead of saying what to run.
 *
 * It imports nothing of TypeScript nor of typemcp: the runtime loads it for its message, only
 * then (a server's bundle for Workers, Deno or Bun loads none of the transformer at start).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * How typemcp reads a program on a TypeScript, each in its folder: `ts5` (transformer/ts5/) on
 * 5 and 6, through their compiler API in process, as a transformer; `ts7` (transformer/ts7/)
 * on 7, through the checker API of its compiler process, which runs no transformer.
 */
export type Backend = "ts5" | "ts7";

export interface InstalledTypeScript {
  /** The package's folder. */
  directory: string;
  version: string;
  major: number;
  backend: Backend;
}

/** The commands for each TypeScript, as the messages name them. */
export const BUILD_WITH_TS7 = "npx typemcp build";
export const BUILD_WITH_TSPC = "npx tspc";

/** What typemcp supports, as the one-line messages say it. */
export const SUPPORTED_TYPESCRIPT = "TypeScript 5.x, 6.x, 7.0 and 7.1";

/** A TypeScript typemcp cannot work with: the CLI prints the message alone, in one line. */
export class UnsupportedTypeScript extends Error {}

/** A version's major number: the one place a TypeScript version is read. */
export function majorOf(version: string | undefined): number {
  return Number((version ?? "").split(".")[0]);
}

/** How typemcp reads a program on TypeScript `version` (an installed package's, or a loaded module's). */
export function backendOf(version: string | undefined): Backend {
  return majorOf(version) >= 7 ? "ts7" : "ts5";
}

/** The TypeScript package in `directory`. */
export function typeScriptAt(directory: string): InstalledTypeScript {
  const { version } = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as { version: string };
  return { directory, version, major: majorOf(version), backend: backendOf(version) };
}

/**
 * The `typescript` a project uses: the one TYPEMCP_TYPESCRIPT names (a package folder: one of
 * several TypeScripts installed side by side, such as an npm alias), else the installed one.
 */
export function findTypeScript(from = process.cwd()): InstalledTypeScript | undefined {
  const chosen = process.env.TYPEMCP_TYPESCRIPT;
  if (chosen) return typeScriptAt(path.resolve(chosen));
  return installedTypeScript(from);
}

/** The `typescript` package installed for a project: the one its own folder resolves (`from`), else typemcp's. */
export function installedTypeScript(from = process.cwd()): InstalledTypeScript | undefined {
  for (const base of [from, __dirname]) {
    try {
      return typeScriptAt(path.dirname(require.resolve("typescript/package.json", { paths: [base] })));
    } catch {
      // not found from there
    }
  }
  return undefined;
}

/**
 * The TypeScript a project in `directory` uses, if typemcp works with it; else what to install,
 * in one line. A TypeScript after 7 may have no API where 7's is, or one that answers otherwise:
 * it is refused before anything is asked of it.
 */
export function supportedTypeScript(directory: string): InstalledTypeScript {
  const typescript = findTypeScript(directory);
  if (!typescript)
    throw new UnsupportedTypeScript(
      "cannot find the package typescript: install it in the project (npm install --save-dev typescript)",
    );
  if (!(typescript.major >= 5))
    throw new UnsupportedTypeScript(
      `TypeScript ${typescript.version} is older than typemcp supports (5.0 or later): install TypeScript 5, 6 or 7`,
    );
  if (typescript.major > 7)
    throw new UnsupportedTypeScript(
      `TypeScript ${typescript.version} is newer than typemcp knows: typemcp supports ${SUPPORTED_TYPESCRIPT} (npm install --save-dev typescript@~7.0.2)`,
    );
  return typescript;
}

/** What to run instead, for a transformer entry (tspc, ts-patch, ts-jest) loaded by TypeScript `version` (7 or later). */
export function transformerUnsupported(version: string): string {
  return `typemcp: TypeScript ${version} has no transformer API, so neither tspc nor ts-patch can run typemcp's transformer on it. Build with \`${BUILD_WITH_TS7}\` (TypeScript 7's own compiler, with every tool's schemas written in), and remove { "transform": "typemcp/transformer" } from tsconfig.json; or install TypeScript 5 or 6 with ts-patch to build with tspc.`;
}
