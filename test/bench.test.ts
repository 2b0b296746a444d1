/**
 * The benchmark harnesses on small inputs: bench/run.js in quick mode runs to the end and
 * prints its JSON line with every measure; bench/instructions.js runs every process it would
 * count, without valgrind. Timings and counts are never asserted: they belong to `npm run bench`
 * and `npm run bench:instructions`.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(__dirname, "..");

test("bench/run.js --quick completes and prints one JSON line with every measure", async () => {
  // The caller's BENCH_* settings would turn the quick run into a long one.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("BENCH_")));
  env.BENCH_DIR = path.join(ROOT, ".build", "bench-test");
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, "bench", "run.js"), "--quick"], {
    cwd: ROOT,
    env,
    maxBuffer: 64 * 1024 * 1024,
  });

  expect(stdout).toContain("| measure | typemcp | McpServer+Zod | floor |");
  const result = JSON.parse(stdout.trim().split("\n").pop()!);
  expect(Object.keys(result)).toEqual(
    expect.arrayContaining([
      "bench",
      "quick",
      "settings",
      "list",
      "first_window",
      "call",
      "first_call",
      "cold_start",
      "memory",
      "http",
      "build",
      "commands",
      "targets",
    ]),
  );
  expect(result.quick).toBe(true);
  expect(result.first_window.calls).toBe(result.settings.first);
  const { list, first_window: first, call, first_call: firstCall, cold_start: cold, memory, http } = result;
  for (const measure of [
    list.first_ms,
    list.steady_ms,
    first.calls_per_s,
    first.p50_ms,
    first.p99_ms,
    call.calls_per_s,
    call.p50_ms,
    call.p99_ms,
    firstCall.median_ms,
    cold.start_ms,
    cold.first_call_ms,
    memory.max_rss_mb,
    http.calls_per_s,
    http.p50_ms,
    http.p99_ms,
  ]) {
    expect(Object.keys(measure).sort()).toEqual(["floor", "typemcp", "zod"]);
  }
  expect(result.build.sizes.length).toBeGreaterThan(0);
  // The commands: each run timed, and the ratios taken from the best runs.
  const { best_ms: best } = result.commands;
  expect(Object.keys(best).sort()).toEqual([
    "patched",
    "patched_without_plugin",
    "tsc",
    "tsc7",
    "tspc",
    "tspc_without_plugin",
    "typemcp_build7",
  ]);
  for (const ms of Object.values(best)) expect(ms).toBeGreaterThan(0);
  expect(result.commands.ts7_build_over_tsc7).toBeCloseTo(best.typemcp_build7 / best.tsc7, 2);
  expect(result.commands.ts7_build_over_tspc).toBeCloseTo(best.typemcp_build7 / best.tspc, 2);
  expect(result.targets.map((t: { name: string }) => t.name)).toEqual(
    expect.arrayContaining([
      expect.stringContaining("TypeScript 7: typemcp build ÷ TypeScript 7's tsc alone"),
      expect.stringContaining("typemcp build on TypeScript 7 ÷ tspc + typemcp on TypeScript 5.9"),
    ]),
  );
  expect(result.commands.tspc_over_tsc).toBeCloseTo(best.tspc / best.tsc, 2); // the JSON line keeps 4 significant digits
  expect(result.commands.plugin_over_ts_patch).toBeCloseTo(best.tspc / best.tspc_without_plugin, 2);
  expect(result.commands.patched_over_tsc).toBeCloseTo(best.patched / best.tsc, 2);
  expect(result.commands.plugin_over_patch).toBeCloseTo(best.patched / best.patched_without_plugin, 2);
  for (const target of result.targets) expect(typeof target.met).toBe("boolean");
}, 300_000);

test("bench/instructions.js --dry-run runs everything it would count, once, without valgrind", async () => {
  // The count itself (valgrind, ~27 minutes) is `npm run bench:instructions`, not a test.
  const env = { ...process.env, BENCH_DIR: path.join(ROOT, ".build", "bench-test-instructions") };
  const args = [path.join(ROOT, "bench", "instructions.js"), "--dry-run", "--n=8", "--warmup=20", "--calls=40"];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });

  expect(stdout).toContain("dry run: 11 runs completed, no instructions counted\n");
  expect(JSON.parse(stdout.trim().split("\n").pop()!)).toEqual({
    bench: "typemcp-instructions",
    dry_run: true,
    settings: { n: 8, warmup: 20, calls: 40 },
    runs: [
      "session typemcp 20",
      "session floor 20",
      "session typemcp 60",
      "session floor 60",
      "build plain",
      "build typemcp",
      "command tsc",
      "command tspc_without_plugin",
      "command tspc",
      "command patched_without_plugin",
      "command patched",
    ],
  });
}, 300_000);

test("bench/instructions.js refuses an argument it does not know, before any work", async () => {
  await expect(
    promisify(execFile)(process.execPath, [path.join(ROOT, "bench", "instructions.js"), "--dryrun"], { cwd: ROOT }),
  ).rejects.toMatchObject({
    stderr: expect.stringContaining("bench: unknown argument --dryrun (--n=, --warmup=, --calls=, --dry-run)"),
  });
});
