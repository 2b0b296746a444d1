// typemcp's benchmark: typemcp vs the SDK's McpServer with Zod schemas vs the floor (the
// SDK's low-level Server, precomputed JSON Schemas, no validation), measured side by side
// in one run on the same generated tools. Absolute times depend on the machine; the ratios
// measured in the same run are the point.
//
//   npm run bench                  (builds dist/ first)
//   node bench/run.js [--quick] [--n=500] [--rounds=5] ...   (--help lists them; or BENCH_N=500, ...)
//
// Prints markdown tables, then one line of JSON with every number.
"use strict";
const { execFileSync, fork, spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ROOT, TEMPLATES, generate } = require("./generate");
const { ITEMS, ROWS } = require("./prompts-resources");
const {
  CONTENDERS,
  LABELS,
  REVISIONS,
  modulePath,
  promptsDir,
  oneShapeDir,
  askingDir,
  compareAnswers,
  child,
  prepare,
  prepareAsking,
  prepareTools,
  preparePromptsAndResources,
} = require("./servers");
const asking = require("./asking");
const { coldStart } = require("./cold");
const {
  COMMANDS,
  TS7_COMMANDS,
  COMMAND_LABELS,
  buildCommands,
  outputRoot,
  commandArgs,
  ts7CommandRun,
  ts7CommandWays,
} = require("./commands");

/** name → [default, quick default, what it is]. Set with --name=value or BENCH_NAME=value. */
const SETTINGS = {
  n: [500, 24, "tools in the runtime measurements"],
  rounds: [5, 2, "in-process rounds (one child process per contender, protocol revision and project each)"],
  first: [
    20000,
    400,
    "tools/call per contender per round from the server's start (every tool's first among them), timed as one window",
  ],
  calls: [40000, 800, "tools/call per contender per round after that window, for steady-state throughput"],
  slices: [20, 4, "throughput slices per round, the contenders' in turn (ratios are taken slice by slice)"],
  lists: [20, 5, "steady-state tools/list per contender per round"],
  requests: [
    16000,
    300,
    "prompts/get and resources/read per contender, row and protocol revision per round, for steady-state throughput",
  ],
  request_slices: [8, 3, "throughput slices per row, revision and round, the contenders' in turn"],
  asks: [4000, 120, "elicitation round trips per contender, protocol revision and round, for throughput"],
  ask_slices: [8, 3, "round-trip throughput slices per revision and round, the contenders' in turn"],
  breakdown_calls: [
    20000,
    400,
    "tools/call per variant of the per-call breakdown, revision and round, after every tool's first",
  ],
  breakdown_slices: [10, 2, "per-call breakdown slices per revision and round, the variants' in turn"],
  breakdown_rounds: [3, 1, "per-call breakdown rounds (one child process per variant and revision each)"],
  breakdown_shapes: [1, 1, "shapes of the per-call breakdown's project: 1 (get_weather's) or 8 (the project's)"],
  cold: [8, 2, "stdio spawns per contender and protocol revision"],
  memory_calls: [10000, 500, "calls before peak RSS is read"],
  memory_runs: [3, 1, "memory child processes per contender and protocol revision"],
  http_calls: [
    10000,
    400,
    "tools/call per contender and protocol revision over stateless Streamable HTTP, after every tool's first",
  ],
  http_slices: [20, 4, "HTTP throughput slices per revision, the contenders' in turn"],
  build_sizes: ["50,500,2000", "8,24", "project sizes for the build measurement"],
  build_rounds: [5, 1, "builds per size and side, each in a fresh process"],
  command_rounds: [5, 1, "whole tsc / tspc runs per command, at n tools"],
};

/** What --only may name: one part measured alone. */
const ONLY = ["asking", "build7", "prompts-resources", "tools"];

function readSettings(argv, env) {
  if (argv.includes("--help")) {
    for (const [name, [full, fast, what]] of Object.entries(SETTINGS))
      console.log(`--${name.replace(/_/g, "-")}=${full} (quick: ${fast})  ${what}`);
    console.log("--only=asking  the elicitation round trip alone (its project, its rows, the requestState's cost)");
    console.log(
      "--only=build7  TypeScript 7.0's and 7.1's tsc against typemcp build, at n tools: through node, the binaries, npx",
    );
    console.log(
      "--only=prompts-resources  prompts/get and resources/read alone (their project, their rows and targets)",
    );
    console.log(
      "--only=tools  the tools rows in process alone (both revisions, both projects) and the per-call breakdown, with their targets",
    );
    process.exit(0);
  }
  const quick = argv.includes("--quick") || env.BENCH_QUICK === "1";
  // --only=asking: the elicitation round trip alone (its project, its rows, the requestState's cost);
  // --only=prompts-resources: the prompts' and resources' rows alone; --only=tools: the tools
  // rows in process and the per-call breakdown alone.
  const only = argv.find((a) => a.startsWith("--only="))?.split("=")[1] ?? env.BENCH_ONLY;
  if (only !== undefined && !ONLY.includes(only))
    throw new Error(`bench: --only takes ${ONLY.join(" or ")}, got ${only}`);
  const settings = { quick, only };
  for (const [name, [full, fast]] of Object.entries(SETTINGS)) {
    const flag = argv.find((a) => a.startsWith(`--${name.replace(/_/g, "-")}=`));
    const raw = flag ? flag.split("=")[1] : env[`BENCH_${name.toUpperCase()}`];
    const value = raw ?? (quick ? fast : full);
    settings[name] = typeof full === "number" ? Number(value) : String(value);
    if (typeof full === "number" && !(settings[name] >= 1))
      throw new Error(`bench: ${name} must be a positive number, got ${raw}`);
  }
  settings.build_sizes = settings.build_sizes.split(",").map(Number);
  if (![1, TEMPLATES.length].includes(settings.breakdown_shapes))
    throw new Error(`bench: breakdown-shapes is 1 or ${TEMPLATES.length}, got ${settings.breakdown_shapes}`);
  return settings;
}

const log = (message) => process.stderr.write(`[bench] ${message}\n`);

const median = (values) => {
  const sorted = values.filter((v) => typeof v === "number" && !Number.isNaN(v)).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Medians of paired measurements (same round or spawn): pairs taken close in time share the machine's noise. */
const pairedRatio = (a, b) => median(a.map((x, i) => x / b[i]));
const pairedDiff = (a, b) => median(a.map((x, i) => x - b[i]));

/** Two or three things measured in turn: forward in even rounds, backward in odd ones, so that none always goes first. */
const inTurn = (names, round) => (round % 2 ? [...names].reverse() : names);

/** The order of the contenders in round r: each permutation in turn, so that none always goes first or after the same one. */
const PERMUTATIONS = [
  [0, 1, 2],
  [1, 2, 0],
  [2, 0, 1],
  [0, 2, 1],
  [2, 1, 0],
  [1, 0, 2],
];
const orderOf = (r) => PERMUTATIONS[r % PERMUTATIONS.length].map((i) => CONTENDERS[i]);

/** { typemcp: [...], zod: [...], floor: [...] } from records { typemcp: {key: value}, ... } (or { typemcp: value } without key). */
const column = (records, key) =>
  Object.fromEntries(CONTENDERS.map((c) => [c, records.map((r) => (key ? r[c][key] : r[c]))]));
const medians = (s) => Object.fromEntries(CONTENDERS.map((c) => [c, median(s[c])]));

/**
 * A round child (bench/inproc.js round, or requests for the prompts and resources): its set-up
 * measures, then throughput slices on request (of a row, for requests).
 */
function roundChild(dir, contender, childSettings, mode = "round") {
  const proc = fork(path.join(__dirname, "inproc.js"), [mode, dir, contender, JSON.stringify(childSettings)], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const next = () =>
    new Promise((resolve, reject) => {
      const onExit = (code) => reject(new Error(`bench: the ${contender} round child exited (${code})`));
      proc.once("exit", onExit);
      proc.once("message", (message) => {
        proc.off("exit", onExit);
        resolve(message);
      });
    });
  return {
    ready: next().then((message) => message.ready),
    slice: (k, row) => {
      const answer = next().then((message) => message.rate);
      proc.send({ slice: k, row });
      return answer;
    },
    latency: () => {
      const answer = next();
      proc.send({ latency: true });
      return answer;
    },
    stop: () => proc.send({}),
  };
}

/** The tools' projects: every shape (the project's eight), and one (get_weather's), at n tools each. */
const SHAPES = [TEMPLATES.length, 1];

/** The tools' rows: each protocol revision on each project, in this order in the report. */
const TOOL_CASES = REVISIONS.flatMap((revision) => SHAPES.map((shapes) => ({ revision, shapes })));

const projectOf = (dir, shapes) => (shapes === 1 ? oneShapeDir(dir) : dir);
const shapesLabel = (shapes) => (shapes === 1 ? "1 shape (get_weather's)" : `${shapes} shapes`);
const caseLabel = ({ revision, shapes }) => `${revision}, ${shapesLabel(shapes)}`;

/**
 * Rounds of one child per contender, for each protocol revision and project (TOOL_CASES, in
 * turn within each round). Set-up measures (tools/list, first calls) come from each child once
 * it is ready; throughput slices then alternate between the three children, each contender's
 * slice k measured right before or after the others' (the order turns every slice), and the
 * ratios are taken slice by slice.
 */
async function measureInProcess(dir, settings) {
  const measured = TOOL_CASES.map(() => ({ rounds: [], slices: [] }));
  for (let r = 0; r < settings.rounds; r++) {
    for (const i of inTurn(
      TOOL_CASES.map((_, i) => i),
      r,
    )) {
      const { revision, shapes } = TOOL_CASES[i];
      log(`in-process, ${caseLabel(TOOL_CASES[i])}: round ${r + 1}/${settings.rounds}`);
      const childSettings = {
        first: settings.first,
        calls: settings.calls,
        slices: settings.slices,
        lists: settings.lists,
        shapes,
        revision,
      };
      const record = {};
      const children = {};
      for (const c of orderOf(r)) {
        children[c] = roundChild(projectOf(dir, shapes), c, childSettings);
        record[c] = await children[c].ready; // set up one at a time: nothing else runs meanwhile
      }
      const roundSlices = [];
      for (let k = 0; k < settings.slices; k++) {
        const slice = {};
        for (const c of orderOf(r + k)) slice[c] = await children[c].slice(k);
        roundSlices.push(slice);
      }
      const rates = column(roundSlices);
      for (const c of CONTENDERS) {
        record[c].calls_per_s = median(rates[c]);
        const { p50_ms, p99_ms } = await children[c].latency();
        Object.assign(record[c], { p50_ms, p99_ms });
        children[c].stop();
      }
      measured[i].slices.push(...roundSlices);
      measured[i].rounds.push(record);
    }
  }
  return TOOL_CASES.map(({ revision, shapes }, i) => ({
    revision,
    shapes,
    ...inProcessMeasures(measured[i].rounds, measured[i].slices, settings),
  }));
}

/** One tools row's measures (a revision on a project) from its rounds' records and its slices. */
function inProcessMeasures(rounds, sliceRates, settings) {
  const first = column(rounds, "first_list_ms");
  const steady = column(rounds, "steady_list_ms");
  const calls = column(rounds, "calls_per_s");
  const firstWindow = column(rounds, "first_window_calls_per_s");
  const slices = column(sliceRates);
  return {
    list: {
      first_ms: medians(first),
      steady_ms: medians(steady),
      typemcp_minus_floor_ms: {
        first: pairedDiff(first.typemcp, first.floor),
        steady: pairedDiff(steady.typemcp, steady.floor),
      },
      zod_over_typemcp: {
        first: pairedRatio(first.zod, first.typemcp),
        steady: pairedRatio(steady.zod, steady.typemcp),
      },
    },
    call: {
      calls_per_s: medians(calls),
      // Paired slice by slice: measured within a second of each other.
      typemcp_over_floor: pairedRatio(slices.typemcp, slices.floor),
      typemcp_over_zod: pairedRatio(slices.typemcp, slices.zod),
      p50_ms: medians(column(rounds, "p50_ms")),
      p99_ms: medians(column(rounds, "p99_ms")),
    },
    // The first calls from the server's start, one window per process: paired round by round.
    first_window: {
      calls: settings.first,
      calls_per_s: medians(firstWindow),
      typemcp_over_floor: pairedRatio(firstWindow.typemcp, firstWindow.floor),
      typemcp_over_zod: pairedRatio(firstWindow.typemcp, firstWindow.zod),
      p50_ms: medians(column(rounds, "first_window_p50_ms")),
      p99_ms: medians(column(rounds, "first_window_p99_ms")),
    },
    first_call: {
      median_ms: medians(column(rounds, "first_call_ms")),
      max_ms: medians(column(rounds, "first_call_max_ms")),
      first_of_server_ms: medians(column(rounds, "very_first_call_ms")),
    },
    setup_ms: medians(column(rounds, "setup_ms")),
  };
}

/** The per-call breakdown's children: the floor, then typemcp with fewer and fewer of its steps stubbed. */
const BREAKDOWN = ["floor", "bare", "no-result", "no-args", "full"];

/** The order of the breakdown's children in turn k: each rotation, forward then backward, so that none always goes first or after the same one. */
const breakdownOrder = (k) => {
  const at = k % BREAKDOWN.length;
  const rotated = [...BREAKDOWN.slice(at), ...BREAKDOWN.slice(0, at)];
  return Math.floor(k / BREAKDOWN.length) % 2 ? rotated.reverse() : rotated;
};

/**
 * Where a tools/call's time goes, on both protocol revisions (bench/breakdown.js's variants, by
 * the clock): in each round and revision one child per variant (the floor; typemcp bare,
 * without its result's handling, without its arguments' check, whole), each of them having
 * called every tool once, then slices of calls, the variants' in turn. Each step is the
 * difference in µs per call between two variants, taken slice by slice (pairedDiff): what the
 * floor's whole call costs (the SDK's), then what typemcp adds over it step by step.
 */
async function measureBreakdown(dir, settings) {
  const project = projectOf(dir, settings.breakdown_shapes);
  const childSettings = { calls: settings.breakdown_calls, slices: settings.breakdown_slices };
  const measured = Object.fromEntries(REVISIONS.map((revision) => [revision, { rounds: [], slices: [] }]));
  const byVariant = (records, key) =>
    Object.fromEntries(BREAKDOWN.map((v) => [v, records.map((r) => (key ? r[v][key] : r[v]))]));
  for (let r = 0; r < settings.breakdown_rounds; r++) {
    for (const revision of inTurn(REVISIONS, r)) {
      log(`per-call breakdown, ${revision}: round ${r + 1}/${settings.breakdown_rounds}`);
      const children = {};
      for (const v of breakdownOrder(r)) {
        children[v] = roundChild(project, v, { ...childSettings, revision }, "breakdown");
        await children[v].ready; // one at a time: nothing else runs meanwhile
      }
      const roundSlices = [];
      for (let k = 0; k < settings.breakdown_slices; k++) {
        const slice = {};
        for (const v of breakdownOrder(r + k)) slice[v] = 1e6 / (await children[v].slice(k)); // µs per call
        roundSlices.push(slice);
      }
      const us = byVariant(roundSlices);
      const record = {};
      for (const v of BREAKDOWN) {
        record[v] = { us_per_call: median(us[v]), ...(await children[v].latency()) };
        children[v].stop();
      }
      measured[revision].slices.push(...roundSlices);
      measured[revision].rounds.push(record);
    }
  }
  const rows = REVISIONS.map((revision) => {
    const { rounds, slices } = measured[revision];
    const us = byVariant(slices);
    return {
      revision,
      us_per_call: Object.fromEntries(BREAKDOWN.map((v) => [v, median(byVariant(rounds, "us_per_call")[v])])),
      // Each step: the variant with it minus the variant with it stubbed, paired slice by slice.
      steps_us: {
        sdk: median(us.floor),
        instance_and_sdk_params: pairedDiff(us.bare, us.floor),
        call_steps: pairedDiff(us["no-result"], us.bare),
        result_check_and_wire_copy: pairedDiff(us["no-args"], us["no-result"]),
        arguments_check: pairedDiff(us.full, us["no-args"]),
      },
      typemcp_minus_floor_us: pairedDiff(us.full, us.floor),
      p50_ms: Object.fromEntries(BREAKDOWN.map((v) => [v, median(byVariant(rounds, "p50_ms")[v])])),
    };
  });
  return {
    shapes: settings.breakdown_shapes,
    calls: settings.breakdown_calls,
    slices: settings.breakdown_slices,
    rounds: settings.breakdown_rounds,
    rows,
  };
}

/**
 * The prompts' and resources' rows (bench/prompts-resources.js) on both protocol revisions:
 * in each round and revision one child per contender, each item's answer compared across them,
 * then each row's slices, the contenders' in turn, paired slice by slice as the tools' are.
 */
async function measurePromptsAndResources(dir, settings) {
  const project = promptsDir(dir);
  const childSettings = { requests: settings.requests, slices: settings.request_slices };
  const measured = Object.fromEntries(
    REVISIONS.map((revision) => [
      revision,
      Object.fromEntries(ROWS.map(({ key }) => [key, { rounds: [], slices: [] }])),
    ]),
  );
  let compared = 0;
  for (let r = 0; r < settings.rounds; r++) {
    for (const revision of inTurn(REVISIONS, r)) {
      log(`prompts and resources, ${revision}: round ${r + 1}/${settings.rounds}`);
      const children = {};
      const answers = {};
      for (const c of orderOf(r)) {
        children[c] = roundChild(project, c, { ...childSettings, revision }, "requests");
        answers[c] = (await children[c].ready).answers; // one at a time: nothing else runs meanwhile
      }
      compared += compareAnswers(answers, revision);
      const rows = measured[revision];
      const rates = Object.fromEntries(ROWS.map(({ key }) => [key, []]));
      for (let k = 0; k < settings.request_slices; k++) {
        for (const { key } of ROWS) {
          const slice = {};
          for (const c of orderOf(r + k)) slice[c] = await children[c].slice(k, key);
          rates[key].push(slice);
          rows[key].slices.push(slice);
        }
      }
      const latencies = {};
      for (const c of CONTENDERS) {
        latencies[c] = await children[c].latency();
        children[c].stop();
      }
      for (const { key } of ROWS) {
        const perContender = column(rates[key]);
        rows[key].rounds.push(
          Object.fromEntries(
            CONTENDERS.map((c) => [c, { calls_per_s: median(perContender[c]), ...latencies[c][key] }]),
          ),
        );
      }
    }
  }
  const rows = [];
  for (const { key, method, label } of ROWS) {
    for (const revision of REVISIONS) {
      const { rounds, slices } = measured[revision][key];
      const paired = column(slices);
      rows.push({
        row: key,
        method,
        label,
        revision,
        calls_per_s: medians(column(rounds, "calls_per_s")),
        // Paired slice by slice: measured within a second of each other.
        typemcp_over_floor: pairedRatio(paired.typemcp, paired.floor),
        typemcp_over_zod: pairedRatio(paired.typemcp, paired.zod),
        p50_ms: medians(column(rounds, "p50_ms")),
        p99_ms: medians(column(rounds, "p99_ms")),
      });
    }
  }
  return { items: ITEMS, requests: settings.requests, answers_compared: compared, rows };
}

/** The order of the asking contenders in round r, as orderOf turns the tools' contenders. */
const askingOrderOf = (r) => PERMUTATIONS[r % PERMUTATIONS.length].map((i) => asking.CONTENDERS[i]);

/**
 * The elicitation round trip (bench/asking.js) on both protocol revisions: in each round and
 * revision one child per contender (typemcp, McpServer without and with a signed state), their
 * final answers compared whole, then slices of round trips, the contenders' in turn, paired
 * slice by slice. Then typemcp's requestState alone (digest, mint, open), in a child of its own.
 */
async function measureAsking(dir, settings) {
  const project = askingDir(dir);
  const names = asking.CONTENDERS;
  const byContender = (records, key) =>
    Object.fromEntries(names.map((c) => [c, records.map((r) => (key ? r[c][key] : r[c]))]));
  const mediansOf = (s) => Object.fromEntries(names.map((c) => [c, median(s[c])]));
  const measured = Object.fromEntries(REVISIONS.map((revision) => [revision, { rounds: [], slices: [] }]));
  const seen = {};
  let compared = 0;
  for (let r = 0; r < settings.rounds; r++) {
    for (const revision of inTurn(REVISIONS, r)) {
      log(`asking the client, ${revision}: round ${r + 1}/${settings.rounds}`);
      const children = {};
      const ready = {};
      for (const c of askingOrderOf(r)) {
        const childSettings = { asks: settings.asks, slices: settings.ask_slices, revision };
        children[c] = roundChild(project, c, childSettings, "asking");
        ready[c] = await children[c].ready; // one at a time: nothing else runs meanwhile
      }
      const text = asking.compareFinalAnswers(Object.fromEntries(names.map((c) => [c, ready[c].answer])), revision);
      compared += names.length;
      seen[revision] ??= { final_text: text, question: Object.fromEntries(names.map((c) => [c, ready[c].question])) };
      const roundSlices = [];
      for (let k = 0; k < settings.ask_slices; k++) {
        const slice = {};
        for (const c of askingOrderOf(r + k)) slice[c] = await children[c].slice(k);
        roundSlices.push(slice);
      }
      measured[revision].slices.push(...roundSlices);
      const rates = byContender(roundSlices);
      const record = {};
      for (const c of names) {
        record[c] = { per_s: median(rates[c]), ...(await children[c].latency()) };
        children[c].stop();
      }
      measured[revision].rounds.push(record);
    }
  }
  const rows = REVISIONS.map((revision) => {
    const { rounds, slices } = measured[revision];
    const paired = byContender(slices);
    const perS = mediansOf(byContender(rounds, "per_s"));
    return {
      revision,
      round_trips_per_s: perS,
      us_per_round_trip: Object.fromEntries(names.map((c) => [c, 1e6 / perS[c]])),
      // Paired slice by slice: measured within a second of each other.
      typemcp_over_zod: pairedRatio(paired.typemcp, paired.zod),
      typemcp_over_zod_state: pairedRatio(paired.typemcp, paired.zod_state),
      p50_ms: mediansOf(byContender(rounds, "p50_ms")),
      p99_ms: mediansOf(byContender(rounds, "p99_ms")),
      ...seen[revision],
    };
  });
  log("asking the client: typemcp's requestState alone");
  const state = child("asking.js", ["state"]);
  return { round_trips: settings.asks, answers_compared: compared, rows, state };
}

function askingReport(a, settings) {
  const names = asking.CONTENDERS;
  const row = (label, values, ...ratios) => [label, ...names.map((c) => fmt(values[c])), ...ratios];
  const x = (v) => `${fmt(v)}×`;
  const rows = table(
    ["measure", ...names.map((c) => asking.LABELS[c]), "typemcp ÷ McpServer", "typemcp ÷ McpServer, signed state"],
    a.rows.flatMap((r) => [
      row(
        `one round trip, ${r.revision} (round trips/s)`,
        r.round_trips_per_s,
        x(r.typemcp_over_zod),
        x(r.typemcp_over_zod_state),
      ),
      row(`one round trip, ${r.revision} (µs)`, r.us_per_round_trip, "", ""),
      row(`one round trip, ${r.revision}: latency p50 (ms)`, r.p50_ms, "", ""),
      row(`one round trip, ${r.revision}: latency p99 (ms)`, r.p99_ms, "", ""),
    ]),
  );
  const s = a.state;
  return `### Asking the client: one elicitation round trip

A tool that asks the user to confirm (\`ctx.elicit<Confirm>\`, a one-field form) and answers a string, against McpServer with Zod as its docs show it (\`inputRequired\`, \`acceptedContent\`), without a requestState (its default) and with one signed and verified by \`createRequestStateCodec\`. A round trip is the call, the question, the answer and the result: on 2026-07-28 two requests (input_required, then the retry with \`inputResponses\` and the state); on 2025-11-25 one call during which the server sends \`elicitation/create\` and the client answers. ${fmt(a.round_trips)} round trips per contender, revision and round, ${settings.ask_slices} slices in turn; ${a.answers_compared} final answers compared whole, the same.

${rows}

typemcp's requestState alone (\`runtime/ask/state.ts\`, medians of batches of 1,000): the arguments' digest ${fmt(s.digest_us)} µs, mint ${fmt(s.mint_us)} µs, open ${fmt(s.open_us)} µs (a state of ${s.state_bytes} characters); a round trip on 2026-07-28 takes two digests, a mint and an open. For comparison, the same SHA-256 with node:crypto (synchronous): ${fmt(s.node_hash_us)} µs.
`;
}

/** The per-call breakdown's table: µs per call of each step, per revision. */
function breakdownReport(b) {
  const us = (v) => fmt(v, 2);
  const rows = table(
    [
      "revision",
      "the SDK: the floor's whole call (µs)",
      "instance's handler + SDK's params path: bare − floor (µs)",
      "the call's steps, bookkeeping: no-result − bare (µs)",
      "result's check + wire copy: no-args − no-result (µs)",
      "arguments' check: full − no-args (µs)",
      "typemcp − floor (µs)",
      "typemcp's whole call (µs)",
    ],
    b.rows.map((row) => [
      row.revision,
      us(row.steps_us.sdk),
      us(row.steps_us.instance_and_sdk_params),
      us(row.steps_us.call_steps),
      us(row.steps_us.result_check_and_wire_copy),
      us(row.steps_us.arguments_check),
      us(row.typemcp_minus_floor_us),
      us(row.us_per_call.full),
    ]),
  );
  return `typemcp with its steps stubbed one after the other (\`bench/breakdown.js\`: \`bare\` answers as the floor does, \`no-result\` puts the result in its answer unchecked, \`no-args\` skips the arguments' check, \`full\` is typemcp) beside the floor, on ${shapesLabel(b.shapes)}, both revisions: ${fmt(b.calls)} calls per variant, revision and round after every tool's first (fewer than the tools rows' steady state), ${b.slices} slices in turn, ${b.rounds} round(s). Each step is the difference of two variants' µs per call, paired slice by slice (medians: they need not add up to the whole).

${rows}
`;
}

/**
 * Cold start and a fresh process's first call over stdio (bench/cold.js), on both protocol
 * revisions: in each spawn round, each revision in turn and the contenders in turn within it.
 */
async function measureColdStart(dir, settings) {
  // A tool from the middle of the list: typemcp makes its first tool's checkers as it starts, so
  // the first tool's first call would not show what a fresh process's first call costs.
  const calls = JSON.parse(fs.readFileSync(path.join(dir, "calls.json"), "utf8"));
  const call = calls[Math.floor(calls.length / 2)];
  const spawns = Object.fromEntries(REVISIONS.map((revision) => [revision, []]));
  for (let k = 0; k < settings.cold; k++) {
    for (const revision of inTurn(REVISIONS, k)) {
      const record = {};
      for (const c of orderOf(k)) record[c] = await coldStart(modulePath(dir, c, true), call, revision);
      spawns[revision].push(record);
    }
  }
  log(`cold start: ${settings.cold} spawns per contender and revision`);
  return REVISIONS.map((revision) => {
    const start = column(spawns[revision], "start_ms");
    const first = column(spawns[revision], "first_call_ms");
    return {
      revision,
      start_ms: medians(start),
      first_call_ms: medians(first),
      typemcp_over_floor: pairedRatio(start.typemcp, start.floor),
      typemcp_over_zod: pairedRatio(start.typemcp, start.zod),
      first_call_minus_floor_ms: pairedDiff(first.typemcp, first.floor),
    };
  });
}

/** Peak RSS after memory_calls calls over all tools, on both protocol revisions, a child process each. */
function measureMemory(dir, settings) {
  const runs = Object.fromEntries(REVISIONS.map((revision) => [revision, []]));
  for (let k = 0; k < settings.memory_runs; k++) {
    for (const revision of inTurn(REVISIONS, k)) {
      const record = {};
      for (const c of orderOf(k))
        record[c] = child("inproc.js", ["memory", dir, c, settings.memory_calls, revision]).max_rss_kb / 1024;
      runs[revision].push(record);
    }
  }
  log(`memory: ${settings.memory_runs} run(s) per contender and revision`);
  return REVISIONS.map((revision) => {
    const rss = column(runs[revision]);
    return {
      revision,
      calls: settings.memory_calls,
      max_rss_mb: medians(rss),
      typemcp_over_floor: pairedRatio(rss.typemcp, rss.floor),
      typemcp_over_zod: pairedRatio(rss.typemcp, rss.zod),
    };
  });
}

/**
 * Stateless Streamable HTTP on both protocol revisions (bench/http.js): for each revision, each
 * contender's server in its own fresh process, one keep-alive client driving them in turn. Both
 * the SDK's handler and typemcp's `stateless: true` serve 2025-11-25 requests without a session,
 * each on a fresh server instance (the SDK's `legacyStatelessFallback`).
 */
async function measureHttp(dir, settings) {
  const rows = [];
  for (const revision of REVISIONS) rows.push(await measureHttpRevision(dir, settings, revision));
  return rows;
}

async function measureHttpRevision(dir, settings, revision) {
  const servers = [];
  try {
    const urls = {};
    for (const c of CONTENDERS) {
      const server = spawn(process.execPath, [path.join(__dirname, "http.js"), "serve", dir, c], {
        stdio: ["ignore", "pipe", "ignore"],
      });
      servers.push(server);
      const line = await new Promise((resolve, reject) => {
        let out = "";
        server.stdout.on("data", (chunk) => (out += chunk) && out.includes("\n") && resolve(out.split("\n")[0]));
        server.on("exit", (code) => reject(new Error(`bench: the ${c} HTTP server exited (${code})`)));
      });
      urls[c] = `http://127.0.0.1:${JSON.parse(line).port}/mcp`;
    }
    const measured = child("http.js", [
      "drive",
      JSON.stringify({ project: dir, calls: settings.http_calls, slices: settings.http_slices, revision }),
      ...CONTENDERS.map((c) => `${c}=${urls[c]}`),
    ]);
    log(`HTTP, ${revision}: ${settings.http_calls} calls per contender`);
    const rates = Object.fromEntries(CONTENDERS.map((c) => [c, measured[c].calls_per_s]));
    return {
      revision,
      calls: settings.http_calls,
      calls_per_s: medians(rates),
      p50_ms: Object.fromEntries(CONTENDERS.map((c) => [c, measured[c].p50_ms])),
      p99_ms: Object.fromEntries(CONTENDERS.map((c) => [c, measured[c].p99_ms])),
      typemcp_over_floor: pairedRatio(rates.typemcp, rates.floor),
      typemcp_over_zod: pairedRatio(rates.typemcp, rates.zod),
    };
  } finally {
    for (const server of servers) server.kill();
  }
}

/**
 * Builds are long, deterministic CPU work: other processes can only add time to them, so
 * the best of several rounds is the estimate least disturbed by the machine (medians of a
 * handful of multi-second builds on a busy machine swing by tens of percent). Each build is
 * a fresh process, as a tsc run is. Creating the program and type-checking are the same work
 * in both builds (JSDoc parsed as tsc parses it), so both sides share their best times; they
 * differ by emit (the transformer runs in it, and parses the comments it reads).
 */
function measureBuild(base, settings) {
  const sizes = settings.build_sizes.map((n) => {
    const dir = path.join(base, `n${n}`);
    generate(dir, n);
    log(`build: ${n} tools, ${settings.build_rounds} round(s)`);
    // plain-all: a plain build with every JSDoc comment parsed, the price of reading a few
    // comments without parsing them where they are read (transformer/ts5/skipped-jsdoc.ts).
    const runs = { plain: [], typemcp: [], "plain-all": [] };
    for (let round = 0; round < settings.build_rounds; round++) {
      for (const side of inTurn(["plain", "typemcp", "plain-all"], round))
        runs[side].push(child("build.js", [path.join(dir, "typemcp"), "once", side]));
    }
    const { plain, typemcp, "plain-all": plainAll } = runs;
    const best = (runs, phase) => Math.min(...runs.map((r) => r[phase]));
    // Creating the program and type-checking are the same work for both; emitting is not.
    const shared = best([...plain, ...typemcp], "program") + best([...plain, ...typemcp], "check");
    const [plainMs, typemcpMs] = [shared + best(plain, "emit"), shared + best(typemcp, "emit")];
    const transformer = best(typemcp, "transformer");
    return {
      tools: n,
      plain_ms: plainMs,
      typemcp_ms: typemcpMs,
      ratio: typemcpMs / plainMs,
      program_and_check_ms: shared,
      emit_ms: { plain: best(plain, "emit"), typemcp: best(typemcp, "emit") },
      transformer_ms: transformer,
      transformer_ms_per_tool: transformer / n,
      extra_ms_per_tool: (typemcpMs - plainMs) / n,
      // Whole builds, best of each side: a cross-check of the phase sum.
      whole_build_ratio: best(typemcp, "total") / best(plain, "total"),
      every_jsdoc_parsed_extra_ms: best(plainAll, "total") - best(plain, "total"),
      emitted_bytes: { plain: plain[0].bytes, typemcp: typemcp[0].bytes },
      // CPU time of each side's whole process, best of the rounds: the clock's figures move with the load.
      cpu_ms: { plain: best(plain, "cpu"), typemcp: best(typemcp, "cpu") },
    };
  });
  // Linear growth: the transformer's time per tool stays flat from the second-largest size to the largest.
  const [a, b] = sizes.slice(-2);
  const growth = b && a !== b ? b.transformer_ms_per_tool / a.transformer_ms_per_tool : null;
  return { sizes, per_tool_growth: growth, linear: growth === null ? null : growth <= 1.5 };
}

/**
 * The build as a user runs it, whole: `tsc -p` against `tspc -p` (ts-patch) with the typemcp
 * plugin, each a fresh process that starts Node, loads the compiler, builds and writes the
 * output. tspc without the plugin is ts-patch's own share. ts-patch's other way, a persistent
 * patch (`ts-patch install`), runs tsc itself with the plugin: measured on a patched copy of
 * this package's TypeScript, with and without the plugin. Alternating, best of the rounds
 * (other processes only add time), after one untimed run each (ts-patch patches the compiler
 * into its cache on its first run, and the files come into the page cache).
 */
function measureCommands(dir, settings) {
  const commands = buildCommands(dir);
  const outputs = outputRoot();
  const all = [...COMMANDS, ...TS7_COMMANDS];
  const run = (name) => {
    const { args, env } = TS7_COMMANDS.includes(name)
      ? ts7CommandRun(dir, name, outputs)
      : { args: commandArgs(commands, name, outputs), env: process.env };
    const started = performance.now();
    execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"], env });
    return performance.now() - started;
  };
  log(`build commands: ${settings.n} tools, ${settings.command_rounds} round(s)`);
  const times = Object.fromEntries(all.map((name) => [name, []]));
  try {
    for (const name of all) run(name);
    for (let round = 0; round < settings.command_rounds; round++) {
      for (const name of inTurn(all, round)) times[name].push(run(name));
    }
  } finally {
    fs.rmSync(outputs, { recursive: true, force: true });
  }
  const best = Object.fromEntries(all.map((name) => [name, Math.min(...times[name])]));
  return {
    tools: settings.n,
    best_ms: best,
    median_ms: Object.fromEntries(all.map((name) => [name, median(times[name])])),
    tspc_over_tsc: best.tspc / best.tsc,
    ts_patch_over_tsc: best.tspc_without_plugin / best.tsc,
    plugin_over_ts_patch: best.tspc / best.tspc_without_plugin,
    patched_over_tsc: best.patched / best.tsc,
    plugin_over_patch: best.patched / best.patched_without_plugin,
    // TypeScript 7: typemcp build against TypeScript 7's tsc alone, and against tspc + typemcp on 5.9.
    ts7_build_over_tsc7: best.typemcp_build7 / best.tsc7,
    ts7_build_over_tspc: best.typemcp_build7 / best.tspc,
    ts71_build_over_tsc71: best.typemcp_build71 / best.tsc71,
    tsc7_over_tsc: best.tsc7 / best.tsc,
  };
}

/**
 * `--only=build7`: TypeScript 7.0's and 7.1's tsc alone against `typemcp build` on each, whole
 * commands three ways (ts7CommandWays: `node <script>`, the binaries, `npx`), alternating,
 * after one untimed run each; best and median of the rounds, and the ratios of the bests.
 */
function measureTs7Commands(dir, settings) {
  const outputs = outputRoot();
  const ways = ["node", "binary", "npx"];
  const runs = TS7_COMMANDS.flatMap((name) => ways.map((way) => ({ name, way })));
  const run = ({ name, way }) => {
    const { command, args, env, cwd } = ts7CommandWays(dir, name, outputs)[way];
    const started = performance.now();
    execFileSync(command, args, { stdio: ["ignore", "ignore", "inherit"], env, cwd });
    return performance.now() - started;
  };
  const key = ({ name, way }) => `${name}:${way}`;
  const times = Object.fromEntries(runs.map((r) => [key(r), []]));
  log(`TypeScript 7 build commands: ${settings.n} tools, ${settings.command_rounds} round(s)`);
  try {
    for (const r of runs) run(r);
    for (let round = 0; round < settings.command_rounds; round++)
      for (const r of inTurn(runs, round)) times[key(r)].push(run(r));
  } finally {
    fs.rmSync(outputs, { recursive: true, force: true });
  }
  const best = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.min(...v)]));
  const med = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const ratios = {};
  for (const [tsc, build] of [
    ["tsc7", "typemcp_build7"],
    ["tsc71", "typemcp_build71"],
  ])
    for (const way of ways) ratios[`${build}:${way}`] = best[`${build}:${way}`] / best[`${tsc}:${way}`];
  return { tools: settings.n, rounds: settings.command_rounds, best_ms: best, median_ms: med, build_over_tsc: ratios };
}

function ts7CommandsReport(c) {
  const rows = Object.keys(c.best_ms).map((k) => {
    const [name, way] = k.split(":");
    const ratio = c.build_over_tsc[k];
    return [COMMAND_LABELS[name], way, fmt(c.best_ms[k]), fmt(c.median_ms[k]), ratio ? `${fmt(ratio, 3)}×` : ""];
  });
  return table(["command", "run as", "best (ms)", "median (ms)", "typemcp build ÷ tsc (best)"], rows);
}

/** A list of targets, and its add, atLeast and atMost. */
function targetList() {
  const t = [];
  const add = (name, value, goal, met, unit) => t.push({ name, value, goal, met, unit });
  const atLeast = (name, value, goal) => add(name, value, `≥ ${goal}×`, value >= goal, "×");
  const atMost = (name, value, goal) => add(name, value, `≤ ${goal}×`, value <= goal, "×");
  return { t, add, atLeast, atMost };
}

/** The prompts' and resources' targets: at least 0.95× the floor, never slower than McpServer. */
function promptsAndResourcesTargets(prompts, atLeast) {
  for (const row of prompts.rows) {
    atLeast(`${row.label}, ${row.revision}: typemcp ÷ floor`, row.typemcp_over_floor, 0.95);
    // Never slower than McpServer.
    atLeast(`${row.label}, ${row.revision}: typemcp ÷ McpServer`, row.typemcp_over_zod, 1);
  }
}

/** The tools rows' targets, each revision on each project: at least 0.95× the floor, never slower than McpServer+Zod. */
function toolsTargets(tools, add, atLeast) {
  for (const row of tools) {
    const label = caseLabel(row);
    const window = `tools/call, ${label}, the first ${fmt(row.first_window.calls)} calls from start`;
    atLeast(`${window}: typemcp ÷ floor`, row.first_window.typemcp_over_floor, 0.95);
    atLeast(`${window}: typemcp ÷ Zod`, row.first_window.typemcp_over_zod, 1);
    atLeast(`tools/call, ${label}, steady state: typemcp ÷ floor`, row.call.typemcp_over_floor, 0.95);
    atLeast(`tools/call, ${label}, steady state: typemcp ÷ Zod`, row.call.typemcp_over_zod, 1);
    for (const when of ["first", "steady"]) {
      const over = row.list.typemcp_minus_floor_ms[when];
      add(`tools/list ${when}, ${label}: typemcp − floor`, over, "≤ 0.5 ms", over <= 0.5, "ms");
    }
  }
}

/** The targets typemcp holds itself to (docs/performance.md), each with the measured value. */
function targets(r) {
  const { t, add, atLeast, atMost } = targetList();
  toolsTargets(r.tools, add, atLeast);
  for (const row of r.http) {
    atLeast(`tools/call over stateless HTTP, ${row.revision}: typemcp ÷ floor`, row.typemcp_over_floor, 0.95);
    atLeast(`tools/call over stateless HTTP, ${row.revision}: typemcp ÷ Zod`, row.typemcp_over_zod, 1.5);
  }
  promptsAndResourcesTargets(r.prompts_resources, atLeast);
  for (const row of r.cold_start) {
    const over = row.first_call_minus_floor_ms;
    add(`first call of a fresh process (stdio), ${row.revision}: typemcp − floor`, over, "≤ 1 ms", over <= 1, "ms");
    atMost(`cold start (stdio spawn → tools/list), ${row.revision}: typemcp ÷ floor`, row.typemcp_over_floor, 1.1);
  }
  for (const row of r.memory)
    atMost(
      `peak RSS after ${fmt(row.calls)} calls over all tools, ${row.revision}: typemcp ÷ floor`,
      row.typemcp_over_floor,
      1.1,
    );
  atMost(
    `build at ${r.commands.tools} tools: what the plugin adds to a tspc build (tspc + typemcp ÷ tspc without it)`,
    r.commands.plugin_over_ts_patch,
    1.05,
  );
  atMost(
    `build at ${r.commands.tools} tools, TypeScript 7: typemcp build ÷ TypeScript 7's tsc alone, whole commands`,
    r.commands.ts7_build_over_tsc7,
    1.3,
  );
  atMost(
    `build at ${r.commands.tools} tools, TypeScript 7.1: typemcp build ÷ TypeScript 7.1's tsc alone, whole commands`,
    r.commands.ts71_build_over_tsc71,
    1.3,
  );
  atMost(
    `build at ${r.commands.tools} tools: typemcp build on TypeScript 7 ÷ tspc + typemcp on TypeScript 5.9, whole commands`,
    r.commands.ts7_build_over_tspc,
    0.4,
  );
  return t;
}

const fmt = (value, digits = 2) => {
  if (value === null || value === undefined || Number.isNaN(value)) return "–";
  const abs = Math.abs(value);
  return abs >= 1000
    ? Math.round(value).toLocaleString("en-US")
    : value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 0.1 ? digits : 3);
};

function table(headers, rows) {
  return [
    `| ${headers.join(" | ")} |`,
    `|${headers.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
}

/** The contenders' row of a measure, then typemcp's ratios to the floor and to McpServer+Zod. */
const contendersRow = (label, values, vsFloor, vsZod) => [
  label,
  ...CONTENDERS.map((c) => fmt(values[c])),
  vsFloor,
  vsZod,
];

/** The prompts' and resources' rows of the report's table (contendersRow). */
const promptsAndResourcesRows = (prompts) =>
  prompts.rows.flatMap((pr) => [
    contendersRow(
      `${pr.label}, ${pr.revision} (requests/s)`,
      pr.calls_per_s,
      `${fmt(pr.typemcp_over_floor)}×`,
      `${fmt(pr.typemcp_over_zod)}×`,
    ),
    contendersRow(`${pr.label}, ${pr.revision}: latency p50 (ms)`, pr.p50_ms, "", ""),
    contendersRow(`${pr.label}, ${pr.revision}: latency p99 (ms)`, pr.p99_ms, "", ""),
  ]);

const targetsTable = (targets) =>
  table(
    ["target", "measured", "goal", ""],
    targets.map((t) => [
      t.name,
      `${fmt(t.value)}${t.unit === "×" ? "×" : " ms"}`,
      t.goal,
      t.met ? "met" : "**missed**",
    ]),
  );

/** The tools rows in process (each revision on each project, a summary then a table each) and the per-call breakdown. */
function toolsReport(r, settings) {
  const row = contendersRow;
  const x = (v) => `${fmt(v)}×`;
  const signed = (ms) => `${ms >= 0 ? "+" : ""}${fmt(ms)} ms`;
  const header = ["measure", ...CONTENDERS.map((c) => LABELS[c]), "typemcp vs floor", "typemcp vs Zod"];
  const toolsTables = r.tools
    .map(
      (t) => `#### Tools in process: ${caseLabel(t)}

${table(header, [
  row(
    "tools/list, first (ms)",
    t.list.first_ms,
    signed(t.list.typemcp_minus_floor_ms.first),
    `${x(t.list.zod_over_typemcp.first)} faster`,
  ),
  row(
    "tools/list, steady state (ms)",
    t.list.steady_ms,
    signed(t.list.typemcp_minus_floor_ms.steady),
    `${x(t.list.zod_over_typemcp.steady)} faster`,
  ),
  row(
    `tools/call, the first ${fmt(t.first_window.calls)} calls from the server's start (calls/s)`,
    t.first_window.calls_per_s,
    x(t.first_window.typemcp_over_floor),
    x(t.first_window.typemcp_over_zod),
  ),
  row("tools/call latency in those calls, p50 (ms)", t.first_window.p50_ms, "", ""),
  row("tools/call latency in those calls, p99 (ms)", t.first_window.p99_ms, "", ""),
  row(
    "tools/call, steady state after them (calls/s)",
    t.call.calls_per_s,
    x(t.call.typemcp_over_floor),
    x(t.call.typemcp_over_zod),
  ),
  row("tools/call latency, steady state, p50 (ms)", t.call.p50_ms, "", ""),
  row("tools/call latency, steady state, p99 (ms)", t.call.p99_ms, "", ""),
  row("first call of a tool, once one of each shape was called, median (ms)", t.first_call.median_ms, "", ""),
  row("first call of a tool, once one of each shape was called, max (ms)", t.first_call.max_ms, "", ""),
  row("first tools/call of a server (ms)", t.first_call.first_of_server_ms, "", ""),
  row("register + connect (ms)", t.setup_ms, "", ""),
])}
`,
    )
    .join("\n");
  // Every revision and project on one line each: the ratios the targets read.
  const toolsSummary = table(
    [
      "tools/call",
      `first ${fmt(settings.first)}: ÷ floor`,
      `first ${fmt(settings.first)}: ÷ McpServer+Zod`,
      "steady: ÷ floor",
      "steady: ÷ McpServer+Zod",
      "steady p50 (ms), typemcp / Zod / floor",
    ],
    r.tools.map((t) => [
      caseLabel(t),
      x(t.first_window.typemcp_over_floor),
      x(t.first_window.typemcp_over_zod),
      x(t.call.typemcp_over_floor),
      x(t.call.typemcp_over_zod),
      CONTENDERS.map((c) => fmt(t.call.p50_ms[c], 3)).join(" / "),
    ]),
  );
  return `### Tools in process

Each protocol revision (2025-11-25: \`initialize\` and \`notifications/initialized\`, then plain requests; 2026-07-28: \`server/discover\`, then the envelope in every request's \`_meta\`) on each project (${settings.n} tools of the ${TEMPLATES.length} shapes, and ${settings.n} tools of get_weather's shape). Medians over ${settings.rounds} in-process rounds (in each, a child process per contender, revision and project, set up one at a time, then their ${settings.slices} throughput slices in turn; a bare JSON-RPC client over InMemoryTransport, so only the server's work is timed); ratios are medians of pairs measured together.

${toolsSummary}

${toolsTables}
### Per-call breakdown

${breakdownReport(r.breakdown)}
`;
}

function report(r, settings) {
  const row = contendersRow;
  const x = (v) => `${fmt(v)}×`;
  const signed = (ms) => `${ms >= 0 ? "+" : ""}${fmt(ms)} ms`;
  const header = ["measure", ...CONTENDERS.map((c) => LABELS[c]), "typemcp vs floor", "typemcp vs Zod"];
  const processes = table(header, [
    ...r.cold_start.flatMap((c) => [
      row(
        `cold start, ${c.revision}: stdio spawn → tools/list (ms)`,
        c.start_ms,
        x(c.typemcp_over_floor),
        x(c.typemcp_over_zod),
      ),
      row(
        `first call in a fresh process, ${c.revision}, stdio (ms)`,
        c.first_call_ms,
        signed(c.first_call_minus_floor_ms),
        "",
      ),
    ]),
    ...r.memory.map((m) =>
      row(
        `peak RSS after ${fmt(m.calls)} calls over all tools, ${m.revision} (MB)`,
        m.max_rss_mb,
        x(m.typemcp_over_floor),
        x(m.typemcp_over_zod),
      ),
    ),
    ...r.http.flatMap((h) => [
      row(
        `stateless Streamable HTTP, ${h.revision}, keep-alive client: tools/call (calls/s)`,
        h.calls_per_s,
        x(h.typemcp_over_floor),
        x(h.typemcp_over_zod),
      ),
      row(`stateless Streamable HTTP, ${h.revision}: tools/call latency, p50 (ms)`, h.p50_ms, "", ""),
      row(`stateless Streamable HTTP, ${h.revision}: tools/call latency, p99 (ms)`, h.p99_ms, "", ""),
    ]),
  ]);
  const prompts = table(header, promptsAndResourcesRows(r.prompts_resources));
  const askingSection = askingReport(r.asking, settings);
  const build = table(
    [
      "tools",
      "plain tsc (ms)",
      "typemcp (ms)",
      "ratio",
      "program + check, shared (ms)",
      "emit plain / typemcp (ms)",
      "in transformer (ms)",
      "transformer ms/tool",
      "extra ms/tool",
      "whole builds ratio",
      "every JSDoc parsed: extra ms",
      "emitted KB plain / typemcp",
    ],
    r.build.sizes.map((s) => [
      s.tools,
      fmt(s.plain_ms),
      fmt(s.typemcp_ms),
      `${fmt(s.ratio)}×`,
      fmt(s.program_and_check_ms),
      `${fmt(s.emit_ms.plain)} / ${fmt(s.emit_ms.typemcp)}`,
      fmt(s.transformer_ms),
      fmt(s.transformer_ms_per_tool, 3),
      fmt(s.extra_ms_per_tool, 3),
      `${fmt(s.whole_build_ratio)}×`,
      fmt(s.every_jsdoc_parsed_extra_ms),
      `${fmt(s.emitted_bytes.plain / 1024)} / ${fmt(s.emitted_bytes.typemcp / 1024)}`,
    ]),
  );
  const goals = targetsTable(r.targets);
  const commands = table(
    ["command", "best (ms)", "median (ms)", "÷ tsc (best)"],
    [...COMMANDS, ...TS7_COMMANDS].map((name) => [
      COMMAND_LABELS[name],
      fmt(r.commands.best_ms[name]),
      fmt(r.commands.median_ms[name]),
      `${fmt(r.commands.best_ms[name] / r.commands.best_ms.tsc, 3)}×`,
    ]),
  );
  const growth =
    r.build.per_tool_growth === null
      ? ""
      : `Transformer time per tool, largest size ÷ next: ${fmt(r.build.per_tool_growth)}× (${r.build.linear ? "linear" : "NOT linear"}).`;
  return `## typemcp benchmark${settings.quick ? " (quick mode)" : ""}

${settings.n} tools, ${r.machine.cpus} CPUs, node ${process.version}, load average ${r.machine.loadavg.map((l) => l.toFixed(1)).join(" ")} at the end (${r.machine.loadavg_start.map((l) => l.toFixed(1)).join(" ")} at the start); ${fmt(r.seconds / 60)} minutes in all. McpServer+Zod and typemcp validate arguments and results; the floor validates nothing.

${toolsReport(r, settings)}
### Over stdio, memory, HTTP

Both revisions. ${settings.cold} stdio spawns per contender and revision, ${settings.memory_runs} memory run(s) per contender and revision, ${fmt(settings.http_calls)} HTTP calls per contender and revision (${settings.http_slices} slices in turn), on the project of ${TEMPLATES.length} shapes. First call: typemcp − floor paired spawn by spawn.

${processes}

### Prompts and resources

${r.prompts_resources.items} of each kind, ${fmt(r.prompts_resources.requests)} requests per row, revision and contender in each round (${settings.request_slices} slices in turn, after each contender's answers were compared: ${r.prompts_resources.answers_compared} the same); McpServer checks a prompt's arguments with Zod, and neither a resource's contents nor a template's variable.

${prompts}

${askingSection}
### Build: the commands, whole

\`tsc -p\` and \`tspc -p\` (ts-patch, live) with the typemcp plugin on the ${r.commands.tools}-tool project, tspc without the plugin (ts-patch's own share), and the same with a copy of TypeScript patched for good (\`ts-patch install\`), which runs tsc itself: each run a fresh process that starts Node, loads the compiler, builds and writes the output (to a tmpfs where there is one); ${settings.command_rounds} alternating round(s) after an untimed one. What typemcp adds to a ts-patch build: ${fmt(r.commands.plugin_over_ts_patch, 3)}× live, ${fmt(r.commands.plugin_over_patch, 3)}× patched. TypeScript 7 (the native compiler, in the same rounds): \`typemcp build\` is ${fmt(r.commands.ts7_build_over_tsc7, 3)}× its tsc alone and ${fmt(r.commands.ts7_build_over_tspc, 3)}× tspc + typemcp on TypeScript 5.9.

${commands}

### Build: typemcp's transformer in one build

Same program, create + type-check + emit, one build per fresh process; each phase the best of ${settings.build_rounds} alternating round(s) per side (other processes only add time to a build). Creating the program and type-checking are the same work for both (JSDoc parsed as tsc parses it), so they share their times; they differ by emit (the transformer runs in it, and parses the comments it reads). Output kept in memory (writing it is the same for both, and disk noise here). "Whole builds ratio": best whole typemcp build ÷ best whole plain build, as a cross-check. "Every JSDoc parsed": a plain build with every comment parsed (as the parser would for typemcp, were it not parsing the few it reads itself) minus the plain build, whole.

${build}

${growth}

### Targets

${goals}
`;
}

async function main() {
  const settings = readSettings(process.argv.slice(2), process.env);
  const base = path.resolve(process.env.BENCH_DIR ?? path.join(ROOT, ".build", "bench"));
  const dir = path.join(base, `${settings.quick ? "quick-" : ""}n${settings.n}`);
  if (!fs.existsSync(path.join(ROOT, "dist", "transformer", "index.js")))
    throw new Error("bench: build the package first (npm run build)");
  const started = performance.now();

  if (settings.only === "asking") {
    log(`generating and building the elicitation round trip in ${path.relative(ROOT, dir)}`);
    prepareAsking(dir);
    const a = await measureAsking(dir, settings);
    const machine = { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg() };
    const load = machine.loadavg.map((l) => l.toFixed(1)).join(" ");
    process.stdout.write(
      `${machine.cpus} CPUs, node ${process.version}, load average ${load}.\n\n${askingReport(a, settings)}\n`,
    );
    const { quick, ...rest } = settings;
    const json = { bench: "typemcp", quick, settings: rest, asking: a, machine };
    process.stdout.write(
      JSON.stringify(json, (_, v) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v)) +
        "\n",
    );
    process.exit(0);
  }

  if (settings.only === "prompts-resources") {
    log(`generating and building the prompts and resources in ${path.relative(ROOT, dir)}`);
    await preparePromptsAndResources(dir);
    const prompts = await measurePromptsAndResources(dir, settings);
    const { t, atLeast } = targetList();
    promptsAndResourcesTargets(prompts, atLeast);
    const machine = { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg() };
    const load = machine.loadavg.map((l) => l.toFixed(1)).join(" ");
    const rows = table(
      ["measure", ...CONTENDERS.map((c) => LABELS[c]), "typemcp vs floor", "typemcp vs Zod"],
      promptsAndResourcesRows(prompts),
    );
    process.stdout.write(
      `${machine.cpus} CPUs, node ${process.version}, load average ${load}. ${prompts.items} of each kind, ${fmt(prompts.requests)} requests per row, revision and contender in each of ${settings.rounds} rounds (${settings.request_slices} slices in turn; ${prompts.answers_compared} answers compared with the floor's, the same).\n\n${rows}\n\n${targetsTable(t)}\n`,
    );
    const { quick, ...rest } = settings;
    const json = { bench: "typemcp", quick, settings: rest, prompts_resources: prompts, targets: t, machine };
    process.stdout.write(
      JSON.stringify(json, (_, v) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v)) +
        "\n",
    );
    process.exit(0);
  }

  if (settings.only === "tools") {
    log(`generating and building ${settings.n} tools of each project in ${path.relative(ROOT, dir)}`);
    await prepareTools(dir, settings.n);
    await prepareTools(oneShapeDir(dir), settings.n, 1);
    const loadavgStart = os.loadavg();
    const r = { tools: await measureInProcess(dir, settings), breakdown: await measureBreakdown(dir, settings) };
    const { t, add, atLeast } = targetList();
    toolsTargets(r.tools, add, atLeast);
    const machine = {
      cpus: os.cpus().length,
      node: process.version,
      loadavg: os.loadavg(),
      loadavg_start: loadavgStart,
    };
    const load = (l) => l.map((v) => v.toFixed(1)).join(" ");
    process.stdout.write(
      `${machine.cpus} CPUs, node ${process.version}, load average ${load(machine.loadavg_start)} at the start, ${load(machine.loadavg)} at the end.\n\n${toolsReport(r, settings)}\n${targetsTable(t)}\n`,
    );
    const { quick, ...rest } = settings;
    const json = { bench: "typemcp", quick, settings: rest, ...r, targets: t, machine };
    process.stdout.write(
      JSON.stringify(json, (_, v) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v)) +
        "\n",
    );
    process.exit(0);
  }

  log(`generating ${settings.n} tools in ${path.relative(ROOT, dir)}`);
  const built = await prepare(dir, settings.n);
  if (settings.only === "build7") {
    buildCommands(dir); // the project's tsconfig without the plugin
    const c = measureTs7Commands(dir, settings);
    const machine = { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg() };
    const load = machine.loadavg.map((l) => l.toFixed(1)).join(" ");
    process.stdout.write(
      `${machine.cpus} CPUs, node ${process.version}, load average ${load}.\n\n${ts7CommandsReport(c)}\n`,
    );
    process.stdout.write(JSON.stringify({ bench: "typemcp", only: "build7", commands: c, machine }) + "\n");
    process.exit(0);
  }
  log(`built ${settings.n} typemcp tools in ${Math.round(built.total)} ms`);
  const loadavgStart = os.loadavg();
  // Each part's seconds: what a change of its settings costs the whole run.
  const seconds = { prepare: (performance.now() - started) / 1000 };
  const part = async (name, measure) => {
    const partStarted = performance.now();
    const value = await measure();
    seconds[name] = (performance.now() - partStarted) / 1000;
    return value;
  };
  const r = {};
  r.tools = await part("tools", () => measureInProcess(dir, settings));
  r.breakdown = await part("breakdown", () => measureBreakdown(dir, settings));
  r.prompts_resources = await part("prompts_resources", () => measurePromptsAndResources(dir, settings));
  r.asking = await part("asking", () => measureAsking(dir, settings));
  r.cold_start = await part("cold_start", () => measureColdStart(dir, settings));
  r.memory = await part("memory", () => measureMemory(dir, settings));
  r.http = await part("http", () => measureHttp(dir, settings));
  r.build = await part("build", () =>
    measureBuild(path.join(base, settings.quick ? "quick-build" : "build"), settings),
  );
  r.commands = await part("commands", () => measureCommands(dir, settings));
  r.targets = targets(r);
  r.machine = { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg(), loadavg_start: loadavgStart };
  r.seconds = (performance.now() - started) / 1000;
  r.seconds_by_part = seconds;

  process.stdout.write(report(r, settings) + "\n");
  const { quick, ...rest } = settings;
  const json = { bench: "typemcp", quick, settings: rest, ...r };
  process.stdout.write(
    JSON.stringify(json, (_, v) => (typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v)) +
      "\n",
  );
  process.exit(0); // done: nothing of ours is left running
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
