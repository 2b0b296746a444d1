// Streamable HTTP, stateless, on either protocol revision: each contender's server in its own
// process on a loopback port, one keep-alive client (Node's fetch) sending every request in
// turn, the contenders' slices interleaved so that the ones compared are measured close in time.
//
//   node bench/http.js serve <project> <contender>   → prints {"port": N} once listening
//   node bench/http.js drive <settings JSON> <contender=url>...  → prints the measures as JSON
//       (settings.revision: 2026-07-28, each request with its envelope; or 2025-11-25, plain
//       requests, no session: the stateless legacy leg, no `initialize` needed)
//
// typemcp serves with `mcp.run({ transport: "http", stateless: true })`; the SDK's McpServer
// (Zod) and low-level Server (the floor) with the SDK's `createMcpHandler`, mounted on node:http
// with `toNodeHandler` behind the SDK's localhost Host/Origin guards, as the SDK's guide mounts it.
// Both serve 2025-11-25 requests statelessly, each on a fresh server instance: the SDK's
// `legacyStatelessFallback` (typemcp with `stateless: true`; `createMcpHandler`'s default).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { createServer } = require("node:http");
const { ENVELOPE, REVISIONS, modulePath, checkResponse } = require("./servers");

const MODERN = "2026-07-28";

async function serve(projectDir, contender) {
  const server = require(modulePath(projectDir, contender));
  if (contender === "typemcp") {
    const { port } = await server.createServer().run({ transport: "http", port: 0, stateless: true });
    return port;
  }
  const { createMcpHandler } = require("@modelcontextprotocol/server");
  const { localhostHostValidation, localhostOriginValidation, toNodeHandler } = require("@modelcontextprotocol/node");
  const handle = toNodeHandler(createMcpHandler(() => server.createServer()));
  const validHost = localhostHostValidation();
  const validOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    void handle(req, res);
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  return http.address().port;
}

/**
 * One request as its own POST, with the headers the spec of `revision` has clients send: on
 * 2026-07-28 the envelope in `_meta` and the method's headers; on 2025-11-25 the plain request,
 * no session. The answer is read whole, a JSON body or an SSE stream's message alike.
 */
async function post(url, method, params, revision) {
  const modern = revision === MODERN;
  const headers = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": revision,
  };
  if (modern) headers["mcp-method"] = method;
  if (modern && params.name) headers["mcp-name"] = params.name;
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: modern ? { ...params, _meta: ENVELOPE } : params }),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`bench: ${method} (${revision}) answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return JSON.parse(text);
  // An SSE stream: the response is the message with the request's id.
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = JSON.parse(line.slice(5));
    if (message.id === 1) return message;
  }
  throw new Error(`bench: ${method} (${revision}) answered no response in its stream: ${text.slice(0, 300)}`);
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function drive(settings, urls) {
  const calls = JSON.parse(fs.readFileSync(path.join(settings.project, "calls.json"), "utf8"));
  const { revision } = settings;
  if (!REVISIONS.includes(revision)) throw new Error(`bench: no such protocol revision ${revision} (${REVISIONS})`);
  const names = Object.keys(urls);
  // Every tool's first call, and the list, before anything is timed: each contender warms up alike.
  for (const name of names) {
    checkResponse(await post(urls[name], "tools/list", {}, revision), `${name} tools/list`);
    for (const call of calls)
      checkResponse(await post(urls[name], "tools/call", call, revision), `${name} ${call.name}`);
  }
  const latencies = Object.fromEntries(names.map((name) => [name, []]));
  const rates = Object.fromEntries(names.map((name) => [name, []]));
  const perSlice = Math.ceil(settings.calls / settings.slices);
  for (let slice = 0; slice < settings.slices; slice++) {
    const order = slice % 2 ? [...names].reverse() : names;
    for (const name of order) {
      const started = performance.now();
      for (let j = 0; j < perSlice; j++) {
        const call = calls[(slice * perSlice + j) % calls.length];
        const t = performance.now();
        checkResponse(await post(urls[name], "tools/call", call, revision), `${name} ${call.name}`);
        latencies[name].push(performance.now() - t);
      }
      rates[name].push(perSlice / ((performance.now() - started) / 1000));
    }
  }
  const out = {};
  for (const name of names) {
    const sorted = latencies[name].sort((a, b) => a - b);
    out[name] = { calls_per_s: rates[name], p50_ms: percentile(sorted, 0.5), p99_ms: percentile(sorted, 0.99) };
  }
  return out;
}

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === "serve") {
    const port = await serve(args[0], args[1]);
    process.stdout.write(JSON.stringify({ port }) + "\n");
    return;
  }
  const urls = Object.fromEntries(args.slice(1).map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
  process.stdout.write(JSON.stringify(await drive(JSON.parse(args[0]), urls)) + "\n");
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
