import type { Expected, ExpectedCall } from "./fixtures";

/** What both official clients (SDK 1.x `Client`, `@modelcontextprotocol/client` 2.x) offer. */
export interface McpClient {
  listTools(): Promise<{ tools: unknown[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

export interface Observed {
  tools: unknown[];
  calls: ExpectedCall[];
}

const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/**
 * A 2026-07-28 result as the fixtures record it: the SDK stamps the server's identity into the
 * `_meta` of every result on that revision; it must be there (as `server/discover` gave it), and
 * is taken out, so that both revisions compare to one expectation.
 */
export function withoutServerInfo<T>(result: T, server: unknown): T {
  const meta = (result as { _meta?: Record<string, unknown> })._meta;
  const { [SERVER_INFO]: info, ...rest } = meta ?? {};
  if (JSON.stringify(info) !== JSON.stringify(server))
    throw new Error(`the result's ${SERVER_INFO} is ${JSON.stringify(info)}, not ${JSON.stringify(server)}`);
  const { _meta, ...fields } = result as Record<string, unknown>;
  return (Object.keys(rest).length ? { ...fields, _meta: rest } : fields) as T;
}

/** Lists the tools and makes the fixture's calls through a real client, recording exactly what comes back. */
export async function observe(client: McpClient, expected: Expected): Promise<Observed> {
  const { tools } = await client.listTools();
  const calls: ExpectedCall[] = [];
  for (const call of expected.calls ?? []) {
    const request = { name: call.tool, arguments: call.arguments as Record<string, unknown> | undefined };
    try {
      calls.push({ tool: call.tool, arguments: call.arguments, result: await client.callTool(request) });
    } catch (error) {
      const { code, message } = error as { code: number; message: string };
      // The 1.x client prefixes "MCP error <code>: " to what the server sent; the 2.x client does not.
      calls.push({
        tool: call.tool,
        arguments: call.arguments,
        error: { code, message: message.replace(/^MCP error -?\d+: /, "") },
      });
    }
  }
  return { tools, calls };
}
