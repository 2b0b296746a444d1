// What OpenTelemetry costs a tools/call (runtime/trace.ts), on both protocol revisions, in three
// settings, each in a fresh process per round, turning order each round:
//
// - absent: `@opentelemetry/api` cannot be found (most servers: not installed);
// - no provider: the API is installed (often, as a dependency of a dependency) but the
//   application registered no tracer provider, so no span would be recorded;
// - recording: a tracer provider, W3C propagation and an async-hooks context manager, every span
//   recorded and handed to an exporter that drops it (what a server with tracing on pays).
//
// The target is "no cost when OpenTelemetry is absent": the first two must match (ratio 1.00
// within noise); the third is the price of tracing, reported. A bare JSON-RPC client over
// InMemoryTransport (bench/servers.js's rawConnect), so only the server's work is timed; every
// call from the server's start is in the window (no warm-up).
//
//   npm run build && node bench/traces.js [--calls=20000] [--rounds=5]
"use strict";
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const SETTINGS = ["absent", "no provider", "recording"];
const REVISIONS = ["2025-11-25", "2026-07-28"];

function option(name, fallback) {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split("=")[1]) : fallback;
}

/** One process: a server of one tool, `calls` calls in a row, calls per second. */
async function child(setting, revision, calls) {
  if (setting === "absent") {
    // As if the API were not installed: resolving it fails, as it does in a project without it.
    const Module = require("node:module");
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      if (request === "@opentelemetry/api")
        throw Object.assign(new Error("not installed"), { code: "MODULE_NOT_FOUND" });
      return resolve.call(this, request, ...rest);
    };
  }
  if (setting === "recording") {
    const { context, propagation, trace } = require("@opentelemetry/api");
    const { AsyncLocalStorageContextManager } = require("@opentelemetry/context-async-hooks");
    const { W3CTraceContextPropagator } = require("@opentelemetry/core");
    const { BasicTracerProvider, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
    const dropping = { export: (spans, done) => done({ code: 0 }), shutdown: () => Promise.resolve() };
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropping)] }));
  }
  const { CONTRACT_VERSION, MCPServer } = require(path.join(__dirname, "..", "dist", "runtime"));
  const { rawConnect, checkResponse } = require("./servers");
  const mcp = new MCPServer("traces");
  mcp.tool((a, b) => ({ result: a + b }), {
    v: CONTRACT_VERSION,
    name: "add",
    params: ["a", "b"],
    inputSchema: {
      type: "object",
      title: "addArguments",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { result: { type: "number" } }, required: ["result"] },
  });
  const rpc = await rawConnect(mcp, revision);
  checkResponse(await rpc("tools/call", { name: "add", arguments: { a: 1, b: 2 } }), "tools/call");
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await rpc("tools/call", { name: "add", arguments: { a: i, b: 1 } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ perSecond: calls / seconds }));
  await mcp.close();
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function main() {
  const calls = option("calls", 20000);
  const rounds = option("rounds", 5);
  const results = {};
  for (const revision of REVISIONS) {
    const seen = Object.fromEntries(SETTINGS.map((s) => [s, []]));
    for (let round = 0; round < rounds; round++) {
      const order = SETTINGS.map((_, i) => SETTINGS[(i + round) % SETTINGS.length]);
      for (const setting of order) {
        const out = execFileSync(process.execPath, [__filename, "child", setting, revision, String(calls)], {
          encoding: "utf8",
        });
        seen[setting].push(JSON.parse(out).perSecond);
      }
    }
    const base = median(seen.absent);
    results[revision] = Object.fromEntries(
      SETTINGS.map((s) => [
        s,
        { perSecond: Math.round(median(seen[s])), vsAbsent: +(median(seen[s]) / base).toFixed(3) },
      ]),
    );
  }
  const load = require("node:os")
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  console.log(`| tools/call, ${calls} calls from the start, median of ${rounds} | ${REVISIONS.join(" | ")} |`);
  console.log(`|---|${REVISIONS.map(() => "---").join("|")}|`);
  for (const s of SETTINGS)
    console.log(
      `| ${s} | ${REVISIONS.map((r) => `${results[r][s].perSecond.toLocaleString("en")}/s (${results[r][s].vsAbsent.toFixed(2)}×)`).join(" | ")} |`,
    );
  console.log(`load average ${load}`);
  console.log(JSON.stringify(results));
}

if (process.argv[2] === "child")
  child(process.argv[3], process.argv[4], Number(process.argv[5])).catch((error) => {
    console.error(error);
    process.exit(1);
  });
else main();
