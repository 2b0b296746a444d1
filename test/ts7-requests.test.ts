/**
 * What `typemcp build` asks TypeScript 7.1's API process, counted by the API's own client
 * (TS_API_TIMING_DIR: it writes its request count when it closes), on the benchmark's projects
 * (bench/generate.js: eight shapes of tool, one file each). What is asked of every tool one by
 * one costs a round trip per tool (docs/typescript-7.md#speed); what is asked of all of them at
 * once, one per build. Only time is left to the benchmark; these are counts.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./support/build";
import { runCli } from "./support/cli";
import { WITH_TS71 } from "./support/ts7";

const { generate } = require("../bench/generate") as { generate: (dir: string, n: number) => void };

/** The requests of one 7.1 build of `n` generated tools, and what it printed. */
function requestsOfBuild(n: number): { requests: number; summary: string } {
  const dir = path.join(ROOT, ".build", "ts7-requests", `n${n}`);
  generate(dir, n);
  const project = path.join(dir, "typemcp");
  const config = JSON.parse(fs.readFileSync(path.join(project, "tsconfig.json"), "utf8")) as {
    compilerOptions: Record<string, unknown>;
  };
  config.compilerOptions.plugins = [];
  fs.writeFileSync(path.join(project, "tsconfig.ts71.json"), JSON.stringify(config));
  const timing = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-ts7-requests-"));
  try {
    const run = runCli(["build", "-p", path.join(project, "tsconfig.ts71.json")], ROOT, {
      ...WITH_TS71,
      TS_API_TIMING_DIR: timing,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const dumps = fs.readdirSync(timing);
    // One API client: the build runs no other compiler (no tsc on 7.1).
    expect(dumps).toHaveLength(1);
    const dump = JSON.parse(fs.readFileSync(path.join(timing, dumps[0]), "utf8")) as {
      timing: { totals: { requestCount: number } };
    };
    return { requests: dump.timing.totals.requestCount, summary: run.stdout.trim().split("\n").at(-1)! };
  } finally {
    fs.rmSync(timing, { recursive: true, force: true });
  }
}

test("on TypeScript 7.1, 16 tools more cost 16 requests more: each file's syntax tree; every other question is asked of all tools at once", () => {
  const small = requestsOfBuild(16);
  const large = requestsOfBuild(32);
  expect(small.summary).toBe("16 tool registrations built: no errors, 0 warnings.");
  expect(large.summary).toBe("32 tool registrations built: no errors, 0 warnings.");
  // Per tool: its file's syntax tree (getSourceFile, one request each: see Ts7Project.ownSourceFiles).
  expect(large.requests - small.requests).toBe(16);
});
