// node --expose-gc abandon-probe.js <mode> <calls>
// Calls a tool that never settles, `calls` times, each abandoned by its client after 20 ms (the
// v2 client sends notifications/cancelled; over HTTP the request's exchange ends too), then
// closes the server. Prints, as one JSON line: the heap each abandoned call kept (after a full
// GC), how many of the tool's signals aborted, and how long close() took with a 60 s
// shutdownTimeout. mode: "legacy" (2025-11-25, in memory), "modern" (2026-07-28, in memory),
// "http" (2026-07-28 through mcp.handler()).
const { MCPServer, CONTRACT_VERSION } = require("../../dist/runtime/index.js");
const { Client, InMemoryTransport, StreamableHTTPClientTransport } = require("@modelcontextprotocol/client");

async function main() {
  const [mode, total] = [process.argv[2], Number(process.argv[3])];
  const mcp = new MCPServer("abandon", { logErrors: false, shutdownTimeout: 60_000 });
  let aborted = 0;
  mcp.tool(
    (ctx) => new Promise(() => ctx.signal.addEventListener("abort", () => aborted++)),
    {},
    {
      v: CONTRACT_VERSION,
      name: "hang",
      params: ["ctx"],
      context: 0,
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
    },
  );
  const pin = { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  let client;
  if (mode === "http") {
    const handler = mcp.handler();
    client = new Client({ name: "c", version: "1" }, pin);
    const fetch = (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set("host", "localhost");
      return handler.fetch(new Request(url, { ...init, headers }));
    };
    await client.connect(new StreamableHTTPClientTransport(new URL("http://localhost/mcp"), { fetch }));
  } else {
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverTransport);
    client = new Client({ name: "c", version: "1" }, mode === "modern" ? pin : {});
    await client.connect(clientTransport);
  }
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      const outcome = await client.callTool({ name: "hang", arguments: {} }, { timeout: 20 }).then(
        () => "answered",
        () => "abandoned",
      );
      if (outcome !== "abandoned") throw new Error("the tool that never settles was answered");
    }
  };
  const heap = async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    global.gc();
    global.gc();
    return process.memoryUsage().heapUsed;
  };
  const warmup = 50;
  await run(warmup);
  const before = await heap();
  await run(total);
  const after = await heap();
  const started = Date.now();
  await mcp.close();
  const closeMs = Date.now() - started;
  console.log(
    JSON.stringify({
      mode,
      calls: total + warmup,
      bytesPerCall: Math.round((after - before) / total),
      aborted,
      closeMs,
    }),
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
