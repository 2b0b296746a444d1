/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, server mode over
 * Streamable HTTP) against a typemcp server serving the tools the suite calls by name
 * (fixtures/conformance), on both protocol revisions: every applicable scenario of
 * 2025-11-25 and 2026-07-28, with legacy sessions (the default) and stateless. The scenarios
 * that go through a client also check each message against the spec's JSON schema
 * (`wire-schema-valid`).
 *
 * A few checks need what a tools-only server built from types does not have; they are listed
 * below, each with the reason, and the test fails if any other check fails, or if one of
 * those starts to pass (the list would be stale).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./support/build";
import { FIXTURES_OUT } from "./support/fixtures";
import { serveHttp, type HttpProcess } from "./support/http-server";

const CLI = path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
// Node 20 lacks fs.globSync, which the suite imports but its server scenarios never call.
const NODE20 = path.join(__dirname, "support", "node20", "register.mjs");
const MODULE = path.join(FIXTURES_OUT, "conformance", "tool.js");

const TOOL_CALLS = [
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
];
const LEGACY = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  ...TOOL_CALLS,
  "tools-call-with-logging",
  "dns-rebinding-protection",
  "server-sse-multiple-streams",
];
const MODERN = [
  "tools-list",
  ...TOOL_CALLS,
  "dns-rebinding-protection",
  "server-stateless",
  "caching",
  "http-header-validation",
  "server-sse-multiple-streams",
];

/** Checks that cannot pass against typemcp, and why. */
const NOT_APPLICABLE: Record<string, Record<string, string>> = {
  "server-stateless": {
    "sep-2575-server-rejects-undeclared-capability":
      "calls a diagnostic tool that needs the client's sampling capability: typemcp tools never ask the client for anything",
    "sep-2575-missing-capability-http-400": "the same diagnostic tool, over HTTP",
    "sep-2575-http-server-no-independent-requests-on-stream":
      "calls a tool that asks the client for input (elicitation), which typemcp does not offer",
  },
  caching: {
    "sep-2549-prompts-list-caching-hints": "typemcp serves tools only: it declares no prompts capability",
    "sep-2549-resources-list-caching-hints": "nor resources",
    "sep-2549-resources-templates-list-caching-hints": "nor resource templates",
  },
};

interface Outcome {
  status: number | null;
  checks: Map<string, string>;
  output: string;
}

function conformance(url: string, scenario: string, revision: string): Outcome {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-conformance-"));
  try {
    const run = spawnSync(
      process.execPath,
      ["--import", NODE20, CLI, "server", "--url", url, "--scenario", scenario, "--spec-version", revision],
      { cwd, encoding: "utf8", timeout: 90_000 },
    );
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
    const output = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    const checks = new Map(
      [...output.matchAll(/\[([a-z0-9-]+)\s*\] (SUCCESS|FAILURE|WARNING|INFO|SKIPPED)/g)].map((m) => [m[1], m[2]]),
    );
    return { status: run.status, checks, output };
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

function expectConformant(outcome: Outcome, scenario: string): void {
  const failed = [...outcome.checks]
    .filter(([, status]) => status === "FAILURE" || status === "WARNING")
    .map(([id]) => id);
  expect([scenario, failed.sort()]).toEqual([scenario, Object.keys(NOT_APPLICABLE[scenario] ?? {}).sort()]);
  expect([scenario, [...outcome.checks.values()]]).toEqual([scenario, expect.arrayContaining(["SUCCESS"])]);
  if (failed.length === 0) expect(outcome.status).toBe(0);
}

describe.each([
  { stateless: false, legacy: LEGACY, modern: MODERN },
  // Stateless changes how 2025-11-25 clients are served; 2026-07-28 ones are always stateless.
  {
    stateless: true,
    legacy: LEGACY.filter((s) => s !== "server-sse-multiple-streams"),
    modern: ["tools-list", "tools-call-simple-text"],
  },
])("stateless: $stateless", ({ stateless, legacy, modern }) => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await serveHttp(MODULE, { stateless });
  });
  afterAll(() => server.stop());

  test.each(legacy)("2025-11-25: %s", (scenario) =>
    expectConformant(conformance(server.url, scenario, "2025-11-25"), scenario),
  );
  test.each(modern)("2026-07-28: %s", (scenario) =>
    expectConformant(conformance(server.url, scenario, "2026-07-28"), scenario),
  );
});
