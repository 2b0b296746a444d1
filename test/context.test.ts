/**
 * ToolContext end to end, through the official SDK client: progress notifications when the
 * client asks for them, log messages at the level the client sets, and cancellation
 * reaching the tool's AbortSignal.
 */
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema, type LoggingMessageNotification, type Progress } from "@modelcontextprotocol/sdk/types.js";
import type { MCPServer } from "typemcp";
import { FIXTURES_OUT } from "./support/fixtures";
import { connectClient } from "./support/in-memory";

let client: Client;
const logs: LoggingMessageNotification["params"][] = [];

beforeEach(async () => {
  jest.resetModules();
  const { mcp } = require(path.join(FIXTURES_OUT, "context_and_destructuring", "tool.js")) as { mcp: MCPServer };
  client = await connectClient(mcp, "context", (c) => c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params)));
  logs.length = 0;
});

afterEach(() => client.close());

test("reportProgress reaches a client that asked for progress, log reaches it too", async () => {
  const progress: Progress[] = [];
  const result = await client.callTool({ name: "count_to", arguments: { to: 3 } }, undefined, { onprogress: (p) => progress.push(p) });
  expect(result).toEqual({ content: [{ type: "text", text: "3" }], structuredContent: { result: 3 } });
  expect(progress).toEqual([
    { progress: 1, total: 3, message: "counted 1" },
    { progress: 2, total: 3, message: "counted 2" },
    { progress: 3, total: 3, message: "counted 3" },
  ]);
  expect(logs).toEqual([{ level: "info", logger: "count_to", data: { counted: 3 } }]);
});

test("log respects the level the client set", async () => {
  await client.setLoggingLevel("warning");
  await client.callTool({ name: "count_to", arguments: { to: 1 } });
  expect(logs).toEqual([]);
});

test("cancelling a call aborts the tool's signal", async () => {
  const controller = new AbortController();
  const call = client.callTool({ name: "wait_for_cancel", arguments: {} }, undefined, { signal: controller.signal });
  await new Promise((resolve) => setTimeout(resolve, 20));
  controller.abort("user gave up");
  await expect(call).rejects.toThrow();
  for (let i = 0; i < 50 && logs.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(logs).toEqual([{ level: "notice", logger: "wait_for_cancel", data: "cancelled" }]);
  // The server still serves.
  expect(await client.callTool({ name: "count_to", arguments: { to: 1 } })).toMatchObject({ structuredContent: { result: 1 } });
});
