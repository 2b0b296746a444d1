/**
 * End to end: each compiled fixture served by its own node process over stdio, driven by
 * both official clients — the SDK 1.x `Client` (draft-07 Ajv) and `@modelcontextprotocol/client`
 * 2.x (Ajv 2020, strict dialect handling) on 2025-11-25 and, negotiating as a new client does
 * (`server/discover` first), on 2026-07-28 — which list the tools, compile every output schema
 * and check every structured result against it. Same expectations as the in-memory run.
 */
import * as path from "node:path";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fixtures } from "./support/fixtures";
import { observe, withoutServerInfo, type McpClient } from "./support/observe";

const SERVE = path.join(__dirname, "support", "serve.js");
const served = fixtures().filter((f) => f.expected.registrationError === undefined);

const clients: [string, (module: string) => Promise<McpClient & { close(): Promise<void> }>][] = [
  [
    "@modelcontextprotocol/sdk 1.x Client",
    async (module) => {
      const client = new Client({ name: "stdio-e2e", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [SERVE, module], stderr: "pipe" }),
      );
      return client;
    },
  ],
  [
    "@modelcontextprotocol/client 2.x Client on 2025-11-25",
    async (module) => {
      const client = new ClientV2({ name: "stdio-e2e", version: "1.0.0" });
      await client.connect(
        new StdioClientTransportV2({ command: process.execPath, args: [SERVE, module], stderr: "pipe" }),
      );
      expect(client.getProtocolEra()).toBe("legacy");
      return client as unknown as McpClient & { close(): Promise<void> };
    },
  ],
  [
    "@modelcontextprotocol/client 2.x Client negotiating (2026-07-28)",
    async (module) => {
      const client = new ClientV2({ name: "stdio-e2e", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
      await client.connect(
        new StdioClientTransportV2({ command: process.execPath, args: [SERVE, module], stderr: "pipe" }),
      );
      expect(client.getProtocolEra()).toBe("modern");
      const callTool = client.callTool.bind(client);
      client.callTool = async (...args: Parameters<ClientV2["callTool"]>) =>
        withoutServerInfo(await callTool(...args), client.getServerVersion());
      return client as unknown as McpClient & { close(): Promise<void> };
    },
  ],
];

describe.each(clients)("%s", (_, connect) => {
  test.each(served)("$name over stdio", async ({ module, expected }) => {
    const client = await connect(module);
    try {
      const observed = await observe(client, expected);
      expect(observed.tools).toEqual(expected.tools);
      expect(observed.calls).toEqual(expected.calls);
    } finally {
      await client.close();
    }
  });
});
