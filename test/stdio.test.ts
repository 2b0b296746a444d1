/**
 * End to end: each compiled fixture served by its own node process over stdio, driven by
 * the official SDK Client's StdioClientTransport. Same expectations as the in-memory run.
 */
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { fixtures } from "./support/fixtures";
import { observe } from "./support/observe";

const SERVE = path.join(__dirname, "support", "serve.js");
const served = fixtures().filter((f) => f.expected.registrationError === undefined);

test.each(served)("$name over stdio", async ({ module, expected }) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVE, module], stderr: "pipe" });
  const client = new Client({ name: "stdio-e2e", version: "1.0.0" });
  await client.connect(transport);
  try {
    const observed = await observe(client, expected);
    expect(observed.tools).toEqual(expected.tools);
    expect(observed.calls).toEqual(expected.calls);
  } finally {
    await client.close();
  }
});
