/**
 * Streamable HTTP: `mcp.run({ transport: "http", port })` in its own process, driven by the
 * official SDK client's StreamableHTTPClientTransport. Stateful sessions; and stateless mode
 * with two server processes behind one round-robin proxy, as behind any load balancer.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixtures, FIXTURES_OUT } from "./support/fixtures";
import { serveHttp, type HttpProcess } from "./support/http-server";
import { observe } from "./support/observe";

const weather = fixtures().find((f) => f.name === "seed_get_forecast")!;
const MODULE = path.join(FIXTURES_OUT, "seed_get_forecast", "tool.js");

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "http-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("stateful", () => {
  let server: HttpProcess;
  beforeAll(async () => {
    server = await serveHttp(MODULE);
  });
  afterAll(() => server.stop());

  test("tools/list and calls answer exactly as over stdio", async () => {
    const client = await connect(server.url);
    const observed = await observe(client, weather.expected);
    expect(observed.tools).toEqual(weather.expected.tools);
    expect(observed.calls).toEqual(weather.expected.calls);
    await client.close();
  });

  test("two clients get two sessions, served side by side", async () => {
    const [a, b] = await Promise.all([connect(server.url), connect(server.url)]);
    const [ra, rb] = await Promise.all([
      a.callTool({ name: "get_forecast", arguments: { city: "Oslo", days: 1 } }),
      b.callTool({ name: "get_forecast", arguments: { city: "Rome", days: 2 } }),
    ]);
    expect((ra.structuredContent as { result: unknown[] }).result).toHaveLength(1);
    expect((rb.structuredContent as { result: unknown[] }).result).toHaveLength(2);
    await Promise.all([a.close(), b.close()]);
  });

  test("a request without a session is refused with a JSON-RPC error", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad request: no session; send initialize first" } });
  });
});

describe("stateless, two processes behind one round-robin proxy", () => {
  let backends: HttpProcess[];
  let proxy: Server;
  let proxyUrl: string;
  const served: number[] = [0, 0];

  beforeAll(async () => {
    backends = await Promise.all([serveHttp(MODULE, { stateless: true }), serveHttp(MODULE, { stateless: true })]);
    let turn = 0;
    proxy = createServer((req, res) => {
      const index = turn++ % backends.length;
      served[index]++;
      const target = new URL(backends[index].url);
      const upstream = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
    const address = proxy.address() as { port: number };
    proxyUrl = `http://127.0.0.1:${address.port}/mcp`;
  });

  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await Promise.all(backends.map((b) => b.stop()));
  });

  test("every request may land on either process, and all are answered right", async () => {
    const client = await connect(proxyUrl);
    const observed = await observe(client, weather.expected);
    expect(observed.tools).toEqual(weather.expected.tools);
    expect(observed.calls).toEqual(weather.expected.calls);
    for (let days = 1; days <= 6; days++) {
      const result = await client.callTool({ name: "get_forecast", arguments: { city: "Oslo", days } });
      expect((result.structuredContent as { result: unknown[] }).result).toHaveLength(days);
    }
    await client.close();
    expect(served[0]).toBeGreaterThanOrEqual(4);
    expect(served[1]).toBeGreaterThanOrEqual(4);
  });

  test("GET (a standalone event stream) is refused: there is no session to stream", async () => {
    const response = await fetch(backends[0].url, { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(405);
  });
});
