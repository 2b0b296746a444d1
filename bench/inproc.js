// Child process for the in-process measurements, one contender per process: a server runs
// alone in real life, and sharing a process would let one contender's garbage, JIT feedback
// (the SDK's request path is shared code) and typemcp's process-wide Ajv weigh on another.
//
//   node bench/inproc.js round  <project> <contender> <settings JSON>
//       → tools/list, first calls; then, over IPC, throughput slices on request
//   node bench/inproc.js memory <project> <contender> <calls>
//       → peak RSS after <calls> calls
//   node bench/inproc.js lazy <project> <contender> <shapes>
//       → the first call of one tool of each shape in a fresh process whose server compiles
//         nothing ahead (typemcp: precompile false; each call is walked and interpreted, and
//         its tool's validators and projector are compiled afterwards)
//   node bench/inproc.js calls <project> <contender> <calls>
//       → just <calls> calls round-robin after each tool's first, for bench/instructions.js to count
//
// A round child sends {ready: measures} once set up, then answers each {slice: k} with
// {rate: calls/s}: the parent runs the contenders' slices in turn, so that slices compared
// with each other are measured within a fraction of a second (the noise of a shared machine
// changes over seconds). The memory child prints one JSON line.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { Server } = require("@modelcontextprotocol/server");
const { modulePath, rawConnect, checkResponse } = require("./servers");

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

/** Runs the SDK's request path (the same for every contender) until it is JIT-compiled. */
async function warmSdk() {
  const server = new Server({ name: "warm", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", () => ({ tools: [{ name: "t", inputSchema: { type: "object" } }] }));
  server.setRequestHandler("tools/call", () => ({ content: [{ type: "text", text: "ok" }] }));
  const rpc = await rawConnect(server);
  for (let i = 0; i < 500; i++) await rpc(i % 5 ? "tools/call" : "tools/list", { name: "t", arguments: {} });
  await server.close();
}

async function round(projectDir, contender, settings) {
  const calls = readCalls(projectDir);
  const n = calls.length;
  const createServer = require(modulePath(projectDir, contender)).createServer;
  await warmSdk();
  const out = {};

  // Registration + connect, then the first tools/list of the fresh server, then steady state.
  const [setupMs, rpc] = await timed(() => rawConnect(createServer()));
  const call = async (i) => checkResponse(await rpc("tools/call", calls[i]), `${contender} ${calls[i].name}`);
  out.setup_ms = setupMs;
  const [firstListMs, list] = await timed(() => rpc("tools/list", {}));
  if (list.result?.tools?.length !== n) throw new Error(`bench: ${contender} lists ${list.result?.tools?.length} tools, expected ${n}`);
  out.first_list_ms = firstListMs;
  const lists = [];
  for (let i = 0; i < settings.lists; i++) lists.push((await timed(() => rpc("tools/list", {})))[0]);
  out.steady_list_ms = median(lists);

  // The server's first tools/call (one-time set-up of the call path), a call of each shape,
  // then the first call of tools never called before: the lazy per-tool work (typemcp
  // compiles a tool's validators on its first call).
  const warmed = Math.min(8, n);
  for (let i = 0; i < warmed; i++) {
    const [ms] = await timed(() => call(i));
    if (i === 0) out.very_first_call_ms = ms;
  }
  // Consecutive tools cycle through every shape (the generator assigns shapes round-robin).
  const from = warmed + Math.max(0, Math.floor((n - warmed - settings.firstCalls) / 2));
  const firsts = [];
  for (let i = from; i < Math.min(n, from + settings.firstCalls); i++) firsts.push((await timed(() => call(i)))[0]);
  out.first_call_ms = median(firsts);
  out.first_call_max_ms = Math.max(...firsts);

  // Every tool called once (all lazy work done), then the warm-up, timed on its own: calls
  // round-robin while the JIT compiles the hot code. V8 optimizes a function once it has been
  // called often; typemcp has validators and a projector per shape of schema, each running for
  // 1/8 of these calls here, and --trace-opt shows them still being optimized some 25,000
  // calls in. Until then typemcp runs slower than in steady state (see docs/performance.md).
  for (let i = 0; i < n; i++) await call(i);
  const warmStarted = performance.now();
  for (let j = 0; j < settings.warmup; j++) await rpc("tools/call", calls[j % n]);
  out.warmup_calls_per_s = settings.warmup / ((performance.now() - warmStarted) / 1000);

  // Throughput in steady state: slices of calls round-robin over all tools, each on the parent's request.
  const perSlice = Math.max(1, Math.floor(settings.calls / settings.slices));
  // A slice follows an idle wait (the other contenders' slices), which a server under steady
  // load never has: its first calls, untimed, bring the process back to that steady state.
  const leadIn = Math.ceil(perSlice / 10);
  const slice = async (k) => {
    const next = k * perSlice;
    for (let j = 0; j < leadIn; j++) await rpc("tools/call", calls[(next + perSlice + j) % n]);
    const started = performance.now();
    for (let j = 0; j < perSlice; j++) await rpc("tools/call", calls[(next + j) % n]);
    return perSlice / ((performance.now() - started) / 1000);
  };
  return { out, slice };
}

/**
 * The first call of tools 0 .. shapes-1 (one of each shape: the generator assigns shapes
 * round-robin) in this fresh process, on a server that compiles nothing before a call needs
 * it: what a call pays when it comes before the background compile got to its tool, or on a
 * server made with `precompile: false`. The first is also the first compile of the process.
 */
async function lazy(projectDir, contender, shapes) {
  const calls = readCalls(projectDir);
  const rpc = await rawConnect(require(modulePath(projectDir, contender)).createServer({ precompile: false }));
  await rpc("tools/list", {});
  const times = [];
  for (let i = 0; i < Math.min(shapes, calls.length); i++) {
    const started = performance.now();
    checkResponse(await rpc("tools/call", calls[i]), `${contender} ${calls[i].name}`);
    times.push(performance.now() - started);
  }
  return { first_call_ms: times };
}

/** A session: tools/list, then `count` calls round-robin over every tool (each one's first checked). */
async function session(projectDir, contender, count) {
  const calls = readCalls(projectDir);
  const rpc = await rawConnect(require(modulePath(projectDir, contender)).createServer());
  await rpc("tools/list", {});
  for (let i = 0; i < count; i++) {
    const response = await rpc("tools/call", calls[i % calls.length]);
    if (i < calls.length) checkResponse(response, `${contender} ${calls[i].name}`);
  }
}

/** Peak RSS (kB) of a session of `count` calls. */
async function memory(projectDir, contender, count) {
  await session(projectDir, contender, count);
  return { max_rss_kb: process.resourceUsage().maxRSS }; // kB on Linux
}

async function main() {
  const [mode, projectDir, ...rest] = process.argv.slice(2);
  if (mode === "round") {
    const { out, slice } = await round(projectDir, rest[0], JSON.parse(rest[1]));
    process.on("message", (message) => {
      if (message.slice === undefined) process.exit(0); // servers and transports stay open; nothing else to wait for
      slice(message.slice).then((rate) => process.send({ rate }));
    });
    process.send({ ready: out });
    return;
  }
  if (mode === "lazy") {
    process.stdout.write(JSON.stringify(await lazy(projectDir, rest[0], Number(rest[1]))) + "\n");
    process.exit(0);
  }
  if (mode === "calls") {
    await session(projectDir, rest[0], Number(rest[1]));
    process.stdout.write(JSON.stringify({ calls: Number(rest[1]) }) + "\n");
    process.exit(0);
  }
  process.stdout.write(JSON.stringify(await memory(projectDir, rest[0], Number(rest[1]))) + "\n");
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
