// The three contenders of a generated project (generated and built by prepare), and a bare
// JSON-RPC client to drive them.
"use strict";
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const { isDeepStrictEqual } = require("node:util");
const { generate, writeFloor } = require("./generate");
const promptsAndResources = require("./prompts-resources");
const asking = require("./asking");
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

/** The protocol revisions a client speaks: the one most clients negotiate today, and the stateless one. */
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
const REVISIONS = [LEGACY, MODERN];

/** What a 2026-07-28 client puts in the `_meta` of every request. */
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * Connects a server to a bare JSON-RPC client over InMemoryTransport, through the SDK's own
 * connection entry (`serveStdio` with the transport: what typemcp's `connect()` does, and what
 * serves the SDK's McpServer and low-level Server on stdio), speaking `revision`: 2026-07-28
 * (the default) sends no `initialize` and the envelope in every request's `_meta`; 2025-11-25
 * sends `initialize`, then `notifications/initialized`, then plain requests. Unlike the SDK's
 * Client it does no work of its own on responses (no Zod parsing, no Ajv compilation of output
 * schemas), so what is timed is the server's cost. Returns rpc(method, params) → response.
 *
 * `client.capabilities` is what the client declares it can answer (in `initialize`, or in
 * every request's envelope); `client.onRequest(request)` answers a request from the server
 * (2025-11-25's `elicitation/create`) with its result.
 */
async function rawConnect(server, revision = MODERN, client = {}) {
  if (!REVISIONS.includes(revision)) throw new Error(`bench: no such protocol revision ${revision} (${REVISIONS})`);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  // typemcp's MCPServer serves itself through serveStdio; the SDK's servers are handed to it.
  if (typeof server.handler === "function") await server.connect(serverSide);
  else serveStdio(() => server, { transport: serverSide });
  let id = 0;
  const pending = new Map();
  clientSide.onmessage = (message) => {
    if (message.method !== undefined) {
      // A request from the server (it has an id; a notification has none): answered, never timed apart.
      if (message.id !== undefined && client.onRequest)
        void clientSide.send({ jsonrpc: "2.0", id: message.id, result: client.onRequest(message) });
      return;
    }
    const resolve = pending.get(message.id);
    if (resolve) {
      pending.delete(message.id);
      resolve(message);
    }
  };
  await clientSide.start();
  const modern = revision === MODERN;
  const capabilities = client.capabilities ?? {};
  const envelope = client.capabilities
    ? { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": capabilities }
    : ENVELOPE;
  const rpc = (method, params = {}) =>
    new Promise((resolve) => {
      const requestId = ++id;
      pending.set(requestId, resolve);
      void clientSide.send({
        jsonrpc: "2.0",
        id: requestId,
        method,
        params: modern ? { ...params, _meta: envelope } : params,
      });
    });
  if (modern) {
    checkResponse(await rpc("server/discover"), "server/discover");
    return rpc;
  }
  const initialize = { protocolVersion: LEGACY, capabilities, clientInfo: { name: "bench", version: "1" } };
  const { result } = checkResponse(await rpc("initialize", initialize), "initialize");
  if (result.protocolVersion !== LEGACY)
    throw new Error(`bench: initialize negotiated ${result.protocolVersion}, not ${LEGACY}`);
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return rpc;
}

/** A response that is not a successful, non-error tool result means the benchmark measures the wrong thing. */
function checkResponse(response, what) {
  if (response.error || response.result?.isError)
    throw new Error(`bench: ${what} failed: ${JSON.stringify(response.error ?? response.result).slice(0, 600)}`);
  return response;
}

/**
 * The contenders' answers to the same requests must be the same, the whole result (`_meta`,
 * `resultType` and the cache fields the SDK adds on 2026-07-28 included): a contender that
 * answered less, or something else, would be measured doing other work. Throws on the first
 * that differs; returns how many answers were compared.
 */
function compareAnswers(answers, revision) {
  let compared = 0;
  for (const { key, method } of promptsAndResources.ROWS) {
    const expected = answers.floor[key];
    for (const c of CONTENDERS.filter((c) => c !== "floor")) {
      expected.forEach((response, i) => {
        const got = answers[c][key][i];
        if (!isDeepStrictEqual(got.result, response.result))
          throw new Error(
            `bench: ${LABELS[c]} answers ${method} (${revision}, ${key} ${i}) otherwise than the floor:\n${JSON.stringify(got.result)}\nthe floor:\n${JSON.stringify(response.result)}`,
          );
        compared++;
      });
    }
  }
  return compared;
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

/** The project of prompts and resources (bench/prompts-resources.js), beside the tools' project in `dir`. */
const promptsDir = (dir) => path.join(dir, "prompts-resources");

/** The project of 500 tools of one shape (get_weather's), beside the tools' project of eight in `dir`. */
const oneShapeDir = (dir) => path.join(dir, "one-shape");

/** The project of the elicitation round trip (bench/asking.js), beside the tools' project in `dir`. */
const askingDir = (dir) => path.join(dir, "asking");

/** Generates the elicitation round trip's project and builds its typemcp server with the transformer. */
function prepareAsking(dir) {
  const project = askingDir(dir);
  asking.generate(project);
  child("build.js", [path.join(project, "typemcp")]);
}

/**
 * Generates and builds the N-tool project of the first `shapes` shapes (bench/generate.js), then
 * writes its floor from typemcp's tools/list. Returns the typemcp build's times.
 */
async function prepareTools(dir, n, shapes) {
  generate(dir, n, shapes);
  const built = child("build.js", [path.join(dir, "typemcp")]);
  const server = require(modulePath(dir, "typemcp")).createServer();
  const rpc = await rawConnect(server);
  const { result } = await rpc("tools/list", {});
  await server.close();
  writeFloor(path.join(dir, "floor"), result.tools, shapes);
  return built;
}

/**
 * Generates and builds the N-tool project (every shape), the N-tool project of one shape
 * (oneShapeDir), the project of prompts and resources and the elicitation round trip's, and
 * writes their floors from what typemcp publishes (its tools/list; preparePromptsAndResources).
 * Returns the typemcp tools build's times (every shape's).
 */
async function prepare(dir, n) {
  const built = await prepareTools(dir, n);
  await prepareTools(oneShapeDir(dir), n, 1);
  await preparePromptsAndResources(dir);
  prepareAsking(dir);
  return built;
}

/**
 * Generates the project of prompts and resources and builds its typemcp server, then writes
 * its floor from what typemcp publishes (its prompts/list, resources/list and
 * resources/templates/list).
 */
async function preparePromptsAndResources(dir) {
  const kinds = promptsDir(dir);
  promptsAndResources.generate(kinds);
  child("build.js", [path.join(kinds, "typemcp")]);
  const kindsServer = require(modulePath(kinds, "typemcp")).createServer();
  const ask = await rawConnect(kindsServer);
  const list = async (method, key) => checkResponse(await ask(method, {}), method).result[key];
  const lists = {
    prompts: await list("prompts/list", "prompts"),
    resources: await list("resources/list", "resources"),
    resourceTemplates: await list("resources/templates/list", "resourceTemplates"),
  };
  await kindsServer.close();
  promptsAndResources.writeFloor(path.join(kinds, "floor"), lists);
}

module.exports = {
  CONTENDERS,
  LABELS,
  ENVELOPE,
  REVISIONS,
  modulePath,
  promptsDir,
  oneShapeDir,
  askingDir,
  prepareAsking,
  preparePromptsAndResources,
  rawConnect,
  checkResponse,
  compareAnswers,
  child,
  prepare,
  prepareTools,
};
