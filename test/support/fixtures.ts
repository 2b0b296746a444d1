import * as fs from "node:fs";
import * as path from "node:path";
import type { DiagnosticSummary } from "./build";
import { ROOT } from "./build";

export const FIXTURES = path.join(ROOT, "fixtures");
export const FIXTURES_OUT = path.join(ROOT, ".build", "fixtures");

/** One call a fixture makes, and the exact answer it expects: a tool result, or a JSON-RPC error. */
export interface ExpectedCall {
  tool: string;
  arguments?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** fixtures/<case>/expected.json */
export interface Expected {
  /** typemcp's diagnostics for this case's files, in order. */
  diagnostics: DiagnosticSummary[];
  /** When loading the compiled module must throw (a registration the build refused): the message. */
  registrationError?: string;
  /** Exactly what tools/list returns. */
  tools?: unknown[];
  calls?: ExpectedCall[];
}

/** What test/global-setup.ts records of the fixtures' build. */
export interface FixtureBuild {
  /** The compiler's own diagnostics, formatted ("" when there are none). */
  compilerDiagnostics: string;
  /** typemcp's diagnostics, files relative to fixtures/ (`<case>/tool.ts`). */
  typemcpDiagnostics: DiagnosticSummary[];
}

export function fixtureBuild(): FixtureBuild {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES_OUT, "diagnostics.json"), "utf8")) as FixtureBuild;
}

/** A fixture's diagnostics, files relative to its own folder. */
export function diagnosticsOf(build: FixtureBuild, name: string): DiagnosticSummary[] {
  const prefix = `${name}/`;
  return build.typemcpDiagnostics
    .filter((d) => d.file.startsWith(prefix))
    .map((d) => ({ ...d, file: d.file.slice(prefix.length) }));
}

export interface Fixture {
  name: string;
  dir: string;
  /** The compiled module, which exports `mcp`. */
  module: string;
  expected: Expected;
}

/** A fixture's expectations; a folder without expected.json yet has none (and fails the test that requires one). */
function readExpected(file: string): Expected {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Expected) : { diagnostics: [] };
}

export function fixtures(): Fixture[] {
  return fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      name: entry.name,
      dir: path.join(FIXTURES, entry.name),
      module: path.join(FIXTURES_OUT, entry.name, "tool.js"),
      expected: readExpected(path.join(FIXTURES, entry.name, "expected.json")),
    }));
}
