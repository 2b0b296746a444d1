/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance), run as its README
 * defines conformance: `server --url … --requirements <revision>`, the frozen set of scenarios
 * a server must pass for each protocol revision, against examples/everything/server.ts (built
 * with tspc, as its tsconfig says) over Streamable HTTP, with legacy sessions (the default) and
 * stateless. The scenarios that go through a client also check each message against the
 * spec's JSON schema (`wire-schema-valid`).
 *
 * Every scored scenario must pass, with sessions and stateless, but those listed below with
 * the reason: a stateless server cannot ask a 2025-11-25 client anything (elicitation,
 * sampling, roots), since that revision routes the client's answer to the server by session.
 * The test fails if any other scored scenario or check fails or warns, and if a listed one
 * starts to pass (the list would be stale).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./support/build";
import { serveHttp, type HttpProcess } from "./support/http-server";

const CLI = path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
// Node 20 lacks fs.globSync, which the suite imports but its server scenarios never call.
const NODE20 = path.join(__dirname, "support", "node20", "register.mjs");
const EXAMPLE = path.join(ROOT, "examples", "everything");

const NO_SESSION =
  "a stateless server gives 2025-11-25 clients no session, and that revision sends the client's answer to a server's request by session: only a session can be asked (2026-07-28 clients are asked statelessly)";

/** The scored scenarios that cannot pass in a mode, by revision, and why. */
function waiting(revision: string, stateless: boolean): Record<string, string> {
  if (!stateless || revision !== "2025-11-25") return {};
  return {
    "tools-call-sampling": NO_SESSION,
    "tools-call-elicitation": NO_SESSION,
    "elicitation-sep1034-defaults": NO_SESSION,
    "elicitation-sep1330-enums": NO_SESSION,
  };
}

/**
 * The checks that fail or warn inside a scored scenario, and why: in the scenarios that
 * cannot pass in a mode, and warnings in scenarios that pass (a SHOULD the suite could not exercise).
 */
function expectedChecks(scenario: string, revision: string, stateless: boolean): string[] {
  switch (scenario) {
    // A warning: a stateless server gives 2025-11-25 clients no session, by its configuration.
    case "server-sse-multiple-streams":
      return stateless ? ["server-sse-multiple-streams-session"] : [];
    default:
      return waiting(revision, stateless)[scenario] ? ["(any)"] : [];
  }
}

interface Run {
  status: number | null;
  output: string;
  /** The scored scenarios (the requirement set's), each with whether it passed (undefined: it did not run). */
  scored: Map<string, boolean | undefined>;
  /** Each scenario's checks that failed or warned. */
  failing: Map<string, string[]>;
}

/** The requirement set's scenarios, as the suite lists them (`server:` in requirements/<revision>.yaml). */
function required(revision: string): string[] {
  const yaml = fs.readFileSync(
    path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "requirements", `${revision}.yaml`),
    "utf8",
  );
  const section = /^server:\n((?:\s+- .*\n)+)/m.exec(yaml)![1];
  return [...section.matchAll(/- (\S+)/g)].map((m) => m[1]);
}

function conformance(url: string, revision: string): Run {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-conformance-"));
  try {
    const run = spawnSync(
      process.execPath,
      ["--import", NODE20, CLI, "server", "--url", url, "--requirements", revision, "-o", out],
      { cwd: out, encoding: "utf8", timeout: 300_000 },
    );
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
    const output = (run.stdout + run.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    // One line per scenario run: the scored ones and the others (listed again under "Not scored").
    const scenarios = new Map(
      [...output.matchAll(/^([✓✗]) ([a-z0-9-]+): \d+ passed, \d+ failed/gm)].map((m) => [m[2], m[1] === "✓"]),
    );
    const scored = new Map(required(revision).map((scenario) => [scenario, scenarios.get(scenario)]));
    const failing = new Map<string, string[]>();
    for (const entry of fs.readdirSync(out)) {
      const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(entry)?.[1];
      const file = path.join(out, entry, "checks.json");
      if (!scenario || !fs.existsSync(file)) continue;
      const checks = JSON.parse(fs.readFileSync(file, "utf8")) as { id: string; status: string }[];
      const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING").map((c) => c.id);
      if (bad.length) failing.set(scenario, bad.sort());
    }
    return { status: run.status, output, scored, failing };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/** Inside the package, where `typemcp` resolves to its own build (as the fixtures' modules do). */
const built = path.join(ROOT, ".build", "everything");
beforeAll(() => {
  fs.rmSync(built, { recursive: true, force: true });
  // As a user builds it: tspc with the plugin its tsconfig names (the package's built transformer).
  const tspc = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "ts-patch", "bin", "tspc.js"), "-p", EXAMPLE, "--outDir", built],
    { encoding: "utf8" },
  );
  expect(tspc.stdout + tspc.stderr).toBe("");
}, 120_000);

describe.each([{ stateless: false }, { stateless: true }])("stateless: $stateless", ({ stateless }) => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await serveHttp(path.join(built, "server.js"), { stateless });
  });
  afterAll(() => server.stop());

  test.each(["2025-11-25", "2026-07-28"])(
    "--requirements %s: every scored scenario passes",
    (revision) => {
      const run = conformance(server.url, revision);
      // Every scenario of the requirement set ran.
      expect([...run.scored].filter(([, passed]) => passed === undefined)).toEqual([]);
      const failed = [...run.scored].filter(([, passed]) => !passed).map(([scenario]) => scenario);
      expect(failed.sort()).toEqual(Object.keys(waiting(revision, stateless)).sort());
      // Inside the scored scenarios, no check fails or warns but those listed.
      const unexpected = [...run.failing]
        .filter(([scenario]) => run.scored.has(scenario))
        .filter(([scenario, checks]) => {
          const expected = expectedChecks(scenario, revision, stateless);
          return expected[0] !== "(any)" && JSON.stringify(checks) !== JSON.stringify(expected);
        });
      expect(unexpected).toEqual([]);
    },
    400_000,
  );
});
