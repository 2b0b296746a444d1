import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { MCPServer } from "typemcp";

/**
 * The official SDK client connected to a server over InMemoryTransport. `prepare` runs before
 * the handshake (to set notification handlers that must see everything).
 */
export async function connectClient(mcp: MCPServer, name = "test", prepare?: (client: Client) => void): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  const client = new Client({ name, version: "1.0.0" });
  prepare?.(client);
  await client.connect(clientTransport);
  return client;
}
