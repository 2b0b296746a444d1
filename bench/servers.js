// The three contenders of a generated project (generated and built by prepare), and a bare
// JSON-RPC client to drive them.
"use strict";
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { generate, writeFloor } = require("./generate");
const { InMemoryTransport } = require("@modelcontextprotocol/server");
const { serveStdio } = require("@modelcontextprotocol/server/stdio");

const CONTENDERS = ["typemcp", "zod", "floor"];

const LABELS = { typemcp: "typemcp", zod: "McpServer+Zod", floor: "floor" };

/** The module of each contender that exports createServer(), and the one that serves it over stdio. */
function modulePath(projectDir, contender, main = false) {
  const file = main ? "main.js" : "index.js";
  return contender === "typemcp"
    ? path.join(projectDir, "typemcp", "out", file)
    : path.join(projectDir, contender, file);
}

/** What a 2026-07-28 client puts in the `_meta` of every request. */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * Connects a server to a bare JSON-RPC client over InMemoryTransport, through the SDK's own
 * connection entry (`serveStdio` with the transport: what typemcp's `connect()` does, and what
 * serves the SDK's McpServer and low-level Server on stdio), speaking 2026-07-28: no
 * `initialize`, the envelope in every request's `_meta`. Unlike the SDK's Client it does no
 * work of its own on responses (no Zod parsing, no Ajv compilation of output schemas), so what
 * is timed is the server's cost. Returns rpc(method, params) → response.
 */
async function rawConnect(server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // typemcp's MCPServer serves itself through serveStdio; the SDK's servers are handed to it.
  if (typeof server.handler === "function") await server.connect(serverSide);
  else serveStdio(() => server, { transport: serverSide });
  let id = 0;
  const pending = new Map();
  clientSide.onmessage = (message) => {
    const resolve = pending.get(message.id);
    if (resolve) {
      pending.delete(message.id);
      resolve(message);
    }
  };
  await clientSide.start();
  const rpc = (method, params = {}) =>
    new Promise((resolve) => {
      const requestId = ++id;
      pending.set(requestId, resolve);
      void clientSide.send({ jsonrpc: "2.0", id: requestId, method, params: { ...params, _meta: ENVELOPE } });
    });
  checkResponse(await rpc("server/discover"), "server/discover");
  return rpc;
}

/** A response that is not a successful, non-error tool result means the benchmark measures the wrong thing. */
function checkResponse(response, what) {
  if (response.error || response.result?.isError)
    throw new Error(`bench: ${what} failed: ${JSON.stringify(response.error ?? response.result).slice(0, 600)}`);
  return response;
}

/** Runs a child node script of bench/, returns its last stdout line as JSON (the children print one). */
function child(script, args, nodeOptions = []) {
  const stdout = execFileSync(process.execPath, [...nodeOptions, path.join(__dirname, script), ...args.map(String)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split("\n").pop());
}

/**
 * Generates and builds the N-tool project, then writes the floor from the schemas typemcp
 * publishes. Returns the typemcp build's times.
 */
async function prepare(dir, n) {
  generate(dir, n);
  const built = child("build.js", [path.join(dir, "typemcp")]);
  const server = require(modulePath(dir, "typemcp")).createServer();
  const rpc = await rawConnect(server);
  const { result } = await rpc("tools/list", {});
  await server.close();
  writeFloor(path.join(dir, "floor"), result.tools);
  return built;
}

module.exports = { CONTENDERS, LABELS, ENVELOPE, modulePath, rawConnect, checkResponse, child, prepare };
