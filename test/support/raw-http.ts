import type { MCPServer } from "typemcp";

/** The endpoint's URL as the in-process tests send requests to `mcp.handler()`. */
export const URL_ = "http://localhost/mcp";

/** A 2026-07-28 request's `_meta` envelope: the revision, the client, its capabilities (none). */
export const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

type Handler = ReturnType<MCPServer["handler"]>;

/** A raw JSON-RPC POST, as a client nobody controls would send it. */
export function post(handler: Handler, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetch(
    new Request(URL_, {
      method: "POST",
      // A Request built here has no Host header unless given one (a runtime's incoming requests all have one).
      headers: {
        host: "localhost",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
  );
}

/** A 2026-07-28 request: the envelope in `_meta`, the method (and tool) in headers, as the spec has clients send them. */
export function modernPost(
  handler: Handler,
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> = ENVELOPE,
): Promise<Response> {
  const headers: Record<string, string> = {
    "mcp-method": method,
    "mcp-protocol-version": String(meta["io.modelcontextprotocol/protocolVersion"]),
  };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  return post(handler, { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }, headers);
}

/** A POST's JSON-RPC answer, whether it came as JSON or as one server-sent event. */
export async function answerOf(response: Response): Promise<{
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}> {
  const text = await response.text();
  return JSON.parse(
    text.startsWith("{")
      ? text
      : text
          .split("\n")
          .find((line) => line.startsWith("data: "))!
          .slice(6),
  );
}
