/**
 * `auth` through `mcp.handler()`, in process, with a token verifier of the test's own (a table,
 * as an introspecting verifier would answer): the Protected Resource Metadata at both places,
 * the 401 of every refused token with the exact challenge and body, the 403 scope challenges of
 * the server's and the registrations' scopes, the verified token reaching the tool on both
 * revisions through the official client, sessions kept to their opener, and the options refused.
 * JWTs signed by keys on a JWKS, over real sockets and `mcp.run`: test/auth-http.test.ts.
 */
import * as path from "node:path";
import {
  CONTRACT_VERSION,
  MCPServer,
  type AuthInfo,
  type HttpHandlerOptions,
  type TokenVerifier,
  type ToolContract,
} from "typemcp";
import { answered, challenge, connectWithToken, refusal, REVISIONS } from "./support/auth";
import { FIXTURES_OUT } from "./support/fixtures";
import { answerOf, ENVELOPE, post, URL_ } from "./support/raw-http";

const RESOURCE = URL_; // http://localhost/mcp
const METADATA_URL = "http://localhost/.well-known/oauth-protected-resource/mcp";
const ISSUER = "https://auth.example.com";
const NOW = Math.floor(Date.now() / 1000);

/** What the test's verifier knows: each token and what it grants. */
function grant(token: string, scopes: string[], more: Partial<AuthInfo> = {}): AuthInfo {
  return {
    token,
    clientId: "notes-app",
    scopes,
    expiresAt: NOW + 3600,
    resource: new URL(RESOURCE),
    extra: { sub: "ada" },
    ...more,
  };
}
const TOKENS: Record<string, AuthInfo> = {
  reader: grant("reader", ["mcp", "notes:read"]),
  writer: grant("writer", ["mcp", "notes:read", "notes:write"]),
  bare: grant("bare", ["mcp"]),
  "no-mcp": grant("no-mcp", ["notes:read"]),
  "bob-reader": grant("bob-reader", ["mcp", "notes:read"], { extra: { sub: "bob" } }),
  expired: grant("expired", ["mcp"], { expiresAt: NOW - 60 }),
  eternal: grant("eternal", ["mcp"], { expiresAt: undefined }),
  elsewhere: grant("elsewhere", ["mcp"], { resource: new URL("https://other.example.com/mcp") }),
  nowhere: grant("nowhere", ["mcp"], { resource: undefined }),
};
const verify: TokenVerifier = (token, { resource }) => {
  expect(resource.href).toBe(RESOURCE);
  if (token === "broken") throw new Error("the introspection endpoint is down");
  return TOKENS[token];
};

const AUTH = { resource: RESOURCE, authorizationServer: ISSUER, verify, scopes: ["mcp"] };

type Handler = ReturnType<MCPServer["handler"]>;

/** A fresh copy of the fixture's server (notes behind scopes, whoami reading ctx.authInfo). */
function load(): MCPServer {
  jest.resetModules();
  return (require(path.join(FIXTURES_OUT, "auth", "tool.js")) as { mcp: MCPServer }).mcp;
}
function serve(options: HttpHandlerOptions = { auth: AUTH }): Handler {
  return load().handler(options);
}

const fetchVia = (handler: Handler) => (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));

/** A 2026-07-28 request with a token, as the official client sends one. */
function modern(
  handler: Handler,
  method: string,
  params: Record<string, unknown>,
  authorization?: string,
): Promise<Response> {
  const headers: Record<string, string> = { "mcp-method": method, "mcp-protocol-version": "2026-07-28" };
  if (typeof params.name === "string") headers["mcp-name"] = params.name;
  if (authorization !== undefined) headers.authorization = authorization;
  return post(handler, { jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: ENVELOPE } }, headers);
}

/** A 2025-11-25 `initialize`, with a token. */
function initialize(handler: Handler, authorization?: string): Promise<Response> {
  return post(
    handler,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    authorization === undefined ? {} : { authorization },
  );
}

const invalid = (description: string) => ({
  status: 401,
  wwwAuthenticate: challenge("invalid_token", description, "mcp", METADATA_URL),
  body: { error: "invalid_token", error_description: description },
});

const insufficient = (description: string, scope: string) => ({
  status: 403,
  wwwAuthenticate: challenge("insufficient_scope", description, scope, METADATA_URL),
  body: { error: "insufficient_scope", error_description: description },
});

describe("the Protected Resource Metadata", () => {
  let handler: Handler;
  beforeAll(() => void (handler = serve()));
  afterAll(() => handler.close());

  const DOCUMENT = {
    resource: RESOURCE,
    authorization_servers: [ISSUER],
    // auth.scopes, then the registrations' in the order registered.
    scopes_supported: ["mcp", "notes:read", "notes:write"],
    bearer_methods_supported: ["header"],
  };

  test.each([
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-protected-resource/mcp/",
    "/.well-known/oauth-protected-resource",
  ])("is served at %s, to anyone, with no token and from any origin", async (where) => {
    const response = await handler.fetch(
      new Request(`http://localhost${where}`, { headers: { host: "localhost", origin: "https://app.example.net" } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual(DOCUMENT);
  });

  test("HEAD gets its headers, another method 405", async () => {
    const head = await handler.fetch(new Request(METADATA_URL, { method: "HEAD", headers: { host: "localhost" } }));
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([200, "application/json", ""]);
    const put = await handler.fetch(new Request(METADATA_URL, { method: "PUT", headers: { host: "localhost" } }));
    expect([put.status, put.headers.get("allow"), await put.json()]).toEqual([
      405,
      "GET, HEAD",
      { error: "method_not_allowed", error_description: "The method PUT is not allowed here" },
    ]);
  });

  test("names the scopes given in auth.scopesSupported instead, and resource_name and resource_documentation", async () => {
    const named = serve({
      auth: {
        ...AUTH,
        scopesSupported: ["notes:read"],
        resourceName: "Notes",
        resourceDocumentation: "https://docs.example.com/notes",
      },
    });
    const response = await named.fetch(new Request(METADATA_URL, { headers: { host: "localhost" } }));
    expect(await response.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ISSUER],
      scopes_supported: ["notes:read"],
      resource_name: "Notes",
      resource_documentation: "https://docs.example.com/notes",
      bearer_methods_supported: ["header"],
    });
    await named.close();
  });
});

describe("a request without a valid token gets 401 and the challenge, and nothing else", () => {
  let handler: Handler;
  beforeAll(() => void (handler = serve()));
  afterAll(() => handler.close());

  const CASES: [string, string | undefined, string][] = [
    ["no Authorization header", undefined, "Missing Authorization header"],
    ["another scheme", "Basic bm90ZXM6c2VjcmV0", "Invalid Authorization header format, expected 'Bearer TOKEN'"],
    ["Bearer and no token", "Bearer", "Invalid Authorization header format, expected 'Bearer TOKEN'"],
    ["a token the verifier does not know", "Bearer forged", "The access token is not valid"],
    ["an expired token", "Bearer expired", "Token has expired"],
    ["a token that never expires", "Bearer eternal", "Token has no expiration time"],
    ["a token for another resource", "Bearer elsewhere", "Token was not issued for this resource"],
    ["a token the verifier says is for no resource", "Bearer nowhere", "Token was not issued for this resource"],
  ];

  test.each(CASES)("%s, on 2026-07-28", async (_, authorization, description) => {
    const response = await modern(handler, "tools/call", { name: "whoami", arguments: {} }, authorization);
    expect(await refusal(response)).toEqual(invalid(description));
  });

  test.each(CASES)("%s, on 2025-11-25 (initialize)", async (_, authorization, description) => {
    expect(await refusal(await initialize(handler, authorization))).toEqual(invalid(description));
  });

  test("GET and DELETE need one too", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await handler.fetch(
        new Request(URL_, { method, headers: { host: "localhost", accept: "text/event-stream" } }),
      );
      expect(await refusal(response)).toEqual(invalid("Missing Authorization header"));
    }
  });

  test("a body is not read before the token is checked: a broken one still gets 401", async () => {
    const response = await post(handler, "{ not json");
    expect(await refusal(response)).toEqual(invalid("Missing Authorization header"));
  });

  test("a verifier that fails is the server's fault: 500, no challenge, and logged once to stderr", async () => {
    const written: string[] = [];
    const spy = jest.spyOn(process.stderr, "write").mockImplementation((text) => (written.push(String(text)), true));
    let responses: Response[];
    try {
      // Twice, the same way (one cause: the same frames), logged once.
      responses = await Promise.all(
        [1, 2].map(() => modern(handler, "tools/call", { name: "whoami", arguments: {} }, "Bearer broken")),
      );
    } finally {
      spy.mockRestore();
    }
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(
      /^typemcp: the token verifier \(auth\.verify\) failed, and the request was answered 500: Error: the introspection endpoint is down\n {4}at /,
    );
    for (const response of responses)
      expect(await refusal(response)).toEqual({
        status: 500,
        wwwAuthenticate: null,
        body: { error: "server_error", error_description: "Internal Server Error" },
      });
  });

  test("the official client gets no further than the 401", async () => {
    for (const revision of REVISIONS)
      await expect(connectWithToken(URL_, revision, undefined, fetchVia(handler))).rejects.toThrow("Unauthorized");
  });
});

describe("scopes: 403 insufficient_scope, naming every scope the call needs", () => {
  let handler: Handler;
  beforeAll(() => void (handler = serve()));
  afterAll(() => handler.close());

  test("a token without auth.scopes, for any request", async () => {
    const response = await modern(handler, "tools/list", {}, "Bearer no-mcp");
    expect(await refusal(response)).toEqual(insufficient("Insufficient scope", "mcp"));
  });

  test.each([
    ["tools/call", { name: "read_note", arguments: { id: "7" } }, "tool read_note", "mcp notes:read"],
    ["tools/call", { name: "delete_note", arguments: { id: "7" } }, "tool delete_note", "mcp notes:read notes:write"],
    ["prompts/get", { name: "summarize", arguments: { id: "7" } }, "prompt summarize", "mcp notes:read"],
    ["resources/read", { uri: "notes://7" }, "resource notes://7", "mcp notes:read"],
  ])("%s %j with a token that lacks them", async (method, params, what, scope) => {
    const response = await modern(handler, method, params, "Bearer bare");
    expect(await refusal(response)).toEqual(insufficient(`Insufficient scope for ${what}`, scope));
  });

  test("a token with notes:read only may read, not delete", async () => {
    const read = await modern(handler, "tools/call", { name: "read_note", arguments: { id: "7" } }, "Bearer reader");
    expect((await answerOf(read)).result).toEqual({
      ...(answered("Note 7: milk, bread.") as object),
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "Notes", version: "1.0.0" } },
    });
    const deleted = await modern(
      handler,
      "tools/call",
      { name: "delete_note", arguments: { id: "7" } },
      "Bearer reader",
    );
    expect(await refusal(deleted)).toEqual(
      insufficient("Insufficient scope for tool delete_note", "mcp notes:read notes:write"),
    );
  });

  test("tools/list, prompts/list and resources/templates/list list everything, whatever the token grants", async () => {
    const tools = await answerOf(await modern(handler, "tools/list", {}, "Bearer bare"));
    expect((tools.result!.tools as { name: string }[]).map((tool) => tool.name)).toEqual([
      "whoami",
      "read_note",
      "delete_note",
    ]);
    const prompts = await answerOf(await modern(handler, "prompts/list", {}, "Bearer bare"));
    expect((prompts.result!.prompts as { name: string }[]).map((prompt) => prompt.name)).toEqual(["summarize"]);
    const templates = await answerOf(await modern(handler, "resources/templates/list", {}, "Bearer bare"));
    expect(
      (templates.result!.resourceTemplates as { uriTemplate: string }[]).map((template) => template.uriTemplate),
    ).toEqual(["notes://{id}"]);
  });

  test("an unknown tool is the unknown tool it always was, not a scope challenge", async () => {
    const response = await modern(handler, "tools/call", { name: "nothing", arguments: {} }, "Bearer bare");
    expect((await answerOf(response)).error).toEqual({ code: -32602, message: "Unknown tool: nothing" });
  });

  test.each(REVISIONS)("the official client on %s gets InsufficientScopeError with the scopes", async (revision) => {
    const client = await connectWithToken(URL_, revision, "bare", fetchVia(handler));
    const refused = await client.callTool({ name: "read_note", arguments: { id: "7" } }).catch((error) => error);
    expect(refused).toMatchObject({
      name: "InsufficientScopeError",
      requiredScope: "mcp notes:read",
      resourceMetadataUrl: new URL(METADATA_URL),
      errorDescription: "Insufficient scope for tool read_note",
    });
    await client.close();
  });
});

describe.each(REVISIONS)("a valid token through the official client on %s", (revision) => {
  let handler: Handler;
  beforeAll(() => void (handler = serve()));
  afterAll(() => handler.close());

  test("reaches the tool as ctx.authInfo", async () => {
    const client = await connectWithToken(URL_, revision, "writer", fetchVia(handler));
    expect(await client.callTool({ name: "whoami", arguments: {} })).toEqual(
      answered({ client: "notes-app", subject: "ada", scopes: ["mcp", "notes:read", "notes:write"] }),
    );
    expect(await client.callTool({ name: "delete_note", arguments: { id: "7" } })).toEqual(answered("Deleted note 7."));
    // A prompt that takes a context gets the token too.
    expect((await client.getPrompt({ name: "summarize", arguments: { id: "7" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Summarize note 7 for ada." } },
    ]);
    expect((await client.readResource({ uri: "notes://7" })).contents).toEqual([
      { uri: "notes://7", mimeType: "text/plain", text: "Milk, bread (note 7)." },
    ]);
    await client.close();
  });
});

test("stateless: true, the 2025-11-25 client's token reaches the tool through the SDK's stateless leg", async () => {
  const handler = serve({ auth: AUTH, stateless: true });
  const client = await connectWithToken(URL_, "2025-11-25", "reader", fetchVia(handler));
  expect(await client.callTool({ name: "whoami", arguments: {} })).toEqual(
    answered({ client: "notes-app", subject: "ada", scopes: ["mcp", "notes:read"] }),
  );
  await client.close();
  await handler.close();
});

describe("2025-11-25 sessions are their opener's", () => {
  test("another user's token on the session gets what an unknown session gets", async () => {
    const handler = serve();
    const opened = await initialize(handler, "Bearer reader");
    expect(opened.status).toBe(200);
    const session = opened.headers.get("mcp-session-id")!;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    const headers = (token: string) => ({
      authorization: `Bearer ${token}`,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    });
    const stolen = await post(handler, list, headers("bob-reader"));
    expect([stolen.status, await stolen.json()]).toEqual([
      404,
      {
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32001,
          message: `Session not found: ${session} has ended or never existed; send initialize to start a new one`,
        },
      },
    ]);
    // Its opener, with another token for the same user and client, goes on.
    const own = await post(handler, list, headers("writer"));
    expect(own.status).toBe(200);
    expect(((await answerOf(own)).result!.tools as unknown[]).length).toBe(3);
    await handler.close();
  });
});

describe("options refused, with what to do", () => {
  let refusing: MCPServer | undefined;

  test("scopes with HTTP served without auth: at mcp.handler(), and at a registration after it", () => {
    const mcp = load();
    expect(() => mcp.handler()).toThrow(
      "typemcp: registrations require the scopes notes:read, notes:write, but HTTP is served without auth: nothing would check them, and anyone who reaches the endpoint could call it. Pass auth (docs/deployment.md#authentication), or leave scopes out.",
    );
    const open = new MCPServer("open");
    open.tool(() => "x", {}, CONTRACT);
    const handler = open.handler();
    expect(() => open.tool(() => "y", { name: "y", scopes: ["notes:write"] }, CONTRACT)).toThrow(
      "typemcp: mcp.tool(<anonymous>) has scopes, but this server serves HTTP without auth: nothing would check them, and anyone who reaches the endpoint could call it. Pass auth (docs/deployment.md#authentication), or leave scopes out.",
    );
    void handler.close();
  });

  test.each<[string, unknown, string]>([
    ["no verify", { resource: RESOURCE, authorizationServer: ISSUER }, "typemcp: auth.verify must be a function"],
    [
      "a relative resource",
      { ...AUTH, resource: "/mcp" },
      'typemcp: auth.resource must be the server\'s absolute URL, as clients reach it (got "/mcp")',
    ],
    [
      "a resource with a fragment",
      { ...AUTH, resource: "https://mcp.example.com/mcp#x" },
      "typemcp: auth.resource must be an http(s) URL without a fragment",
    ],
    [
      "an issuer over plain HTTP",
      { ...AUTH, authorizationServer: "http://auth.example.com" },
      "Issuer URL must be HTTPS",
    ],
    [
      "a scope with a space",
      { ...AUTH, scopes: ["notes read"] },
      'typemcp: auth.scopes: requireScopes scope[0] must satisfy the OAuth scope-token grammar (got ["notes read"])',
    ],
  ])("%s", (_, auth, message) => {
    // Refused before the server serves anything: one server takes every refusal.
    refusing ??= load();
    expect(() => refusing!.handler({ auth: auth as HttpHandlerOptions["auth"] })).toThrow(message);
  });

  test("a registration's scopes that are no scope names", () => {
    const fresh = new MCPServer("fresh");
    expect(() => fresh.tool(() => "x", { scopes: [] }, CONTRACT)).toThrow(
      "typemcp: mcp.tool(<anonymous>): scopes must be a non-empty array of scope names",
    );
    expect(() => fresh.tool(() => "x", { scopes: ['say "hi"'] }, CONTRACT)).toThrow(
      `typemcp: mcp.tool(<anonymous>): scopes: requireScopes scope[0] must satisfy the OAuth scope-token grammar (got ["say \\"hi\\""])`,
    );
  });
});

/** A tool's contract written by hand, as test/runtime.test.ts writes them. */
const CONTRACT: ToolContract = {
  v: CONTRACT_VERSION,
  name: "x",
  params: [],
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
};
