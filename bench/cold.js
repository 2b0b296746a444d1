// Cold start over stdio, as a client of either protocol revision sees it: spawn the server,
// open the connection (2026-07-28: `server/discover`; 2025-11-25: `initialize`, then
// `notifications/initialized`), send `tools/list`, stop the clock when the list arrives. One
// tools/call follows (the first call of a fresh process), then the server is stopped.
"use strict";
const { spawn } = require("node:child_process");
const { ENVELOPE, REVISIONS } = require("./servers");

const MODERN = "2026-07-28";

/** The request that opens the connection on `revision` (id 1). */
function opening(revision) {
  if (revision === MODERN) return { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } };
  const clientInfo = { name: "bench", version: "1" };
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: revision, capabilities: {}, clientInfo },
  };
}

/** Spawns `node <main>` once and speaks `revision` (2026-07-28 by default); resolves { start_ms, first_call_ms }. */
function coldStart(main, call, revision = MODERN) {
  if (!REVISIONS.includes(revision)) throw new Error(`bench: no such protocol revision ${revision} (${REVISIONS})`);
  const modern = revision === MODERN;
  const params = (p) => (modern ? { ...p, _meta: ENVELOPE } : p);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [main], { stdio: ["pipe", "pipe", "pipe"] });
    const send = (message) => child.stdin.write(JSON.stringify(message) + "\n");
    let buffered = "";
    let stderr = "";
    let listed = 0;
    const result = {};
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (result.first_call_ms === undefined)
        reject(new Error(`bench: ${main} exited (${code}) before answering: ${stderr.slice(0, 2000)}`));
    });
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line);
        if (message.error && message.id !== 3)
          return reject(new Error(`bench: ${main} (${revision}): request ${message.id} failed: ${line.slice(0, 600)}`));
        if (message.id === 1) {
          if (!modern) {
            if (message.result.protocolVersion !== revision)
              return reject(new Error(`bench: ${main} negotiated ${message.result.protocolVersion}, not ${revision}`));
            send({ jsonrpc: "2.0", method: "notifications/initialized" });
          }
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: params({}) });
        } else if (message.id === 2) {
          listed = performance.now();
          result.start_ms = listed - started;
          result.tools = message.result.tools.length;
          send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: params(call) });
        } else if (message.id === 3) {
          if (message.error || message.result.isError)
            return reject(new Error(`bench: ${main}: ${call.name} failed: ${line.slice(0, 600)}`));
          result.first_call_ms = performance.now() - listed;
          // Resolve once it is gone, so that it does not compete with the next measurement.
          child.once("exit", () => resolve(result));
          child.kill();
        }
      }
    });
    send(opening(revision));
  });
}

module.exports = { coldStart };
