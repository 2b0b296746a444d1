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

type Row = Record<string, Record<string, number>>;

const CASES = [
  ["2025-11-25", 8],
  ["2025-11-25", 1],
  ["2026-07-28", 8],
  ["2026-07-28", 1],
];
const caseLabel = (revision: string, shapes: number) =>
  `${revision}, ${shapes === 1 ? "1 shape (get_weather's)" : `${shapes} shapes`}`;

/** A measure of each contender, each a positive number. */
function expectContenders(measure: Record<string, number>) {
  expect(Object.keys(measure).sort()).toEqual(["floor", "typemcp", "zod"]);
  for (const value of Object.values(measure)) expect(value).toBeGreaterThan(0);
}

/**
 * The tools rows in process, each protocol revision on each project (eight shapes, and one),
 * each with its table, summary line and targets; and the per-call breakdown on both revisions,
 * each variant timed and each step reported.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function expectToolsRows(result: any, stdout: string) {
  expect(result.tools.map((row: { revision: string; shapes: number }) => [row.revision, row.shapes])).toEqual(CASES);
  for (const row of result.tools) {
    const label = caseLabel(row.revision, row.shapes);
    expect(row.first_window.calls).toBe(result.settings.first);
    const { list, first_window: first, call, first_call: firstCall } = row;
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
      firstCall.first_of_server_ms,
      row.setup_ms,
    ])
      expectContenders(measure);
    for (const ratio of [
      first.typemcp_over_floor,
      first.typemcp_over_zod,
      call.typemcp_over_floor,
      call.typemcp_over_zod,
    ])
      expect(ratio).toBeGreaterThan(0);
    expect(stdout).toContain(`#### Tools in process: ${label}\n`);
    expect(stdout).toContain(`| ${label} | `); // its line in the summary
    const window = `tools/call, ${label}, the first ${result.settings.first} calls from start`;
    const targets = result.targets.filter((t: { name: string }) => t.name.includes(`, ${label}`));
    expect(targets.map((t: { name: string; goal: string }) => [t.name, t.goal])).toEqual([
      [`${window}: typemcp ÷ floor`, "≥ 0.95×"],
      [`${window}: typemcp ÷ Zod`, "≥ 1×"],
      [`tools/call, ${label}, steady state: typemcp ÷ floor`, "≥ 0.95×"],
      [`tools/call, ${label}, steady state: typemcp ÷ Zod`, "≥ 1×"],
      [`tools/list first, ${label}: typemcp − floor`, "≤ 0.5 ms"],
      [`tools/list steady, ${label}: typemcp − floor`, "≤ 0.5 ms"],
    ]);
  }
  const { breakdown } = result;
  expect(breakdown.shapes).toBe(1);
  expect(breakdown.rows.map((row: { revision: string }) => row.revision)).toEqual(["2025-11-25", "2026-07-28"]);
  for (const row of breakdown.rows) {
    expect(Object.keys(row.us_per_call).sort()).toEqual(["bare", "floor", "full", "no-args", "no-result"]);
    for (const us of Object.values(row.us_per_call)) expect(us).toBeGreaterThan(0);
    expect(Object.keys(row.steps_us)).toEqual([
      "sdk",
      "instance_and_sdk_params",
      "call_steps",
      "result_check_and_wire_copy",
      "arguments_check",
    ]);
    for (const us of Object.values(row.steps_us)) expect(typeof us).toBe("number");
    expect(row.steps_us.sdk).toBeGreaterThan(0);
    expect(typeof row.typemcp_minus_floor_us).toBe("number");
    expect(stdout).toMatch(new RegExp(`\\| ${row.revision} \\| [0-9.,]+ \\|`));
  }
}

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
      "tools",
      "breakdown",
      "cold_start",
      "memory",
      "http",
      "prompts_resources",
      "asking",
      "build",
      "commands",
      "targets",
      "seconds_by_part",
    ]),
  );
  expect(result.quick).toBe(true);
  expectToolsRows(result, stdout);
  // Over stdio, memory and stateless HTTP: each on both revisions.
  for (const part of ["cold_start", "memory", "http"])
    expect(result[part].map((row: { revision: string }) => row.revision)).toEqual(["2025-11-25", "2026-07-28"]);
  const byContender = [
    ...result.cold_start.flatMap((row: Row) => [row.start_ms, row.first_call_ms]),
    ...result.memory.map((row: Row) => row.max_rss_mb),
    ...result.http.flatMap((row: Row) => [row.calls_per_s, row.p50_ms, row.p99_ms]),
  ];
  for (const measure of byContender) expectContenders(measure);
  for (const row of result.cold_start) {
    expect(stdout).toContain(`| cold start, ${row.revision}: stdio spawn → tools/list (ms) |`);
    expect(stdout).toContain(`| first call in a fresh process, ${row.revision}, stdio (ms) |`);
  }
  for (const row of result.http)
    expect(stdout).toContain(`| stateless Streamable HTTP, ${row.revision}, keep-alive client: tools/call (calls/s) |`);
  const targetNamesOf = (targets: { name: string }[]) => targets.map((t) => t.name);
  for (const revision of ["2025-11-25", "2026-07-28"])
    expect(targetNamesOf(result.targets)).toEqual(
      expect.arrayContaining([
        `first call of a fresh process (stdio), ${revision}: typemcp − floor`,
        `cold start (stdio spawn → tools/list), ${revision}: typemcp ÷ floor`,
        `peak RSS after 500 calls over all tools, ${revision}: typemcp ÷ floor`,
        `tools/call over stateless HTTP, ${revision}: typemcp ÷ floor`,
      ]),
    );
  // Every part's seconds, for the run's duration from its settings.
  expect(Object.keys(result.seconds_by_part)).toEqual([
    "prepare",
    "tools",
    "breakdown",
    "prompts_resources",
    "asking",
    "cold_start",
    "memory",
    "http",
    "build",
    "commands",
  ]);
  // The prompts' and resources' rows: each request on both revisions, each contender's answers
  // compared with the floor's in every round (each item of 3 rows, typemcp's and McpServer's, on 2 revisions).
  const promptsAndResources = result.prompts_resources;
  expect(promptsAndResources.answers_compared).toBe(result.settings.rounds * 2 * 3 * 2 * promptsAndResources.items);
  expect(
    promptsAndResources.rows.map((row: { method: string; revision: string }) => `${row.method} ${row.revision}`),
  ).toEqual([
    "prompts/get 2025-11-25",
    "prompts/get 2026-07-28",
    "resources/read 2025-11-25",
    "resources/read 2026-07-28",
    "resources/read 2025-11-25",
    "resources/read 2026-07-28",
  ]);
  for (const row of promptsAndResources.rows) {
    for (const measure of [row.calls_per_s, row.p50_ms, row.p99_ms]) {
      expect(Object.keys(measure).sort()).toEqual(["floor", "typemcp", "zod"]);
      for (const value of Object.values(measure)) expect(value).toBeGreaterThan(0);
    }
    for (const contender of ["floor", "typemcp", "zod"])
      expect(row.p50_ms[contender]).toBeLessThanOrEqual(row.p99_ms[contender]);
    expect(row.typemcp_over_floor).toBeGreaterThan(0);
    expect(row.typemcp_over_zod).toBeGreaterThan(0);
    expect(stdout).toContain(`| ${row.label}, ${row.revision} (requests/s) |`);
  }
  // The elicitation round trip on both revisions: every contender answered the same final result
  // in every round (compared whole by the harness), the text the tool returns, after the one
  // question the build wrote the form of.
  const { asking } = result;
  expect(asking.answers_compared).toBe(result.settings.rounds * 2 * 3);
  expect(asking.rows.map((row: { revision: string }) => row.revision)).toEqual(["2025-11-25", "2026-07-28"]);
  const form = {
    type: "object",
    properties: { confirm: { type: "boolean", description: "Book the room?" } },
    required: ["confirm"],
  };
  for (const row of asking.rows) {
    expect(row.final_text).toBe("Booked 3 nights.");
    for (const measure of [row.round_trips_per_s, row.us_per_round_trip, row.p50_ms, row.p99_ms]) {
      expect(Object.keys(measure).sort()).toEqual(["typemcp", "zod", "zod_state"]);
      for (const value of Object.values(measure)) expect(value).toBeGreaterThan(0);
    }
    expect(row.typemcp_over_zod).toBeGreaterThan(0);
    expect(row.typemcp_over_zod_state).toBeGreaterThan(0);
    expect(stdout).toContain(`| one round trip, ${row.revision} (round trips/s) |`);
  }
  const [legacy, modern] = asking.rows;
  // 2025-11-25: the server's elicitation/create request, typemcp's form as the build wrote it.
  expect(legacy.question.typemcp).toEqual({
    message: "Book 3 nights?",
    requestedSchema: form,
    mode: "form",
    _meta: { progressToken: 0 },
  });
  expect(legacy.question.zod.message).toBe("Book 3 nights?");
  // 2026-07-28: the input_required result's questions, by key (typemcp's `elicit-1`, McpServer's `confirm`).
  expect(modern.question.typemcp).toEqual({
    "elicit-1": {
      method: "elicitation/create",
      params: { message: "Book 3 nights?", requestedSchema: form, mode: "form" },
    },
  });
  expect(Object.keys(modern.question.zod)).toEqual(["confirm"]);
  expect(Object.keys(modern.question.zod_state)).toEqual(["confirm"]);
  for (const measure of ["digest_us", "mint_us", "open_us", "node_hash_us", "state_bytes"])
    expect(asking.state[measure]).toBeGreaterThan(0);
  const targetNames = result.targets.map((t: { name: string }) => t.name);
  for (const row of promptsAndResources.rows) {
    expect(targetNames).toContain(`${row.label}, ${row.revision}: typemcp ÷ floor`);
    expect(targetNames).toContain(`${row.label}, ${row.revision}: typemcp ÷ McpServer`);
  }
  expect(result.build.sizes.length).toBeGreaterThan(0);
  // The commands: each run timed, and the ratios taken from the best runs.
  const { best_ms: best } = result.commands;
  expect(Object.keys(best).sort()).toEqual([
    "patched",
    "patched_without_plugin",
    "tsc",
    "tsc7",
    "tsc71",
    "tspc",
    "tspc_without_plugin",
    "typemcp_build7",
    "typemcp_build71",
  ]);
  for (const ms of Object.values(best)) expect(ms).toBeGreaterThan(0);
  expect(result.commands.ts7_build_over_tsc7).toBeCloseTo(best.typemcp_build7 / best.tsc7, 2);
  expect(result.commands.ts7_build_over_tspc).toBeCloseTo(best.typemcp_build7 / best.tspc, 2);
  expect(result.commands.ts71_build_over_tsc71).toBeCloseTo(best.typemcp_build71 / best.tsc71, 2);
  expect(result.targets.map((t: { name: string }) => t.name)).toEqual(
    expect.arrayContaining([
      expect.stringContaining("TypeScript 7: typemcp build ÷ TypeScript 7's tsc alone"),
      expect.stringContaining("TypeScript 7.1: typemcp build ÷ TypeScript 7.1's tsc alone"),
      expect.stringContaining("typemcp build on TypeScript 7 ÷ tspc + typemcp on TypeScript 5.9"),
    ]),
  );
  expect(result.commands.tspc_over_tsc).toBeCloseTo(best.tspc / best.tsc, 2); // the JSON line keeps 4 significant digits
  expect(result.commands.plugin_over_ts_patch).toBeCloseTo(best.tspc / best.tspc_without_plugin, 2);
  expect(result.commands.patched_over_tsc).toBeCloseTo(best.patched / best.tsc, 2);
  expect(result.commands.plugin_over_patch).toBeCloseTo(best.patched / best.patched_without_plugin, 2);
  for (const target of result.targets) expect(typeof target.met).toBe("boolean");
}, 900_000); // the tools rows on two revisions and two projects, and the builds: minutes on a shared 2-core machine

test("bench/run.js --only=build7 times both TypeScript 7s' tsc and typemcp build three ways, and prints their ratios", async () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("BENCH_")));
  env.BENCH_DIR = path.join(ROOT, ".build", "bench-test-build7");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, "bench", "run.js"), "--quick", "--only=build7"],
    { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
  );
  expect(stdout).toContain("| command | run as | best (ms) | median (ms) | typemcp build ÷ tsc (best) |");
  const result = JSON.parse(stdout.trim().split("\n").pop()!);
  const runs = ["tsc7", "typemcp_build7", "tsc71", "typemcp_build71"].flatMap((name) =>
    ["node", "binary", "npx"].map((way) => `${name}:${way}`),
  );
  expect(Object.keys(result.commands.best_ms)).toEqual(runs);
  for (const ms of Object.values(result.commands.best_ms)) expect(ms).toBeGreaterThan(0);
  for (const [build, tsc] of [
    ["typemcp_build7", "tsc7"],
    ["typemcp_build71", "tsc71"],
  ])
    for (const way of ["node", "binary", "npx"])
      expect(result.commands.build_over_tsc[`${build}:${way}`]).toBeCloseTo(
        result.commands.best_ms[`${build}:${way}`] / result.commands.best_ms[`${tsc}:${way}`],
        6,
      );
}, 600_000);

test("bench/run.js --only=tools measures the tools rows on both revisions and projects, and the per-call breakdown, alone", async () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("BENCH_")));
  env.BENCH_DIR = path.join(ROOT, ".build", "bench-test-tools");
  const args = [path.join(ROOT, "bench", "run.js"), "--quick", "--only=tools", "--n=16", "--rounds=1"];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });

  const result = JSON.parse(stdout.trim().split("\n").pop()!);
  expect(Object.keys(result)).toEqual(["bench", "quick", "settings", "tools", "breakdown", "targets", "machine"]);
  expect(result.settings).toMatchObject({ only: "tools", n: 16, rounds: 1 });
  expectToolsRows(result, stdout);
  expect(result.targets).toHaveLength(CASES.length * 6);
}, 300_000);

test("the benchmark stops when a contender answers a prompt or resource otherwise than the floor, _meta and cache fields included", () => {
  const { compareAnswers } = require("../bench/servers") as {
    compareAnswers: (answers: Record<string, Record<string, unknown[]>>, revision: string) => number;
  };
  const text = (value: string) => ({
    contents: [{ uri: "bench://config-0", mimeType: "application/json", text: value }],
  });
  const message = { messages: [{ role: "user", content: { type: "text", text: "Review" } }] };
  const answersOf = (resource: object, meta: object = {}) => ({
    prompt: [{ result: { ...message, ...meta } }],
    resource: [{ result: { ...resource, ...meta } }],
    template: [{ result: { ...text("{}"), ...meta } }],
  });
  const modern = { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "bench" } } };
  const floor = answersOf(text('{ "a": 1 }'), modern);

  // 3 rows of one item each, typemcp's and McpServer's compared with the floor's.
  expect(compareAnswers({ floor, typemcp: answersOf(text('{ "a": 1 }'), modern), zod: floor }, "2026-07-28")).toBe(6);
  expect(() =>
    compareAnswers({ floor, typemcp: floor, zod: answersOf(text('{ "a": 2 }'), modern) }, "2026-07-28"),
  ).toThrow(
    `bench: McpServer+Zod answers resources/read (2026-07-28, resource 0) otherwise than the floor:\n${JSON.stringify({ ...text('{ "a": 2 }'), ...modern })}\nthe floor:\n${JSON.stringify({ ...text('{ "a": 1 }'), ...modern })}`,
  );
  // The fields the SDK adds count too: an answer without them, or with other cache fields, is another answer.
  expect(() => compareAnswers({ floor, typemcp: answersOf(text('{ "a": 1 }')), zod: floor }, "2025-11-25")).toThrow(
    "bench: typemcp answers prompts/get (2025-11-25, prompt 0) otherwise than the floor",
  );
  const cached = { ...modern, ttlMs: 60_000, cacheScope: "private" };
  expect(() =>
    compareAnswers(
      { floor, typemcp: floor, zod: { ...floor, template: answersOf(text("{}"), cached).template } },
      "2026-07-28",
    ),
  ).toThrow("bench: McpServer+Zod answers resources/read (2026-07-28, template 0) otherwise than the floor");
});

test("the benchmark stops when a contender ends the elicitation round trip otherwise than typemcp, or not with the tool's text", () => {
  const { compareFinalAnswers } = require("../bench/asking") as {
    compareFinalAnswers: (answers: Record<string, { result?: object; error?: object }>, revision: string) => string;
  };
  const booked = (text: string, more: object = {}) => ({
    result: { content: [{ type: "text", text }], structuredContent: { result: text }, ...more },
  });
  const same = booked("Booked 3 nights.");
  expect(compareFinalAnswers({ typemcp: same, zod: same, zod_state: same }, "2025-11-25")).toBe("Booked 3 nights.");
  expect(() =>
    compareFinalAnswers({ typemcp: same, zod: booked("Nothing booked."), zod_state: same }, "2025-11-25"),
  ).toThrow(
    'bench: McpServer+Zod answered the round trip (2025-11-25) with {"content":[{"type":"text","text":"Nothing booked."}],"structuredContent":{"result":"Nothing booked."}}, not the text "Booked 3 nights."',
  );
  const error = { error: { code: -32602, message: "Invalid or expired requestState" } };
  expect(() => compareFinalAnswers({ typemcp: same, zod: same, zod_state: error }, "2026-07-28")).toThrow(
    'bench: McpServer+Zod, signed state answered the round trip (2026-07-28) with {"code":-32602,"message":"Invalid or expired requestState"}',
  );
  // The same text is not enough: the whole result, the fields the SDK adds included.
  const modern = booked("Booked 3 nights.", { resultType: "complete" });
  expect(() => compareFinalAnswers({ typemcp: modern, zod: same, zod_state: modern }, "2026-07-28")).toThrow(
    "bench: McpServer+Zod answers the round trip (2026-07-28) otherwise than typemcp",
  );
});

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
    stderr: expect.stringContaining(
      "bench: unknown argument --dryrun (--n=, --warmup=, --calls=, --dry-run, --per-call [--shapes=])",
    ),
  });
});

test("bench/traces.js runs its three settings on both revisions and prints their JSON", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, "bench", "traces.js"), "--calls=50", "--rounds=1"],
    { cwd: ROOT },
  );
  const result = JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, Record<string, { perSecond: number }>>;
  expect(Object.keys(result)).toEqual(["2025-11-25", "2026-07-28"]);
  for (const revision of Object.values(result)) {
    expect(Object.keys(revision)).toEqual(["absent", "no provider", "recording"]);
    for (const { perSecond } of Object.values(revision)) expect(perSecond).toBeGreaterThan(0);
  }
});

test("bench/instructions.js --per-call --dry-run runs every process of the per-call breakdown, on both revisions", async () => {
  // The count itself (valgrind) is `npm run bench:instructions -- --per-call`, not a test.
  const env = { ...process.env, BENCH_DIR: path.join(ROOT, ".build", "bench-test-instructions") };
  const args = [
    path.join(ROOT, "bench", "instructions.js"),
    "--per-call",
    "--dry-run",
    "--n=8",
    "--warmup=20",
    "--calls=40",
  ];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });

  expect(stdout).toContain("dry run: 36 runs completed, no instructions counted\n");
  const result = JSON.parse(stdout.trim().split("\n").pop()!);
  expect(result.settings).toEqual({ n: 8, warmup: 20, calls: 40, shapes: 1 });
  const perRevision = (revision: string) => [
    ...["typemcp", "floor", "zod"].flatMap((c) => [`${revision} ${c} 20`, `${revision} ${c} 60`]),
    ...["no-args", "no-result", "bare"].flatMap((v) => [`${revision} typemcp ${v} 20`, `${revision} typemcp ${v} 60`]),
    ...["typemcp", "floor", "zod"].flatMap((c) => [`${revision} ${c} open`, `${revision} ${c} open + first call`]),
  ];
  expect(result.runs).toEqual([...perRevision("2025-11-25"), ...perRevision("2026-07-28")]);
}, 300_000);
