// Serves the everything server: over stdio by default, or Streamable HTTP with `--http [port]`
// (`node dist/main.js --http 3000`, then http://127.0.0.1:3000/mcp).
import { mcp } from "./server";

const at = process.argv.indexOf("--http");
if (at < 0) mcp.run();
else mcp.run({ transport: "http", port: Number(process.argv[at + 1] ?? 3000) });
