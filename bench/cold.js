// Cold start over stdio, as a 2026-07-28 client sees it: spawn the server, send
// `server/discover`, wait for the answer, send `tools/list`, stop the clock when the list
// arrives. One tools/call follows (the first call of a fresh process), then the server is stopped.
"use strict";
const { spawn } = require("node:child_process");
const { ENVELOPE } = require("./servers");

const DISCOVER = { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } };

/** Spawns `node <main>` once; resolves { start_ms, first_call_ms }. */
function coldStart(main, call) {
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
        if (message.id === 1) {
          send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: ENVELOPE } });
        } else if (message.id === 2) {
          listed = performance.now();
          result.start_ms = listed - started;
          result.tools = message.result.tools.length;
          send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { ...call, _meta: ENVELOPE } });
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
    send(DISCOVER);
  });
}

module.exports = { coldStart };
