/**
 * ToolContext end to end, through the v2 SDK client on both protocol revisions: progress when
 * the client asks for it, log messages at the level the client asks for (per call on
 * 2026-07-28, with logging/setLevel on 2025-11-25), cancellation reaching the tool's
 * AbortSignal, and what the client said of itself.
 */
import * as path from "node:path";
import type { Client, LoggingMessageNotification, Progress } from "@modelcontextprotocol/client";
import type { MCPServer } from "typemcp";
import { FIXTURES_OUT } from "./support/fixtures";
import { connectClient } from "./support/in-memory";

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";

describe.each(["2026-07-28", "2025-11-25"] as const)("on %s", (revision) => {
  const modern = revision === "2026-07-28";
  let client: Client;
  let cancelled: unknown[];
  const logs: LoggingMessageNotification["params"][] = [];

  beforeEach(async () => {
    jest.resetModules();
    const fixture = require(path.join(FIXTURES_OUT, "context_and_destructuring", "tool.js")) as {
      mcp: MCPServer;
      cancelled: unknown[];
    };
    const mcp = fixture.mcp;
    cancelled = fixture.cancelled;
    client = await connectClient(mcp, revision, (c) =>
      c.setNotificationHandler("notifications/message", (n) => void logs.push(n.params)),
    );
    logs.length = 0;
  });

  afterEach(() => client.close());

  /** Asks for log messages from `level` up: in the call's `_meta` on 2026-07-28, for the session on 2025-11-25. */
  async function logFrom(level: "info" | "warning"): Promise<Record<string, unknown> | undefined> {
    if (modern) return { [LOG_LEVEL]: level };
    await client.setLoggingLevel(level);
    return undefined;
  }

  test("reportProgress reaches a client that asked for progress, log reaches it too", async () => {
    const progress: Progress[] = [];
    const _meta = await logFrom("info");
    const result = await client.callTool(
      { name: "count_to", arguments: { to: 3 }, _meta },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result).toEqual({ content: [{ type: "text", text: "3" }], structuredContent: { result: 3 } });
    expect(progress).toEqual([
      { progress: 1, total: 3, message: "counted 1" },
      { progress: 2, total: 3, message: "counted 2" },
      { progress: 3, total: 3, message: "counted 3" },
    ]);
    expect(logs).toEqual([{ level: "info", logger: "count_to", data: { counted: 3 } }]);
  });

  test("log respects the level the client asked for", async () => {
    const _meta = await logFrom("warning");
    await client.callTool({ name: "count_to", arguments: { to: 1 }, _meta });
    expect(logs).toEqual([]);
  });

  test("cancelling a call aborts the tool's signal, and the server still serves", async () => {
    const controller = new AbortController();
    const _meta = await logFrom("info");
    const call = client.callTool({ name: "wait_for_cancel", arguments: {}, _meta }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort("user gave up");
    await expect(call).rejects.toThrow();
    for (let i = 0; i < 50 && cancelled.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(cancelled).toHaveLength(1);
    if (!modern) {
      // On 2025-11-25 the session outlives the call: the tool's log after the abort still arrives.
      for (let i = 0; i < 50 && logs.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(logs).toEqual([{ level: "notice", logger: "wait_for_cancel", data: "cancelled" }]);
    }
    expect(await client.callTool({ name: "count_to", arguments: { to: 1 } })).toMatchObject({
      structuredContent: { result: 1 },
    });
  });

  test("ctx.client is what the client said of itself", async () => {
    expect((await client.callTool({ name: "whoami", arguments: {} })).structuredContent).toEqual({
      client: "test 1.0.0",
      protocolVersion: revision,
      elicitation: false,
    });
  });
});
