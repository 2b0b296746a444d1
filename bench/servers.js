// The three contenders of a generated project, and a bare JSON-RPC client to drive them.
"use strict";
const path = require("node:path");
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

module.exports = { CONTENDERS, LABELS, modulePath, rawConnect, checkResponse };
