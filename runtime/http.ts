// Web-standard only (Request, Response, Web Crypto): this module is what `mcp.handler()` runs
// on serverless and edge runtimes. The Node HTTP server around it is runtime/node-http.ts.
import {
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isLegacyRequest,
  legacyStatelessFallback,
  localhostAllowedOrigins,
  originValidationResponse,
  readRequestBody,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type Server,
} from "@modelcontextprotocol/server";
import { AuthGate, type ScopeLookup } from "./auth/gate";
import type { AuthOptions } from "./auth/options";
import type { ListKind } from "./registry";

/** Options of `mcp.handler()`: Streamable HTTP as a Web-standard `fetch(Request) → Response`. */
export interface HttpHandlerOptions {
  /** The MCP endpoint's path; a request for another path gets 404. Default: any path (`mcp.run` serves `/mcp`). */
  path?: string;
  /**
   * 2025-11-25 clients (which open with `initialize`) are served without sessions: any process
   * behind a load balancer can answer any request. Default false: they get a session each, kept
   * in this process. 2026-07-28 clients are always served statelessly.
   */
  stateless?: boolean;
  /**
   * Host names (no port) the `Host` header may name; any other gets 403 (DNS rebinding).
   * Default, under `mcp.run`: `localhost`, `127.0.0.1` and `[::1]` when it listens on a
   * loopback address; otherwise (and under `mcp.handler()`) no check until you list the names
   * the server is reached by.
   */
  allowedHosts?: string[];
  /**
   * Origin host names (no scheme or port) a browser page may call from; a request whose
   * `Origin` header is present and not listed gets 403. Default: localhost origins and
   * `allowedHosts`. Requests with no `Origin` (every non-browser client) pass.
   */
  allowedOrigins?: string[];
  /** Largest request body read, in bytes; a larger one gets 413. Default 4 MiB, the SDK's. */
  maxBodyBytes?: number;
  /** Open `subscriptions/listen` streams of 2026-07-28 clients, all clients together (default 1,024, the SDK's); another is refused. */
  maxSubscriptions?: number;
  /** Sessions of 2025-11-25 clients (unless `stateless`): at most `max` (default 1,000; the least recently used goes first), each closed after `idleMs` without a request (default 15 minutes). */
  sessions?: { max?: number; idleMs?: number };
  /**
   * Serve as an OAuth 2.1 resource server (the MCP spec's authorization): every request needs a
   * valid `Bearer` token (401 otherwise, pointing at the Protected Resource Metadata this endpoint
   * serves), and a call to a tool, prompt or resource with `scopes` a token that has them (403
   * `insufficient_scope`). See docs/deployment.md#authentication. Default: no authentication.
   */
  auth?: AuthOptions;
}

/** A Web-standard MCP endpoint: `export default mcp.handler()` on Cloudflare Workers, Deno and Bun. */
export interface HttpEndpoint {
  fetch(request: Request): Promise<Response>;
  /** Closes every session and in-flight exchange. */
  close(): Promise<void>;
}

/** The endpoint as the MCPServer holds it. */
export interface ServedEndpoint extends HttpEndpoint {
  /** Tells the 2026-07-28 clients listening (subscriptions/listen) that a list changed. */
  changed(kind: ListKind): void;
  /** Tells the 2026-07-28 clients listening for `uri` that the resource changed. */
  resourceUpdated(uri: string): void;
}

/** What the endpoint builds server instances with: one per request, or one per legacy session. */
export interface InstanceFactories {
  perRequest(): Server;
  session(): Server;
  /** The server is shutting down: no new request is taken. */
  closing(): boolean;
  /** The scopes the registrations require, for `auth`. */
  scopes: ScopeLookup;
  /** A token verifier failed (not refused a token): logged unless logErrors is false. */
  verifierFailed(error: unknown): void;
}

/**
 * The SDK's default (4 MiB): parsing is what a large body costs (a 9.5 MB deeply nested JSON
 * took 3.2 s and 526 MB of heap); a server whose arguments are larger says so with maxBodyBytes.
 */
export const DEFAULT_MAX_BODY = DEFAULT_MAX_REQUEST_BODY_SIZE;
const DEFAULT_MAX_SESSIONS = 1000;
const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;

const METHODS = new Set(["GET", "POST", "DELETE"]);

function jsonRpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}

/**
 * One endpoint for both protocol revisions: the SDK's `createMcpHandler` serves 2026-07-28
 * requests (stateless, each on a fresh server instance); 2025-11-25 requests (those with no
 * `_meta` envelope, as the SDK's own `isLegacyRequest` classifies them) go to sessions, or to
 * the SDK's stateless legacy leg. Host and Origin are checked before anything is read.
 */
export function createEndpoint(instances: InstanceFactories, options: HttpHandlerOptions): ServedEndpoint {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const allowedHosts = options.allowedHosts;
  const allowedOrigins = options.allowedOrigins ?? [...localhostAllowedOrigins(), ...(allowedHosts ?? [])];
  const gate = options.auth && new AuthGate(options.auth, instances.scopes, (error) => instances.verifierFailed(error));
  const factory = () => instances.perRequest();
  const modern = createMcpHandler(factory, {
    legacy: "reject",
    maxRequestBodySize: maxBody,
    maxSubscriptions: options.maxSubscriptions,
    onerror: () => undefined,
  });
  const sessions = options.stateless ? undefined : new LegacySessions(instances.session, options.sessions ?? {});
  const legacy = sessions
    ? sessions.handle
    : legacyStatelessFallback(factory, () => undefined, { maxRequestBodySize: maxBody });

  return {
    async fetch(request) {
      // 503, not a JSON-RPC error in a 200: a load balancer sends the request to another instance.
      if (instances.closing())
        return new Response(
          JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "The server is shutting down" } }),
          { status: 503, headers: { "content-type": "application/json", "retry-after": "1", connection: "close" } },
        );
      const wrongHost = allowedHosts && hostHeaderValidationResponse(request, allowedHosts);
      if (wrongHost) return wrongHost;
      // Public, and read by browser clients of any origin: before the Origin check.
      const metadata = gate?.metadataResponse(request);
      if (metadata) return metadata;
      const refused = originValidationResponse(request, allowedOrigins);
      if (refused) return refused;
      // What Streamable HTTP uses: POST, GET (a 2025-11-25 session's stream), DELETE (ending one).
      if (!METHODS.has(request.method))
        return new Response(
          JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Method not allowed." } }),
          { status: 405, headers: { "content-type": "application/json", allow: "GET, POST, DELETE" } },
        );
      if (options.path !== undefined && new URL(request.url).pathname !== options.path) {
        return jsonRpcError(404, -32000, `Not found: the MCP endpoint is ${options.path}`);
      }
      // Every request, GET and DELETE too, before its body is read: a client with no valid token costs no parse.
      let authInfo: AuthInfo | undefined;
      if (gate) {
        const checked = await gate.check(request);
        if (checked instanceof Response) return checked;
        authInfo = checked;
      }
      // The body is read once: the classification and the leg that serves it both take it parsed.
      let parsedBody: unknown;
      if (request.method === "POST") {
        let body;
        try {
          body = await readRequestBody(request, maxBody);
        } catch {
          // The client's stream broke off (or errored): nothing to answer but this.
          return jsonRpcError(400, -32700, "Parse error: the request body could not be read");
        }
        if (body.tooLarge) return jsonRpcError(413, -32000, `Request body too large: the limit is ${maxBody} bytes`);
        try {
          parsedBody = JSON.parse(body.text);
        } catch {
          return jsonRpcError(400, -32700, "Parse error: the body is not JSON");
        }
        const insufficient = gate?.challenge(parsedBody, authInfo!);
        if (insufficient) return insufficient;
      }
      return (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: maxBody }))
        ? legacy(request, { parsedBody, authInfo })
        : modern.fetch(request, { parsedBody, authInfo });
    },
    async close() {
      await Promise.allSettled([modern.close(), sessions?.close()]);
    },
    changed: (kind) =>
      kind === "tools"
        ? modern.notify.toolsChanged()
        : kind === "prompts"
          ? modern.notify.promptsChanged()
          : modern.notify.resourcesChanged(),
    resourceUpdated: (uri) => modern.notify.resourceUpdated(uri),
  };
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  lastUsed: number;
  /** Who opened it (with `auth`): a request on it with another's token is answered as for no such session. */
  principal?: string;
}

/** Who a token speaks for: its client and, when it has one, its subject. */
function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const subject = authInfo.extra?.sub;
  return JSON.stringify([authInfo.clientId, typeof subject === "string" ? subject : null]);
}

/**
 * Sessions of 2025-11-25 clients over Streamable HTTP, each a server instance on the SDK's
 * transport. Only a session the transport accepted is kept; at most `max`, the least recently
 * used closed first; each closed after `idleMs` without a request. An unknown or ended session
 * gets 404, on which the spec's clients start a new one.
 */
class LegacySessions {
  private readonly sessions = new Map<string, Session>();
  private readonly max: number;
  private readonly idleMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly instance: () => Server,
    limits: { max?: number; idleMs?: number },
  ) {
    this.max = limits.max ?? DEFAULT_MAX_SESSIONS;
    this.idleMs = limits.idleMs ?? DEFAULT_SESSION_IDLE_MS;
  }

  readonly handle = async (
    request: Request,
    { parsedBody, authInfo }: { parsedBody?: unknown; authInfo?: AuthInfo },
  ): Promise<Response> => {
    const id = request.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.sessions.get(id);
      // A session is its opener's: another token's holder who learned its id gets what an unknown id gets.
      if (!session || session.principal !== principalOf(authInfo))
        return jsonRpcError(
          404,
          -32001,
          `Session not found: ${id} has ended or never existed; send initialize to start a new one`,
        );
      // Least recently used last in the map's order: it is the first one closed at the cap.
      this.sessions.delete(id);
      this.sessions.set(id, session);
      session.lastUsed = Date.now();
      return session.transport.handleRequest(request, { parsedBody, authInfo });
    }
    if (request.method !== "POST" || !isInitializeRequest(parsedBody)) {
      return jsonRpcError(400, -32000, "Bad request: no session; send initialize first");
    }
    const server = this.instance();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sessionId) => this.add(sessionId, transport, principalOf(authInfo)),
      onsessionclosed: (sessionId) => void this.sessions.delete(sessionId),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
      void server.close().catch(() => undefined);
    };
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody, authInfo });
    // Refused (wrong Accept or Content-Type, a bad initialize): nothing of it is kept.
    if (transport.sessionId === undefined) await transport.close().catch(() => undefined);
    return response;
  };

  private add(id: string, transport: WebStandardStreamableHTTPServerTransport, principal: string | undefined): void {
    if (this.sessions.size >= this.max) {
      const [oldest] = this.sessions.values();
      void oldest.transport.close().catch(() => undefined);
    }
    this.sessions.set(id, { transport, lastUsed: Date.now(), principal });
    this.sweeper ??= setInterval(() => this.sweep(), Math.min(this.idleMs, 60_000)).unref();
  }

  private sweep(): void {
    const idleSince = Date.now() - this.idleMs;
    for (const session of this.sessions.values())
      if (session.lastUsed < idleSince) void session.transport.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((session) => session.transport.close()));
  }
}
