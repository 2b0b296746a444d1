// node --expose-gc memory-probe.js <fixture module> <calls>
// Calls a fixture's tools many times over InMemoryTransport with a bare JSON-RPC client and
// prints the heap after a warm-up and at the end (each after a full GC), as one JSON line.
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");

async function main() {
  const [modulePath, total] = [process.argv[2], Number(process.argv[3])];
  const { mcp } = require(modulePath);
  const [client, server] = InMemoryTransport.createLinkedPair();
  await mcp.connect(server);
  let id = 0;
  const pending = new Map();
  client.onmessage = (m) => {
    const resolve = pending.get(m.id);
    if (resolve) {
      pending.delete(m.id);
      resolve(m);
    }
  };
  await client.start();
  const rpc = (method, params) => new Promise((resolve) => {
    const i = ++id;
    pending.set(i, resolve);
    client.send({ jsonrpc: "2.0", id: i, method, params });
  });
  await rpc("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } });
  const calls = [
    ["text_length", { text: "London" }],
    ["account", { owner: "Ada" }],
    ["text_length", { text: 5 }], // invalid: an isError answer
    ["not_a_number", {}], // a result that cannot be JSON
    ["inspect", { data: { a: 1 } }],
  ];
  const run = async (n) => {
    for (let i = 0; i < n; i++) {
      const [name, args] = calls[i % calls.length];
      const answer = await rpc("tools/call", { name, arguments: args });
      if (!answer.result) throw new Error(JSON.stringify(answer));
    }
  };
  const heap = () => {
    global.gc();
    global.gc();
    return process.memoryUsage().heapUsed;
  };
  const warmup = Math.round(total / 10);
  await run(warmup);
  const before = heap();
  await run(total - warmup);
  const after = heap();
  console.log(JSON.stringify({ calls: total, heapAfterWarmup: before, heapAtEnd: after, listeners: process.listenerCount("SIGTERM") }));
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
