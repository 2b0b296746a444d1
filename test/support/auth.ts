// What the auth suites share: the official v2 client sending a bearer token (its AuthProvider),
// on either revision, and the spec's answers written out as a client reads them.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { withoutServerInfo } from "./observe";

export type Revision = "2026-07-28" | "2025-11-25";
export const REVISIONS: Revision[] = ["2026-07-28", "2025-11-25"];

/** The official v2 client on `url`, sending `token` (none when undefined) as its bearer token, pinned to `revision`. */
export async function connectWithToken(
  url: string,
  revision: Revision,
  token: string | undefined,
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>,
): Promise<Client> {
  const client = new Client(
    { name: "auth-test", version: "1.0.0" },
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { fetch, authProvider: { token: async () => token } }),
  );
  expect(client.getProtocolEra()).toBe(revision === "2026-07-28" ? "modern" : "legacy");
  if (revision === "2026-07-28") {
    const callTool = client.callTool.bind(client);
    client.callTool = (async (...args: Parameters<Client["callTool"]>) =>
      withoutServerInfo(await callTool(...args), client.getServerVersion())) as Client["callTool"];
  }
  return client;
}

/** A value as an HTTP quoted-string carries it: `"` and `\` escaped. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, "\\$&")}"`;

/** The `WWW-Authenticate` header the spec's 401 and 403 carry, as the SDK writes it (RFC 6750's order). */
export function challenge(error: string, description: string, scope: string | undefined, metadataUrl: string): string {
  return (
    `Bearer error="${error}", error_description=${quoted(description)}` +
    (scope ? `, scope="${scope}"` : "") +
    `, resource_metadata="${metadataUrl}"`
  );
}

/** A response as the tests compare it: status, the challenge, the body. */
export async function refusal(
  response: Response,
): Promise<{ status: number; wwwAuthenticate: string | null; body: unknown }> {
  const text = await response.text();
  return {
    status: response.status,
    wwwAuthenticate: response.headers.get("www-authenticate"),
    body: text ? JSON.parse(text) : text,
  };
}

/** A structured tool result as the fixture's tools answer it: the value as text and as data. */
export function answered(value: unknown): unknown {
  return {
    content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 2) }],
    structuredContent: typeof value === "string" ? { result: value } : value,
  };
}
