import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Expected, ExpectedCall } from "./fixtures";

export interface Observed {
  tools: unknown[];
  calls: ExpectedCall[];
}

/** Lists the tools and makes the fixture's calls through a real client, recording exactly what comes back. */
export async function observe(client: Client, expected: Expected): Promise<Observed> {
  const { tools } = await client.listTools();
  const calls: ExpectedCall[] = [];
  for (const call of expected.calls ?? []) {
    const request = { name: call.tool, arguments: call.arguments as Record<string, unknown> | undefined };
    try {
      calls.push({ tool: call.tool, arguments: call.arguments, result: await client.callTool(request) });
    } catch (error) {
      const { code, message } = error as { code: number; message: string };
      calls.push({ tool: call.tool, arguments: call.arguments, error: { code, message } });
    }
  }
  return { tools, calls };
}
