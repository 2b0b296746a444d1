/**
 * Builds the fixtures once, before any suite runs (suites run in parallel and all use them):
 * compiled modules into .build/fixtures, diagnostics into .build/fixtures/diagnostics.json.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { buildProject, formatDiagnostics, summarize } from "./support/build";
import { FIXTURES, FIXTURES_OUT, type FixtureBuild } from "./support/fixtures";
import { runCli7, writeFixturesTs7Config } from "./support/ts7";

export default function globalSetup(): void {
  fs.rmSync(FIXTURES_OUT, { recursive: true, force: true });
  const build = buildProject(path.join(FIXTURES, "tsconfig.json"));
  const result: FixtureBuild = {
    compilerDiagnostics: formatDiagnostics(build.compilerDiagnostics),
    typemcpDiagnostics: build.typemcpDiagnostics.map((d) => summarize(d, FIXTURES)),
  };
  fs.writeFileSync(path.join(FIXTURES_OUT, "diagnostics.json"), JSON.stringify(result, null, 2));
  // The same fixtures built by `typemcp build` on TypeScript 7: its output and what it printed.
  const config = writeFixturesTs7Config();
  fs.writeFileSync(path.join(path.dirname(config), "build.json"), JSON.stringify(runCli7(["build", config]), null, 2));
}
