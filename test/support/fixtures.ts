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

export interface Fixture {
  name: string;
  dir: string;
  /** The compiled module, which exports `mcp`. */
  module: string;
  expected: Expected;
}

export function fixtures(): Fixture[] {
  return fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      name: entry.name,
      dir: path.join(FIXTURES, entry.name),
      module: path.join(FIXTURES_OUT, entry.name, "tool.js"),
      expected: JSON.parse(fs.readFileSync(path.join(FIXTURES, entry.name, "expected.json"), "utf8")) as Expected,
    }));
}
