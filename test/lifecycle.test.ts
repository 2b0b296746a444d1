/**
 * The server process's life over real stdio: it exits when the client closes stdin, drains
 * the calls in flight on SIGTERM, and a per-tool timeout frees a hung call.
 */
import * as path from "node:path";
import { FIXTURES_OUT } from "./support/fixtures";
import { connectClient } from "./support/in-memory";
import { initialized } from "./support/raw-stdio";

const MODULE = path.join(FIXTURES_OUT, "timeouts", "tool.js");

function call(name: string, args: object) {
  return { name, arguments: args };
}

test("the process exits cleanly when the client closes stdin", async () => {
  const server = await initialized(MODULE);
  expect(await server.request("tools/call", call("quick", {}))).toMatchObject({
    result: { structuredContent: { result: "done" } },
  });
  server.child.stdin.end();
  expect(await server.exited).toEqual({ code: 0, signal: null });
});

test("closing stdin with a call in flight answers it before exiting", async () => {
  const server = await initialized(MODULE);
  server.send({ jsonrpc: "2.0", id: 99, method: "tools/call", params: call("sleep", { ms: 300 }) });
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.child.stdin.end();
  expect(await server.next()).toMatchObject({ id: 99, result: { structuredContent: { result: "slept 300 ms" } } });
  expect(await server.exited).toEqual({ code: 0, signal: null });
});

test("SIGTERM drains the calls in flight, then exits", async () => {
  const server = await initialized(MODULE);
  for (const id of [1001, 1002])
    server.send({ jsonrpc: "2.0", id, method: "tools/call", params: call("sleep", { ms: 200 }) });
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.child.kill("SIGTERM");
  const answers = [await server.next(), await server.next()];
  expect(answers.map((a) => a.id).sort()).toEqual([1001, 1002]);
  for (const answer of answers)
    expect(answer).toMatchObject({ result: { structuredContent: { result: "slept 200 ms" } } });
  expect(await server.exited).toEqual({ code: 0, signal: null });
});

test("SIGTERM with a call that never finishes: after shutdownTimeout it is answered with an error, and the process exits", async () => {
  const server = await initialized(MODULE);
  server.send({ jsonrpc: "2.0", id: 2001, method: "tools/call", params: call("forever", {}) });
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.child.kill("SIGTERM");
  expect(await server.next()).toEqual({
    jsonrpc: "2.0",
    id: 2001,
    result: {
      content: [
        {
          type: "text",
          text: "Error executing tool forever: the server shut down before the call finished (shutdownTimeout: 1000 ms)",
        },
      ],
      isError: true,
    },
  });
  expect(await server.exited).toEqual({ code: 0, signal: null });
}, 20_000);

test("a timed-out call answers isError and aborts the tool's signal", async () => {
  const server = await initialized(MODULE);
  expect(await server.request("tools/call", call("hang", {}))).toMatchObject({
    result: { content: [{ type: "text", text: "Error executing tool hang: timed out after 50 ms" }], isError: true },
  });
  // The server still serves, and the hung call's timer does not keep the process alive.
  expect(await server.request("tools/call", call("quick", {}))).toMatchObject({
    result: { structuredContent: { result: "done" } },
  });
  server.child.stdin.end();
  expect(await server.exited).toEqual({ code: 0, signal: null });
});

test("the timed-out tool saw its signal aborted with the reason", async () => {
  jest.resetModules();
  const fixture = require(MODULE) as typeof import("../fixtures/timeouts/tool");
  const client = await connectClient(fixture.mcp);
  await client.callTool({ name: "hang", arguments: {} });
  expect(fixture.aborted).toEqual(["timed out after 50 ms"]);
  await client.close();
});
