// The three contenders of a generated project (generated and built by prepare), and a bare
// JSON-RPC client to drive them.
"use strict";
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { generate, writeFloor } = require("./generate");
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");

const CONTENDERS = ["typemcp", "zod", "floor"];

const LABELS = { typemcp: "typemcp", zod: "McpServer+Zod", floor: "floor" };

/** The module of each contender that exports createServer(), and the one that serves it over stdio. */
function modulePath(projectDir, contender, main = false) {
  const file = main ? "main.js" : "index.js";
  return contender === "typemcp" ? path.join(projectDir, "typemcp", "out", file) : path.join(projectDir, contender, file);
}

/**
 * Connects a server (MCPServer, McpServer or Server: all have connect()) to a bare JSON-RPC
 * client over InMemoryTransport and initializes the session. Unlike the SDK's Client it
 * does no work of its own on responses (no Zod parsing, no Ajv compilation of output
 * schemas), so what is timed is the server's cost. Returns rpc(method, params) → response.
 */
async function rawConnect(server) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
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
  const rpc = (method, params) =>
    new Promise((resolve) => {
      const requestId = ++id;
      pending.set(requestId, resolve);
      void clientSide.send({ jsonrpc: "2.0", id: requestId, method, params });
    });
  await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return rpc;
}

/** A response that is not a successful, non-error tool result means the benchmark measures the wrong thing. */
function checkResponse(response, what) {
  if (response.error || response.result?.isError) throw new Error(`bench: ${what} failed: ${JSON.stringify(response.error ?? response.result).slice(0, 600)}`);
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

module.exports = { CONTENDERS, LABELS, modulePath, rawConnect, checkResponse, child, prepare };
