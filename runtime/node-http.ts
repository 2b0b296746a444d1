import { createServer } from "node:http";
import { isIP } from "node:net";
import { localhostAllowedHostnames } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { DEFAULT_MAX_BODY, type HttpHandlerOptions, type ServedEndpoint } from "./http";

/** `mcp.run({ transport: "http", ... })`: a Node HTTP server around `mcp.handler()`. */
export interface HttpOptions extends HttpHandlerOptions {
  transport: "http";
  /** Default 3000; 0 picks a free port (see the returned address). */
  port?: number;
  /** Default "127.0.0.1": only this machine. "0.0.0.0" serves the network (and prints what that exposes). */
  host?: string;
  /** Milliseconds to receive a whole request (Node's `requestTimeout`). Default 300,000. */
  requestTimeoutMs?: number;
  /** Milliseconds to receive a request's headers (Node's `headersTimeout`). Default 60,000. */
  headersTimeoutMs?: number;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** A Host header's form: a name or an IPv4 address, or an IPv6 address in brackets, and a port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/** Serves the endpoint on a Node HTTP server; resolves when it listens, to its port and URL. */
export async function listen(
  endpoint: ServedEndpoint,
  options: HttpOptions,
  serverName: string,
): Promise<{ port: number; url: string }> {
  const host = options.host ?? "127.0.0.1";
  const serve = toNodeHandler(endpoint, { maxRequestBodySize: options.maxBodyBytes ?? DEFAULT_MAX_BODY });
  const requestTimeout = options.requestTimeoutMs ?? 300_000;
  const headersTimeout = options.headersTimeoutMs ?? 60_000;
  // Node enforces both timeouts when it checks its connections (every 30 s by default): often
  // enough that a timeout is kept to within a quarter of itself.
  const connectionsCheckingInterval = Math.max(100, Math.min(30_000, headersTimeout / 4, requestTimeout / 4));
  const http = createServer({ requestTimeout, headersTimeout, connectionsCheckingInterval }, (req, res) => {
    // A Host that is no host (`localhost:3000@evil.example`) cannot make a request URL: refused
    // here as the Host check refuses another host, not a 500 from building the URL.
    const hostHeader = req.headers.host;
    if (hostHeader !== undefined && !HOST.test(hostHeader)) {
      res.writeHead(403, { "content-type": "application/json", connection: "close" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Invalid Host header" } }));
      return;
    }
    void serve(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 3000, host, () => resolve());
  });
  const close = endpoint.close;
  endpoint.close = async () => {
    const closed = new Promise((resolve) => http.close(resolve));
    http.closeAllConnections(); // keep-alive and event streams would hold close() open
    await Promise.allSettled([close(), closed]);
  };
  const address = http.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 3000);
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}${options.path ?? "/mcp"}`;
  // stderr: stdout may be a protocol channel elsewhere, and it is what a process supervisor logs.
  process.stderr.write(`typemcp: ${serverName} serves MCP at ${url}\n`);
  // With auth, a caller needs a token: what is exposed is the Host check alone, when there is none.
  const exposed = [
    options.auth ? undefined : `every tool is callable by anyone who can reach port ${port}`,
    options.allowedHosts ? undefined : "Host is not checked (set allowedHosts to the names clients use)",
  ].filter(Boolean);
  if (!isLoopback(host) && exposed.length > 0)
    process.stderr.write(`typemcp: warning: listening on ${host}, not loopback: ${exposed.join(", and ")}\n`);
  return { port, url };
}

/** The endpoint options `mcp.run` serves with: `/mcp`, and loopback host names checked when it listens on loopback. */
export function runEndpointOptions(options: HttpOptions): HttpHandlerOptions {
  const host = options.host ?? "127.0.0.1";
  return {
    ...options,
    path: options.path ?? "/mcp",
    allowedHosts: options.allowedHosts ?? (isLoopback(host) ? localhostAllowedHostnames() : undefined),
  };
}
