import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

export interface HttpOptions {
  transport: "http";
  /** Default 3000; 0 picks a free port (see the returned address). */
  port?: number;
  /** Default "127.0.0.1": only this machine. Use "0.0.0.0" to serve the network. */
  host?: string;
  /** The MCP endpoint. Default "/mcp". */
  path?: string;
  /**
   * No sessions: every request is served on its own, so any process behind a load balancer
   * can answer any request (no sticky sessions, nothing kept between requests). Default false.
   */
  stateless?: boolean;
}

const MAX_BODY = 10 * 1024 * 1024;

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RangeError("body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/**
 * Serves MCP over the SDK's Streamable HTTP transport. `session()` makes a new low-level
 * Server wired to the tools: one per session (stateful), or one per request (stateless).
 */
export async function serveHttp(session: () => Server, options: HttpOptions): Promise<HttpServer> {
  const endpoint = options.path ?? "/mcp";
  const transports = new Map<string, StreamableHTTPServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== endpoint) return reply(res, 404, -32000, `Not found: the MCP endpoint is ${endpoint}`);
    let body: unknown;
    if (req.method === "POST") {
      try {
        body = await readJson(req);
      } catch (error) {
        return reply(res, error instanceof RangeError ? 413 : 400, -32700, error instanceof RangeError ? "Request body too large" : "Parse error: the body is not JSON");
      }
    }

    if (options.stateless) {
      if (req.method !== "POST") return reply(res, 405, -32000, "Method not allowed: this server is stateless (POST only)");
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const server = session();
      res.on("close", () => void transport.close().then(() => server.close()).catch(() => undefined));
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }

    const id = req.headers["mcp-session-id"];
    const existing = typeof id === "string" ? transports.get(id) : undefined;
    if (existing) return existing.handleRequest(req, res, body);
    if (req.method !== "POST" || !isInitializeRequest(body)) {
      return reply(res, 400, -32000, typeof id === "string" ? `Unknown session ${id}: initialize a new one` : "Bad request: no session; send initialize first");
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void transports.set(sessionId, transport),
    });
    const server = session();
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
      void server.close().catch(() => undefined);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) reply(res, 500, -32603, `Internal error: ${(error as Error).message}`);
      else res.end();
    });
  });
  http.on("close", () => {
    for (const transport of transports.values()) void transport.close().catch(() => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, options.host ?? "127.0.0.1", () => resolve());
  });
  return http;
}
