// Drives a server with Vercel's AI SDK MCP client (`@ai-sdk/mcp`, ESM only, so in its own
// process; test/third-party-client.test.ts copies this file to .build/ai-sdk, where it installs
// @ai-sdk/mcp, and runs it there): node ai-sdk-client.mjs <"stdio" command args... | "http" url> <calls as JSON>.
// Prints one JSON line: what the client negotiated, listed and got back, and anything it
// reported on the console or as an uncaught error.
import { createMCPClient } from "@ai-sdk/mcp";
import { Experimental_StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

const [kind, ...rest] = process.argv.slice(2);
const calls = JSON.parse(rest.pop());
const reported = [];
for (const level of ["log", "warn", "error", "info", "debug"])
  console[level] = (...args) => void reported.push([level, ...args.map(String)]);

const transport =
  kind === "http"
    ? { type: "http", url: rest[0] }
    : new Experimental_StdioMCPTransport({ command: rest[0], args: rest.slice(1), stderr: "pipe" });
const client = await createMCPClient({
  transport,
  onUncaughtError: (error) => reported.push(["uncaught", String(error)]),
});
const listed = await client.listTools();
const results = [];
for (const call of calls) results.push(await client.callTool({ name: call.tool, arguments: call.arguments }));
await client.close();
process.stdout.write(
  JSON.stringify({
    protocolVersion: client.initializeResult.protocolVersion,
    serverInfo: client.serverInfo,
    tools: listed.tools,
    results,
    reported,
  }) + "\n",
);
