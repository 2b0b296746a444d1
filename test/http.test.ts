/**
 * Streamable HTTP over real sockets: `mcp.run({ transport: "http", ... })` in its own process.
 * Every official client on both revisions; the line it prints when it listens (and the warning
 * when it listens beyond loopback); DNS rebinding refused on a real socket; and one server run
 * as several processes behind a round-robin proxy, driven by a 2026-07-28 client through 1,000
 * calls that land on every process, with one process restarted between calls.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect as connectSocket } from "node:net";
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixtures, FIXTURES_OUT } from "./support/fixtures";
import { serveHttp, type HttpProcess } from "./support/http-server";
import { CLIENTS, type AnyClient, type ClientKind } from "./support/in-memory";
import { observe, withoutServerInfo } from "./support/observe";

const forecast = fixtures().find((f) => f.name === "seed_get_forecast")!;
const FORECAST = path.join(FIXTURES_OUT, "seed_get_forecast", "tool.js");
const SCALE = path.join(FIXTURES_OUT, "scale_out", "tool.js");

async function connect(url: string, kind: ClientKind): Promise<AnyClient> {
  if (kind === "v1 SDK") {
    const client = new LegacyClient({ name: "http-e2e", version: "1.0.0" });
    await client.connect(new LegacyTransport(new URL(url)));
    return client;
  }
  const client = new Client(
    { name: "http-e2e", version: "1.0.0" },
    kind === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  if (kind === "2026-07-28") {
    const callTool = client.callTool.bind(client);
    client.callTool = async (...args: Parameters<Client["callTool"]>) =>
      withoutServerInfo(await callTool(...args), client.getServerVersion());
  }
  return client as unknown as AnyClient;
}

describe.each([{ stateless: false }, { stateless: true }])("stateless: $stateless", (options) => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await serveHttp(FORECAST, options);
  });
  afterAll(() => server.stop());

  test("it says where it listens, on stderr", () => {
    expect(server.stderr()).toBe(`typemcp: Weather serves MCP at ${server.url}\n`);
  });

  test.each(CLIENTS)("the %s client gets the tools and results it gets over stdio", async (kind) => {
    const client = await connect(server.url, kind);
    const observed = await observe(client, forecast.expected);
    expect(observed.tools).toEqual(forecast.expected.tools);
    expect(observed.calls).toEqual(forecast.expected.calls);
    await client.close();
  });

  test.each(["evil.example:PORT", "localhost:PORT@evil.example", "localhost:PORT/x"])(
    "a request naming another host, or no host (%s), is refused with 403",
    async (host) => {
      const port = new URL(server.url).port;
      const status = await new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "evil", version: "1" } },
        });
        const req = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/mcp",
            method: "POST",
            headers: {
              host: host.replace("PORT", port),
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
            },
          },
          (res) => resolve(res.statusCode ?? 0),
        );
        req.on("error", reject);
        req.end(body);
      });
      expect(status).toBe(403);
    },
  );
});

test("listening beyond loopback prints what that exposes", async () => {
  const server = await serveHttp(FORECAST, { host: "0.0.0.0" });
  try {
    const port = new URL(server.url).port;
    expect(server.stderr()).toBe(
      `typemcp: Weather serves MCP at http://0.0.0.0:${port}/mcp\n` +
        `typemcp: warning: listening on 0.0.0.0, not loopback: every tool is callable by anyone who can reach port ${port}, and Host is not checked (set allowedHosts to the names clients use)\n`,
    );
  } finally {
    await server.stop();
  }
});

test("a client that sends its headers too slowly is cut off (headersTimeoutMs)", async () => {
  const server = await serveHttp(FORECAST, { headersTimeoutMs: 400 });
  try {
    const { port } = new URL(server.url);
    const socket = connectSocket(Number(port), "127.0.0.1");
    const answer = await new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk) => (text += chunk));
      socket.on("close", () => resolve(text));
      // Headers begun, never finished: a slow-loris client.
      socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n");
    });
    // Node answers 408 only when the headers timeout expires (the test's own timeout is far longer).
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
  } finally {
    await server.stop();
  }
});

/**
 * A round-robin proxy, per request (not per connection), as a load balancer spreads requests:
 * a backend that refuses the connection (a process being restarted) is skipped, as a
 * balancer's health check would; the request never reached it, so it is not lost.
 */
function roundRobin(backends: () => string[]): Server {
  let turn = 0;
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const urls = backends();
        const target = new URL(urls[turn++ % urls.length]);
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: { ...req.headers, host: target.host },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", (error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED" && tries < urls.length) attempt(tries + 1);
          else res.writeHead(502).end(String(error));
        });
        upstream.end(body);
      };
      attempt(1);
    });
  });
}

describe("one server, three processes behind a round-robin proxy, one restarted midway", () => {
  let backends: HttpProcess[];
  let proxy: Server;
  let proxyUrl: string;

  beforeAll(async () => {
    backends = await Promise.all([0, 1, 2].map(() => serveHttp(SCALE)));
    proxy = roundRobin(() => backends.map((b) => b.url));
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}/mcp`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await Promise.all(backends.map((b) => b.stop()));
  });

  test("a 2026-07-28 client: tools/list and 1,000 calls, every one answered right, no sticky sessions", async () => {
    const client = new Client(
      { name: "scale", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(proxyUrl)));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["add"]);
    const pids = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      if (i === 500) {
        // A worker restarted between calls: stopped (SIGTERM drains it), then started again.
        const [stopped] = backends.splice(0, 1);
        await stopped.stop();
        backends.push(await serveHttp(SCALE));
      }
      const result = await client.callTool({ name: "add", arguments: { a: i, b: 1 } });
      expect(result.isError).toBeUndefined();
      const { sum, pid } = result.structuredContent as { sum: number; pid: number };
      expect(sum).toBe(i + 1);
      pids.set(pid, (pids.get(pid) ?? 0) + 1);
    }
    await client.close();
    // Four processes answered: the three, and the one that replaced the first; each its share.
    expect(pids.size).toBe(4);
    for (const count of pids.values()) expect(count).toBeGreaterThan(100);
  });
});
