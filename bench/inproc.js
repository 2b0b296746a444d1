// Child process for the in-process measurements, one contender per process: a server runs
// alone in real life, and sharing a process would let one contender's garbage and JIT feedback
// (the SDK's request path is shared code) weigh on another.
//
//   node bench/inproc.js round  <project> <contender> <settings JSON>
//       → tools/list, then the first calls from the server's start, on one protocol revision
//         (settings.revision); then, over IPC, throughput slices on request
//   node bench/inproc.js breakdown <project> <variant> <settings JSON>
//       → the floor, or typemcp with its steps stubbed (bench/breakdown.js's variants), on one
//         protocol revision: every tool's first call, then, over IPC, throughput slices on request
//   node bench/inproc.js memory <project> <contender> <calls> [revision]
//       → peak RSS after <calls> calls
//   node bench/inproc.js calls <project> <contender> <calls> [revision]
//       → just <calls> calls round-robin after each tool's first, on one protocol revision
//         (default 2026-07-28), for bench/instructions.js to count
//   node bench/inproc.js first <project> <contender> <revision> [call]
//       → the connection opened on <revision>, then (with `call`) the first tools/call of the
//         last tool, nothing warmed: bench/instructions.js counts both
//   node bench/inproc.js requests <prompts project> <contender> <settings JSON>
//       → the prompts' and resources' requests (bench/prompts-resources.js) on one protocol
//         revision: each item's first answer, then, over IPC, throughput slices of a row on request
//   node bench/inproc.js asking <asking project> <contender> <settings JSON>
//       → the elicitation round trip (bench/asking.js) on one protocol revision: the first
//         round trip's question and answer, then, over IPC, throughput slices of round trips
//
// A round child sends {ready: measures} once its first calls are done, then answers each
// {slice: k} with {rate: calls/s}, and {latency: true} with the percentiles of its slices'
// calls: the parent runs the contenders' slices in turn, so that slices compared with each
// other are measured within a fraction of a second (the noise of a shared machine changes
// over seconds). A requests child does the same per row: {ready: {answers}} once it has asked
// for each item once (the parent compares the contenders' answers), {slice: k, row} → {rate},
// {latency: true} → each row's percentiles. A breakdown child answers {ready: {}} once every
// tool was called once, then {slice: k} and {latency: true} as a round child does. An asking child answers {ready: {question, answer}}, then
// {slice: k} and {latency: true} as a round child does. Nothing runs before the server's first request:
// what a process does from its start is what is measured. The memory child prints one JSON line.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { modulePath, rawConnect, checkResponse } = require("./servers");
const breakdown = require("./breakdown");
const { ROWS } = require("./prompts-resources");
const asking = require("./asking");

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function timed(run) {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}

const readCalls = (projectDir) => JSON.parse(fs.readFileSync(path.join(projectDir, "calls.json"), "utf8"));

/** The p-th quantile of sorted values. */
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const sortedCopy = (values) => Float64Array.from(values).sort();

async function round(projectDir, contender, settings) {
  const calls = readCalls(projectDir);
  const n = calls.length;
  const createServer = require(modulePath(projectDir, contender)).createServer;
  const out = {};

  // Registration + connect (`initialize` and `notifications/initialized` on 2025-11-25,
  // `server/discover` on 2026-07-28), then the first tools/list of the fresh server, then steady state.
  const [setupMs, rpc] = await timed(() => rawConnect(createServer(), settings.revision));
  out.setup_ms = setupMs;
  const [firstListMs, list] = await timed(() => rpc("tools/list", {}));
  if (list.result?.tools?.length !== n)
    throw new Error(`bench: ${contender} lists ${list.result?.tools?.length} tools, expected ${n}`);
  out.first_list_ms = firstListMs;
  const lists = [];
  for (let i = 0; i < settings.lists; i++) lists.push((await timed(() => rpc("tools/list", {})))[0]);
  out.steady_list_ms = median(lists);

  // The first calls of the server, as one window: round-robin over every tool from the
  // server's first call (every tool's first call among them, each checked), everything the
  // process does the first time (the SDK's request path too) included.
  // It starts from the middle of the list: typemcp makes its first tool's checkers as it starts
  // serving, so the first tool's first call would not show what a first call costs.
  const offset = n >> 1;
  const firstLatencies = new Float64Array(settings.first);
  const firstStarted = performance.now();
  for (let j = 0; j < settings.first; j++) {
    const started = performance.now();
    const call = calls[(j + offset) % n];
    const response = await rpc("tools/call", call);
    firstLatencies[j] = performance.now() - started;
    if (j < n) checkResponse(response, `${contender} ${call.name}`);
  }
  out.first_window_calls_per_s = settings.first / ((performance.now() - firstStarted) / 1000);
  out.very_first_call_ms = firstLatencies[0];
  // The first call of each tool after one of each shape was called (consecutive tools cycle
  // through the shapes): what a tool's first call costs on a server that has served others.
  const firstOfTool = sortedCopy(firstLatencies.subarray(Math.min(settings.shapes, n), Math.min(n, settings.first)));
  out.first_call_ms = percentile(firstOfTool, 0.5);
  out.first_call_max_ms = firstOfTool[firstOfTool.length - 1];
  const firstSorted = sortedCopy(firstLatencies);
  out.first_window_p50_ms = percentile(firstSorted, 0.5);
  out.first_window_p99_ms = percentile(firstSorted, 0.99);

  // Throughput in steady state: slices of calls round-robin over all tools, each on the parent's request.
  const { slice, latency } = slicer(Math.max(1, Math.floor(settings.calls / settings.slices)), (j) =>
    rpc("tools/call", calls[j % n]),
  );
  return { out, slice, latency };
}

/**
 * Throughput slices of `perSlice` requests each, on the parent's request: `ask(j)` sends the
 * j-th request of a rotation (slice k asks from k × perSlice on) and resolves to its response,
 * which `check`, when given, looks at after its time is taken. slice(k) → requests/s;
 * latency() → the percentiles of every timed request of the slices so far.
 */
function slicer(perSlice, ask, check) {
  // A slice follows an idle wait (the other contenders' slices), which a server under steady
  // load never has: its first requests, untimed, bring the process back to that steady state.
  const leadIn = Math.ceil(perSlice / 10);
  const latencies = [];
  const slice = async (k) => {
    const next = k * perSlice;
    for (let j = 0; j < leadIn; j++) await ask(next + perSlice + j);
    const times = new Float64Array(perSlice);
    const started = performance.now();
    for (let j = 0; j < perSlice; j++) {
      const t = performance.now();
      const response = await ask(next + j);
      times[j] = performance.now() - t;
      if (check) check(response);
    }
    const rate = perSlice / ((performance.now() - started) / 1000);
    latencies.push(times);
    return rate;
  };
  const latency = () => {
    const all = new Float64Array(latencies.reduce((sum, times) => sum + times.length, 0));
    let at = 0;
    for (const times of latencies) all.set(times, (at += times.length) - times.length);
    all.sort();
    return { p50_ms: percentile(all, 0.5), p99_ms: percentile(all, 0.99) };
  };
  return { slice, latency };
}

/**
 * One variant of the per-call breakdown on one revision (settings.revision): the floor, or
 * typemcp with its steps stubbed (bench/breakdown.js; `full` stubs nothing). Every tool's
 * first call (checked), untimed, then slices of calls round-robin over all tools on the
 * parent's request, as a round child's steady-state slices. The stubs are put in place before
 * the server's module is loaded: nothing of the server but the stubbed step differs.
 */
async function breakdownCalls(projectDir, variant, settings) {
  const calls = readCalls(projectDir);
  const contender = variant === "floor" ? "floor" : "typemcp";
  if (variant !== "floor") breakdown.stub(variant);
  const rpc = await rawConnect(require(modulePath(projectDir, contender)).createServer(), settings.revision);
  for (const call of calls) checkResponse(await rpc("tools/call", call), `${variant} ${call.name}`);
  const perSlice = Math.max(1, Math.floor(settings.calls / settings.slices));
  // A property read: an error answered in the timed loop would be a cheaper call, the wrong thing measured.
  const check = (response) => (response.error || response.result.isError) && checkResponse(response, variant);
  const { slice, latency } = slicer(perSlice, (j) => rpc("tools/call", calls[j % calls.length]), check);
  return { out: {}, slice, latency };
}

/**
 * The prompts' and resources' requests on one revision (settings.revision): each item of each
 * row asked once (answers checked, and handed to the parent to compare with the other
 * contenders'), then slices of one row's requests round-robin over its items, each on the
 * parent's request, as the tools' slices are.
 */
async function requests(projectDir, contender, settings) {
  const items = JSON.parse(fs.readFileSync(path.join(projectDir, "requests.json"), "utf8"));
  const rpc = await rawConnect(require(modulePath(projectDir, contender)).createServer(), settings.revision);
  const answers = {};
  for (const { key, method } of ROWS) {
    answers[key] = [];
    for (const params of items[key])
      answers[key].push(checkResponse(await rpc(method, params), `${contender} ${method} ${JSON.stringify(params)}`));
  }
  const perSlice = Math.max(1, Math.floor(settings.requests / settings.slices));
  const rows = Object.fromEntries(
    ROWS.map(({ key, method }) => {
      const params = items[key];
      // A property read: an error answered in the timed loop would be a cheaper request, the wrong thing measured.
      const check = (response) => response.error && checkResponse(response, `${contender} ${method}`);
      return [key, slicer(perSlice, (j) => rpc(method, params[j % params.length]), check)];
    }),
  );
  const slice = (k, key) => rows[key].slice(k);
  const latency = () => Object.fromEntries(ROWS.map(({ key }) => [key, rows[key].latency()]));
  return { out: { answers }, slice, latency };
}

/**
 * The elicitation round trip on one revision (settings.revision): the first round trip (its
 * question and final answer handed to the parent, which compares the contenders'), then slices
 * of round trips on the parent's request. A round trip is timed whole: the call, the server's
 * question, the client's answer, the result (two requests on 2026-07-28; on 2025-11-25 one call
 * and the server's `elicitation/create` request, answered).
 */
async function askingRoundTrips(projectDir, contender, settings) {
  const modern = settings.revision === "2026-07-28";
  let question;
  const client = {
    ...asking.CLIENT,
    onRequest: (request) => ((question ??= request.params), asking.CLIENT.onRequest(request)),
  };
  const rpc = await rawConnect(
    require(asking.modulePath(projectDir, contender)).createServer(),
    settings.revision,
    client,
  );
  const first = await asking.roundTrip(rpc, modern);
  // The question as the client saw it: the input_required result's, or the elicitation/create request's.
  const out = { question: modern ? first.asked.inputRequests : question, answer: first.response };
  const perSlice = Math.max(1, Math.floor(settings.asks / settings.slices));
  // A property read: an error answered in the timed loop would be a cheaper round trip, the wrong thing measured.
  const check = ({ response }) =>
    (response.error || response.result?.isError) && checkResponse(response, `${contender} book`);
  const { slice, latency } = slicer(perSlice, () => asking.roundTrip(rpc, modern), check);
  return { out, slice, latency };
}

/** A session on `revision`: tools/list, then `count` calls round-robin over every tool (each one's first checked). */
async function session(projectDir, contender, count, revision) {
  const calls = readCalls(projectDir);
  const rpc = await rawConnect(require(modulePath(projectDir, contender)).createServer(), revision);
  await rpc("tools/list", {});
  for (let i = 0; i < count; i++) {
    const response = await rpc("tools/call", calls[i % calls.length]);
    if (i < calls.length) checkResponse(response, `${contender} ${calls[i].name}`);
  }
}

/**
 * A fresh process's first call on `revision`: the connection opened (`initialize` or
 * `server/discover`), then, when `call` is set, one tools/call of the last tool, nothing
 * before it. bench/instructions.js counts both: the difference is what the first call costs.
 */
async function firstCall(projectDir, contender, revision, call) {
  const calls = readCalls(projectDir);
  const rpc = await rawConnect(require(modulePath(projectDir, contender)).createServer(), revision);
  if (call)
    checkResponse(await rpc("tools/call", calls[calls.length - 1]), `${contender} ${calls[calls.length - 1].name}`);
}

/** Peak RSS (kB) of a session of `count` calls on `revision`. */
async function memory(projectDir, contender, count, revision) {
  await session(projectDir, contender, count, revision);
  return { max_rss_kb: process.resourceUsage().maxRSS }; // kB on Linux
}

async function main() {
  const [mode, projectDir, ...rest] = process.argv.slice(2);
  if (mode === "round" || mode === "requests" || mode === "asking" || mode === "breakdown") {
    const measure = { round, requests, asking: askingRoundTrips, breakdown: breakdownCalls }[mode];
    const { out, slice, latency } = await measure(projectDir, rest[0], JSON.parse(rest[1]));
    process.on("message", (message) => {
      if (message.latency) return void process.send(latency());
      if (message.slice === undefined) process.exit(0); // servers and transports stay open; nothing else to wait for
      slice(message.slice, message.row).then((rate) => process.send({ rate }));
    });
    process.send({ ready: out });
    return;
  }
  if (mode === "first") {
    await firstCall(projectDir, rest[0], rest[1], rest[2] === "call");
    process.stdout.write(JSON.stringify({ first: rest[2] === "call" }) + "\n");
    process.exit(0);
  }
  if (mode === "calls") {
    await session(projectDir, rest[0], Number(rest[1]), rest[2]);
    process.stdout.write(JSON.stringify({ calls: Number(rest[1]) }) + "\n");
    process.exit(0);
  }
  process.stdout.write(JSON.stringify(await memory(projectDir, rest[0], Number(rest[1]), rest[2])) + "\n");
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
