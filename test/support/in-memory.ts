import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { MCPServer } from "typemcp";
import { withoutServerInfo } from "./observe";

/**
 * The clients every in-memory suite can drive a server with: the SDK's v2 `Client` speaking
 * 2026-07-28 (it probes with `server/discover`, then sends `_meta` on every request), the same
 * client speaking 2025-11-25 (`initialize`), and the v1 SDK's `Client` (2025-11-25, draft-07 Ajv).
 */
export const CLIENTS = ["2026-07-28", "2025-11-25", "v1 SDK"] as const;
export type ClientKind = (typeof CLIENTS)[number];

/**
 * The v2 SDK client connected to a server over InMemoryTransport, on the revision asked for
 * (2026-07-28 unless told). `prepare` runs before the connection opens (to set notification
 * handlers that must see everything).
 */
export async function connectClient(
  mcp: MCPServer,
  revision: "2026-07-28" | "2025-11-25" = "2026-07-28",
  prepare?: (client: Client) => void,
): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  const client = new Client(
    { name: "test", version: "1.0.0" },
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  prepare?.(client);
  await client.connect(clientTransport);
  const era = client.getProtocolEra();
  if (era !== (revision === "2026-07-28" ? "modern" : "legacy"))
    throw new Error(`the client connected on the ${era} era, not ${revision}`);
  if (era === "modern") {
    // Results compare to the same expectations on both revisions: see withoutServerInfo.
    const callTool = client.callTool.bind(client);
    client.callTool = async (...args: Parameters<Client["callTool"]>) =>
      withoutServerInfo(await callTool(...args), client.getServerVersion());
  }
  return client;
}

/** The v1 SDK's client (2025-11-25 only) over its own InMemoryTransport. */
export async function connectLegacyClient(
  mcp: MCPServer,
  prepare?: (client: LegacyClient) => void,
): Promise<LegacyClient> {
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  const client = new LegacyClient({ name: "test", version: "1.0.0" });
  prepare?.(client);
  await client.connect(clientTransport);
  return client;
}

/** What `observe()` needs of a client, whichever it is. */
export interface AnyClient {
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** A client of the given kind, connected to `mcp` in memory. */
export function connect(mcp: MCPServer, kind: ClientKind): Promise<AnyClient> {
  return kind === "v1 SDK" ? connectLegacyClient(mcp) : (connectClient(mcp, kind) as Promise<AnyClient>);
}
