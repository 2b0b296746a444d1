import { ProtocolErrorCode, type Server, type Transport } from "@modelcontextprotocol/server";
import type { StdioServerHandle } from "@modelcontextprotocol/server/stdio";

/** The SDK's stdio entry, loaded when a server first serves a connection (an HTTP-only server never needs it). */
function stdioModule(): typeof import("@modelcontextprotocol/server/stdio") {
  return require("@modelcontextprotocol/server/stdio") as typeof import("@modelcontextprotocol/server/stdio");
}

/**
 * Serves one connection over any SDK transport with the SDK's stdio entry: the client's first
 * message pins it to 2026-07-28 (`server/discover`, or a request with the `_meta` envelope) or
 * to 2025-11-25 (`initialize`); `instance` makes the server instance that serves it.
 */
export function serveConnection(transport: Transport, instance: () => Server): StdioServerHandle {
  // The SDK's stdio transport skips a line that is not JSON, and reports JSON that is not
  // JSON-RPC here without a word to the client: JSON-RPC answers it (id null), and the
  // connection goes on serving either way.
  const onerror = (error: Error) => {
    if (error.name !== "ZodError") return;
    const answer = {
      jsonrpc: "2.0" as const,
      id: null,
      error: { code: ProtocolErrorCode.InvalidRequest, message: "Invalid Request: the message is not JSON-RPC 2.0" },
    };
    void transport.send(answer as never).catch(() => undefined);
  };
  return stdioModule().serveStdio(instance, { transport, onerror });
}

/**
 * The transport of `mcp.run()` on stdio. The SDK's stdio transport stops reading, and drops the
 * requests in flight, when stdin ends; typemcp answers them first (a client may write its
 * requests, then close stdin). So the transport reads a copy of stdin that never ends, and the
 * end of the real one calls `onEnd` (which closes the server the way SIGTERM does).
 */
export function stdioTransport(onEnd: () => void): Transport {
  const { PassThrough } = require("node:stream") as typeof import("node:stream");
  const input = process.stdin.pipe(new PassThrough(), { end: false });
  process.stdin.once("end", onEnd);
  return new (stdioModule().StdioServerTransport)(input, process.stdout);
}
