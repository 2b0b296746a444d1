/**
 * Streamable HTTP in process, through the Web-standard entry (`mcp.handler()`: `Request` →
 * `Response`, as serverless and edge runtimes call it), with Node's own `Request`/`Response`:
 * every official client on both revisions, the 2026-07-28 wire itself, what a refused request
 * keeps (nothing), Host/Origin checks, and the limits on legacy sessions.
 */
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { HttpHandlerOptions, MCPServer } from "typemcp";
import { fixtures, FIXTURES_OUT } from "./support/fixtures";
import { CLIENTS, type AnyClient, type ClientKind } from "./support/in-memory";
import { observe, withoutServerInfo } from "./support/observe";
import { ENVELOPE, modernPost, post, URL_ } from "./support/raw-http";

const forecast = fixtures().find((f) => f.name === "seed_get_forecast")!;

type Handler = ReturnType<MCPServer["handler"]>;

/** A fresh copy of a compiled fixture's server (each test its own), served by `mcp.handler(options)`. */
function serve(fixture: string, options: HttpHandlerOptions = {}): { mcp: MCPServer; handler: Handler } {
  jest.resetModules();
  const { mcp } = require(path.join(FIXTURES_OUT, fixture, "tool.js")) as { mcp: MCPServer };
  return { mcp, handler: mcp.handler(options) };
}

/** What a client's fetch would do, straight into the handler. */
const fetchVia = (handler: Handler) => (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));

async function connectHttp(handler: Handler, kind: ClientKind): Promise<AnyClient> {
  if (kind === "v1 SDK") {
    const client = new LegacyClient({ name: "http-handler", version: "1.0.0" });
    await client.connect(new LegacyTransport(new URL(URL_), { fetch: fetchVia(handler) }));
    return client;
  }
  const client = new Client(
    { name: "http-handler", version: "1.0.0" },
    kind === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(URL_), { fetch: fetchVia(handler) }));
  expect(client.getProtocolEra()).toBe(kind === "2026-07-28" ? "modern" : "legacy");
  if (kind === "2026-07-28") {
    const callTool = client.callTool.bind(client);
    client.callTool = async (...args: Parameters<Client["callTool"]>) =>
      withoutServerInfo(await callTool(...args), client.getServerVersion());
  }
  return client as unknown as AnyClient;
}

describe.each(CLIENTS)("the %s client", (kind) => {
  test("gets the tools and the results it gets over stdio", async () => {
    const { handler } = serve("seed_get_forecast");
    const client = await connectHttp(handler, kind);
    const observed = await observe(client, forecast.expected);
    expect(observed.tools).toEqual(forecast.expected.tools);
    expect(observed.calls).toEqual(forecast.expected.calls);
    await client.close();
    await handler.close();
  });
});

describe("2026-07-28 on the wire", () => {
  let handler: Handler;
  beforeAll(() => void ({ handler } = serve("seed_get_forecast")));
  afterAll(() => handler.close());

  test("server/discover names the versions, capabilities and identity, cached as tools/list is", async () => {
    const response = await modernPost(handler, "server/discover");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        supportedVersions: ["2026-07-28"],
        capabilities: { tools: { listChanged: true }, logging: {} },
        resultType: "complete",
        ttlMs: 300_000,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "Weather", version: "1.0.0" } },
      },
    });
  });

  test("tools/list: resultType complete, cached for five minutes by anyone, in registration order", async () => {
    const response = await modernPost(handler, "tools/list");
    const { result } = (await response.json()) as { result: Record<string, unknown> };
    expect(result).toMatchObject({ resultType: "complete", ttlMs: 300_000, cacheScope: "public" });
    expect((result.tools as { name: string }[]).map((t) => t.name)).toEqual(["get_forecast"]);
  });

  test("tools/call: resultType complete, the seed's wrapping", async () => {
    const response = await modernPost(handler, "tools/call", {
      name: "get_forecast",
      arguments: { city: "Oslo", days: 1 },
    });
    const { result } = (await response.json()) as { result: Record<string, unknown> };
    expect(result).toEqual({
      resultType: "complete",
      content: [
        { type: "text", text: '{\n  "temperature": 16.2,\n  "humidity": 0.83,\n  "conditions": "Overcast"\n}' },
      ],
      structuredContent: { result: [{ temperature: 16.2, humidity: 0.83, conditions: "Overcast" }] },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "Weather", version: "1.0.0" } },
    });
  });

  test("an unknown tool is -32602", async () => {
    const response = await modernPost(handler, "tools/call", { name: "nope", arguments: {} });
    expect(await response.json()).toMatchObject({ error: { code: -32602, message: "Unknown tool: nope" } });
  });

  test("an unknown protocol version is UnsupportedProtocolVersion, naming the supported ones", async () => {
    const response = await modernPost(
      handler,
      "tools/list",
      {},
      { ...ENVELOPE, "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
    );
    const body = (await response.json()) as {
      error: { code: number; data: { supported: string[]; requested: string } };
    };
    expect(body.error.code).toBe(-32022);
    expect(body.error.data).toMatchObject({
      requested: "2099-01-01",
      supported: expect.arrayContaining(["2026-07-28"]),
    });
  });
});

describe("what a refused request keeps: nothing", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
  /** Server instances alive inside the MCPServer (white box: nothing else shows what a refusal kept). */
  const alive = (mcp: MCPServer) => (mcp as unknown as { instances: { live: Set<unknown> } }).instances.live.size;

  test.each([
    ["Accept: application/json only", { accept: "application/json" }, 406],
    ["Content-Type: text/plain (what a web page's no-cors POST sends)", { "content-type": "text/plain" }, 415],
  ])("an initialize refused for %s", async (_, headers, status) => {
    const { mcp, handler } = serve("seed_get_forecast");
    for (let i = 0; i < 50; i++) expect((await post(handler, initialize, headers)).status).toBe(status);
    expect(alive(mcp)).toBe(0);
    // A good initialize is kept: the check above could see one.
    expect((await post(handler, initialize)).status).toBe(200);
    expect(alive(mcp)).toBe(1);
    await handler.close();
  });

  test("a 2026-07-28 request leaves no instance behind once answered", async () => {
    const { mcp, handler } = serve("seed_get_forecast");
    for (let i = 0; i < 20; i++) await (await modernPost(handler, "tools/list")).text();
    expect(alive(mcp)).toBe(0);
    await handler.close();
  });
});

describe("legacy sessions", () => {
  test("a request for an unknown session gets 404, on which clients start a new one", async () => {
    const { handler } = serve("seed_get_forecast");
    const response = await post(
      handler,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "mcp-session-id": "no-such-session" },
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32001,
        message: "Session not found: no-such-session has ended or never existed; send initialize to start a new one",
      },
    });
    await handler.close();
  });

  test("a request without a session, not an initialize, gets 400", async () => {
    const { handler } = serve("seed_get_forecast");
    const response = await post(handler, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Bad request: no session; send initialize first" },
    });
    await handler.close();
  });

  test("at the cap, the least recently used session is closed first", async () => {
    const { handler } = serve("seed_get_forecast", { sessions: { max: 2 } });
    const [a, b] = [await connectHttp(handler, "2025-11-25"), await connectHttp(handler, "2025-11-25")];
    await a.listTools(); // b is now the least recently used
    const c = await connectHttp(handler, "2025-11-25");
    await expect(b.listTools()).rejects.toThrow(/404|Session not found/);
    expect((await a.listTools()).tools).toHaveLength(1);
    expect((await c.listTools()).tools).toHaveLength(1);
    await handler.close();
  });

  test("an idle session is closed", async () => {
    const { handler } = serve("seed_get_forecast", { sessions: { idleMs: 50 } });
    const client = await connectHttp(handler, "2025-11-25");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(client.listTools()).rejects.toThrow(/404|Session not found/);
    await handler.close();
  });

  test("stateless: no session is kept, any request stands alone", async () => {
    const { mcp, handler } = serve("seed_get_forecast", { stateless: true });
    const client = await connectHttp(handler, "2025-11-25");
    expect((await client.listTools()).tools).toHaveLength(1);
    expect((mcp as unknown as { instances: { live: Set<unknown> } }).instances.live.size).toBe(0);
    await handler.close();
  });
});

describe("Host and Origin (DNS rebinding)", () => {
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: ENVELOPE } };
  const headers = { "mcp-method": "tools/list", "mcp-protocol-version": "2026-07-28" };

  test("with allowedHosts, another Host gets 403 before anything runs", async () => {
    const { handler } = serve("seed_get_forecast", { allowedHosts: ["localhost"] });
    expect((await post(handler, list, { ...headers, host: "evil.example:3000" })).status).toBe(403);
    expect((await post(handler, list, { ...headers, host: "localhost:3000" })).status).toBe(200);
    expect((await post(handler, list, headers)).status).toBe(200);
    await handler.close();
  });

  test.each([
    ["http://evil.example:3000", 403],
    ["null", 403],
    ["http://localhost:5173", 200],
    ["http://app.example.com", 200],
  ])("Origin %s gets %d", async (origin, status) => {
    const { handler } = serve("seed_get_forecast", { allowedOrigins: ["localhost", "app.example.com"] });
    expect((await post(handler, list, { ...headers, origin })).status).toBe(status);
    await handler.close();
  });

  test("by default a browser page on another origin is refused, one on localhost is not", async () => {
    const { handler } = serve("seed_get_forecast");
    expect((await post(handler, list, { ...headers, origin: "http://evil.example" })).status).toBe(403);
    expect((await post(handler, list, { ...headers, origin: "http://127.0.0.1:8080" })).status).toBe(200);
    expect((await post(handler, list, headers)).status).toBe(200);
    await handler.close();
  });
});

describe("limits", () => {
  test("a body over maxBodyBytes gets 413", async () => {
    const { handler } = serve("seed_get_forecast", { maxBodyBytes: 1000 });
    const response = await post(handler, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_forecast", arguments: { city: "x".repeat(2000), days: 1 }, _meta: ENVELOPE },
    });
    expect(response.status).toBe(413);
    await handler.close();
  });

  test("a body that is not JSON gets -32700", async () => {
    const { handler } = serve("seed_get_forecast");
    const response = await post(handler, "{not json");
    expect([response.status, await response.json()]).toEqual([
      400,
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } },
    ]);
    await handler.close();
  });

  test("a path other than the endpoint's gets 404", async () => {
    const { handler } = serve("seed_get_forecast", { path: "/mcp" });
    expect((await handler.fetch(new Request("http://localhost/other", { method: "POST", body: "{}" }))).status).toBe(
      404,
    );
    await handler.close();
  });
});

test("while shutting down, a new request is answered 503 with Retry-After (a load balancer retries elsewhere), and the call in flight still gets its answer", async () => {
  const { MCPServer, CONTRACT_VERSION } = require("typemcp") as typeof import("typemcp");
  const mcp = new MCPServer("closing", { logErrors: false });
  let finish!: () => void;
  mcp.tool(
    () => new Promise<string>((resolve) => (finish = () => resolve("done"))),
    {},
    {
      v: CONTRACT_VERSION,
      name: "slow",
      params: [],
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    },
  );
  const handler = mcp.handler();
  const inFlight = modernPost(handler, "tools/call", { name: "slow", arguments: {} });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const closed = mcp.close();
  const refused = await modernPost(handler, "tools/list");
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("1");
  expect(await refused.json()).toEqual({
    jsonrpc: "2.0",
    id: null,
    error: { code: -32000, message: "The server is shutting down" },
  });
  const legacy = await post(handler, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
  expect(legacy.status).toBe(503);
  finish();
  const answer = await (await inFlight).text();
  expect(answer).toContain('"text":"done"');
  await closed;
});

describe("limits by default", () => {
  test("a body over 4 MiB (the SDK's default) gets 413 before it is parsed", async () => {
    const { handler } = serve("seed_get_forecast");
    const response = await post(handler, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_forecast", arguments: { city: "x".repeat(4 * 1024 * 1024), days: 1 }, _meta: ENVELOPE },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Request body too large: the limit is 4194304 bytes" },
    });
    await handler.close();
  });

  test("maxSubscriptions bounds the subscriptions/listen streams open at once", async () => {
    const { handler } = serve("seed_get_forecast", { maxSubscriptions: 1 });
    const listen = () => modernPost(handler, "subscriptions/listen", { notifications: { toolsListChanged: true } });
    const first = await listen();
    expect(first.status).toBe(200);
    const second = await listen();
    expect(await second.json()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Subscription limit reached" },
    });
    await first.body?.cancel();
    await handler.close();
  });
});

describe("edges", () => {
  test.each(["PUT", "PATCH", "HEAD", "OPTIONS"])("%s gets 405 with the methods the endpoint takes", async (method) => {
    const { handler } = serve("seed_get_forecast");
    const response = await handler.fetch(new Request(URL_, { method, headers: { host: "localhost" } }));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
    await handler.close();
  });

  test("a body whose stream errors gets 400 -32700, not a rejection", async () => {
    const { handler } = serve("seed_get_forecast");
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        controller.error(new Error("boom"));
      },
    });
    const response = await handler.fetch(
      new Request(URL_, {
        method: "POST",
        body,
        duplex: "half",
        headers: {
          host: "localhost",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the request body could not be read" },
    });
    await handler.close();
  });

  test("an unknown tool's name is cut in the error, not echoed whole", async () => {
    const { handler } = serve("seed_get_forecast");
    const name = "x".repeat(1_000_000);
    const response = await modernPost(handler, "tools/call", { name, arguments: {} });
    const text = await response.text();
    expect(text.length).toBeLessThan(2_000);
    expect(text).toContain(`Unknown tool: ${"x".repeat(120)}… (1000000 characters)`);
    await handler.close();
  });
});
