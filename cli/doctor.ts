/**
 * `typemcp doctor`: which command builds this project, in one line, from the TypeScript (and
 * ts-patch) it has installed. The trap it answers: `npm install typescript` gives TypeScript 7,
 * which ts-patch cannot run, so `npx tspc` stops inside ts-patch with a TypeError before any
 * plugin loads, and says nothing of what to run instead. typemcp cannot speak from inside
 * ts-patch, nor count on an install script (npm 11.19 runs a dependency's `postinstall`, but
 * shows nothing it prints, warns that it is "not yet covered by allowScripts", and its
 * documentation says unapproved ones are to be blocked), so it says it here; the README's quick
 * start builds with `npx typemcp build`, which works on whichever TypeScript npm installed.
 */
import * as fs from "node:fs";
import { BUILD_WITH_TS7, BUILD_WITH_TSPC, majorOf, type InstalledTypeScript } from "../transformer/typescript";

/** The ts-patch a project resolves, if any. */
export function findTsPatch(from: string): { version: string; major: number } | undefined {
  try {
    const file = require.resolve("ts-patch/package.json", { paths: [from] });
    const { version } = JSON.parse(fs.readFileSync(file, "utf8")) as { version: string };
    return { version, major: majorOf(version) };
  } catch {
    return undefined;
  }
}

/** What `npx tspc` does on TypeScript 7, and what to run instead: one line. */
export function tspcOnTs7(typescript: InstalledTypeScript): string {
  return `TypeScript ${typescript.version} is installed, which ts-patch cannot run: \`${BUILD_WITH_TSPC}\` stops inside ts-patch (TypeError: Cannot read properties of undefined (reading 'LineFeed')) before typemcp loads. Build with \`${BUILD_WITH_TS7}\` instead.`;
}

/** Whether tsconfig.json's plugins run typemcp's transformer (under tspc). */
function hasPlugin(plugins: readonly unknown[] | undefined): boolean {
  return (plugins ?? []).some(
    (plugin) => (plugin as { transform?: unknown } | null)?.transform === "typemcp/transformer",
  );
}

/** The ts-patch each TypeScript takes, as the README installs it. */
const TS_PATCH_FOR: Record<number, string> = { 5: "ts-patch@^3.3.0", 6: "ts-patch@^4.0.1" };

/**
 * The one line `typemcp doctor` prints, and whether the project builds as it is set up
 * (`ok: false`: `npx tspc` would build it without the tools' schemas).
 */
export function diagnose(
  typescript: InstalledTypeScript,
  projectDirectory: string,
  plugins: readonly unknown[] | undefined,
): { line: string; ok: boolean } {
  if (typescript.backend === "ts7") return { line: tspcOnTs7(typescript), ok: true };
  const tsPatch = findTsPatch(projectDirectory);
  const found = `TypeScript ${typescript.version}`;
  if (!tsPatch)
    return {
      line: `${found} without ts-patch: build with \`${BUILD_WITH_TS7}\` (or install ${TS_PATCH_FOR[typescript.major] ?? "ts-patch"} to build with \`${BUILD_WITH_TSPC}\`).`,
      ok: true,
    };
  const withPatch = `${found} with ts-patch ${tsPatch.version}`;
  if (!hasPlugin(plugins))
    return {
      line: `${withPatch}, but tsconfig.json has no { "transform": "typemcp/transformer" } plugin, so \`${BUILD_WITH_TSPC}\` builds without the tools' schemas: add it to compilerOptions.plugins, or build with \`${BUILD_WITH_TS7}\`.`,
      ok: false,
    };
  return {
    line: `${withPatch}: build with \`${BUILD_WITH_TSPC}\` (or \`${BUILD_WITH_TS7}\`, which builds the same).`,
    ok: true,
  };
}

/** The plugins of a tsconfig.json on TypeScript 5 or 6 (`extends` followed), as tsc reads them. */
export function pluginsOf(configFile: string): readonly unknown[] | undefined {
  const ts = require("typescript") as typeof import("typescript");
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configFile,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  return parsed?.options.plugins as readonly unknown[] | undefined;
}
