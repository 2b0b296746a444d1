// node --expose-gc memory-probe.js <fixture module> <calls>
// Calls a fixture's tools many times over InMemoryTransport with a bare JSON-RPC client and
// prints the heap after a warm-up and at the end (each after a full GC), as one JSON line.
const { rawConnect } = require("../../bench/servers");

async function main() {
  const [modulePath, total] = [process.argv[2], Number(process.argv[3])];
  const { mcp } = require(modulePath);
  const rpc = await rawConnect(mcp);
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
  console.log(
    JSON.stringify({
      calls: total,
      heapAfterWarmup: before,
      heapAtEnd: after,
      listeners: process.listenerCount("SIGTERM"),
    }),
  );
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
