/**
 * Runs once before any suite, in both tiers (suites run in parallel and all use what it writes):
 * the runtime's declarations into .build/types (test/support/package-types.ts), then the fixtures
 * built with the transformer from the sources: compiled modules into .build/fixtures,
 * diagnostics into .build/fixtures/diagnostics.json.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildProject, formatDiagnostics, summarize } from "./support/build";
import { FIXTURES, FIXTURES_OUT, type FixtureBuild } from "./support/fixtures";
import { emitRuntimeDeclarations } from "./support/package-types";

export default function globalSetup(): void {
  emitRuntimeDeclarations();
  fs.rmSync(FIXTURES_OUT, { recursive: true, force: true });
  const build = buildProject(path.join(FIXTURES, "tsconfig.json"));
  const result: FixtureBuild = {
    compilerDiagnostics: formatDiagnostics(build.compilerDiagnostics),
    typemcpDiagnostics: build.typemcpDiagnostics.map((d) => summarize(d, FIXTURES)),
  };
  fs.writeFileSync(path.join(FIXTURES_OUT, "diagnostics.json"), JSON.stringify(result, null, 2));
}
