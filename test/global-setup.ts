/**
 * Runs once before any suite, in both tiers (suites run in parallel and all use what it writes):
 * the runtime's declarations into .build/types (test/support/package-types.ts), then the fixtures
 * built with the transformer from the sources: compiled modules into .build/fixtures,
 * diagnostics into .build/fixtures/diagnostics.json; and examples/everything the same way, into
 * .build/everything-sources.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..");

/**
 * Drops the package's own modules (the transformer, the runtime, test/support) from require's
 * cache. Under `jest --watch` this process runs the setup again on every change, and would
 * otherwise build the fixtures with the transformer as it was at the first run.
 */
function forgetOwnModules(): void {
  for (const file of Object.keys(require.cache)) {
    if (file.startsWith(ROOT + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`))
      delete require.cache[file];
  }
}

export default function globalSetup(): void {
  forgetOwnModules();
  const { buildProject, formatDiagnostics, summarize } = require("./support/build") as typeof import("./support/build");
  const { FIXTURES, FIXTURES_OUT } = require("./support/fixtures") as typeof import("./support/fixtures");
  const { emitRuntimeDeclarations } = require("./support/package-types") as typeof import("./support/package-types");

  emitRuntimeDeclarations();
  fs.rmSync(FIXTURES_OUT, { recursive: true, force: true });
  const build = buildProject(path.join(FIXTURES, "tsconfig.json"));
  const result: import("./support/fixtures").FixtureBuild = {
    compilerDiagnostics: formatDiagnostics(build.compilerDiagnostics),
    typemcpDiagnostics: build.typemcpDiagnostics.map((d) => summarize(d, FIXTURES)),
  };
  fs.writeFileSync(path.join(FIXTURES_OUT, "diagnostics.json"), JSON.stringify(result, null, 2));

  // The everything server (examples/everything), as test/everything.test.ts drives it in process.
  const everything = path.join(ROOT, ".build", "everything-sources");
  fs.rmSync(everything, { recursive: true, force: true });
  const example = buildProject(path.join(ROOT, "examples", "everything", "tsconfig.json"), { outDir: everything });
  fs.writeFileSync(
    path.join(everything, "diagnostics.json"),
    JSON.stringify(
      {
        compilerDiagnostics: formatDiagnostics(example.compilerDiagnostics),
        typemcpDiagnostics: example.typemcpDiagnostics.map((d) =>
          summarize(d, path.join(ROOT, "examples", "everything")),
        ),
      },
      null,
      2,
    ),
  );
}
