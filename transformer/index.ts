/**
 * typemcp's transformer, as ts-patch loads it: `{ "transform": "typemcp/transformer" }` in
 * tsconfig.json's `plugins`. The transformer itself is in ts5/transform.ts; this entry loads
 * nothing of TypeScript until ts-patch calls it, so that it can hand typemcp the TypeScript
 * that runs the build.
 *
 * Why: under a persistent patch (`ts-patch install`), tsc runs TypeScript's whole library as
 * its compiler, and typemcp's `require("typescript")` would load and compile those 9 MB a
 * second time, about 0.2 s of every build. Under `tspc`, ts-patch has loaded the package for
 * its own use and builds with another instance, patched live: the functions typemcp calls
 * (its JSDoc reading, the node tests) would run that other copy's code, which the build never
 * warmed, compiled by V8 a second time (docs/performance.md#the-build-ts-patch-then-the-transformer).
 * ts-patch passes plugins its instance (`extras.ts`).
 */
import Module from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import type ts from "typescript";
import type * as Transform from "./ts5/transform";
import { backendOf, transformerUnsupported } from "./typescript";

export type { TransformerHost } from "./ts5/transform";
export { DiagnosticCode } from "./diagnostic-codes";

/** The transformer factory: every `mcp.tool(...)` printed with its contract (see ts5/transform.ts). */
export function createTransformer(
  program: ts.Program,
  host: Transform.TransformerHost,
): ts.TransformerFactory<ts.SourceFile> {
  checkTypeScript(undefined);
  return transform().createTransformer(program, host);
}

/** What ts-patch passes a "program" plugin, beside the program and the plugin's config. */
interface TsPatchExtras extends Partial<Transform.TransformerHost> {
  ts?: typeof ts;
}

/** ts-patch's "program" plugin entry. */
export default function typemcpTransformer(
  program: ts.Program,
  config?: unknown,
  extras?: TsPatchExtras,
): ts.TransformerFactory<ts.SourceFile> {
  checkTypeScript(extras?.ts?.version);
  const load = () => transform().typemcpTransformer(program, config, extras);
  return extras?.ts ? withTypeScript(extras.ts, load) : load();
}

/**
 * The transformer needs TypeScript 5 or 6 (their compiler API): under TypeScript 7 (whose
 * `typescript` package has none) it says what to run instead, before loading any of it.
 */
function checkTypeScript(version: string | undefined): void {
  const loaded = version ?? (require("typescript") as { version?: string }).version ?? "unknown";
  if (backendOf(loaded) === "ts7") throw new Error(transformerUnsupported(loaded));
}

function transform(): typeof Transform {
  return require("./ts5/transform") as typeof Transform;
}

/**
 * Runs `load` with ts-patch's TypeScript as the `typescript` module typemcp's compiler loads,
 * when the instance is the same version as the package it stands for; any other case leaves
 * `require` to load the package. When the package is not loaded yet (a persistent patch), the
 * instance stays registered in its place: nothing loads it a second time. When it is (`tspc`
 * loaded it for its own use), typemcp's modules are loaded against the build's instance and the
 * package's own entry is put back: ts-patch and anything else keep the module they loaded.
 */
function withTypeScript<T>(instance: typeof ts, load: () => T): T {
  let file: string;
  try {
    file = require.resolve("typescript");
    const { version } = JSON.parse(fs.readFileSync(path.join(path.dirname(file), "..", "package.json"), "utf8")) as {
      version?: string;
    };
    if (instance.version !== version) return load();
  } catch {
    return load(); // no package to stand for: require will say so
  }
  const loaded = require.cache[file];
  if (loaded?.exports === instance) return load();
  const shared = new Module(file, module);
  shared.filename = file;
  shared.loaded = true;
  shared.exports = instance;
  require.cache[file] = shared;
  try {
    return load();
  } finally {
    if (loaded) require.cache[file] = loaded;
  }
}
