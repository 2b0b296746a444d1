/**
 * `auth` with `jwt()`, on real signed JWTs: the test makes an issuer's keys, serves their JWKS on
 * loopback, and signs tokens, good and bad. The server is the auth fixture under `mcp.run` (its
 * own process, real sockets) and under `mcp.handler()` (in process, Node's Request/Response).
 * Every bad token gets the spec's 401 with the exact challenge and body, on both revisions; a
 * good one reaches the tool as ctx.authInfo through the official client, on both revisions.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import type * as Jose from "jose" with { "resolution-mode": "import" };
import type { MCPServer } from "typemcp";
import * as ts from "typescript";
import { answered, challenge, connectWithToken, refusal, REVISIONS, type Revision } from "./support/auth";
import { ROOT } from "./support/build";
import { documentedBlock } from "./support/documentation";
import { FIXTURES_OUT } from "./support/fixtures";
import { serveHttp, type HttpProcess } from "./support/http-server";
import { ENVELOPE } from "./support/raw-http";

// An ES module only: jest.e2e.config.js has jest transform it to CommonJS (test/support/jose-transform.js).
const jose = require("jose") as typeof Jose;

const MODULE = path.join(FIXTURES_OUT, "auth", "tool.js");
const NOW = Math.floor(Date.now() / 1000);

/** The issuer: its key pair, and another with the same key id (an attacker's), and where its JWKS is served. */
let keys: Jose.GenerateKeyPairResult;
let attacker: Jose.GenerateKeyPairResult;
let jwks: Server;
let issuer: string;

beforeAll(async () => {
  keys = await jose.generateKeyPair("ES256");
  attacker = await jose.generateKeyPair("ES256");
  const jwk = { ...(await jose.exportJWK(keys.publicKey)), kid: "k1" };
  jwks = createServer((request, response) => {
    // Where Auth0 and others publish them, as the deployment page's recipe has it.
    if (request.url !== "/.well-known/jwks.json") return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => jwks.close(resolve)));

interface Signing {
  audience?: string;
  issuer?: string;
  expires?: number;
  kid?: string;
  key?: Jose.CryptoKey;
}

/** An access token as the issuer signs one (RFC 9068), for `audience`, with what `claims` add. */
function sign(claims: Jose.JWTPayload, how: Signing): Promise<string> {
  const token = new jose.SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: how.kid ?? "k1", typ: "at+jwt" })
    .setIssuer(how.issuer ?? issuer)
    .setIssuedAt(NOW)
    .setExpirationTime(how.expires ?? NOW + 3600);
  if (how.audience !== undefined) token.setAudience(how.audience);
  return token.sign(how.key ?? keys.privateKey);
}

/** A token that is not signed at all (`alg: none`), as jose would never make one. */
function unsigned(claims: Jose.JWTPayload): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "at+jwt" })}.${part(claims)}.`;
}

const GRANT = { client_id: "notes-app", sub: "ada", scope: "mcp notes:read" };

/** A way of serving the fixture with auth: where clients reach it, and how they fetch. */
interface Served {
  url: string;
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  close(): Promise<void>;
}

/** A free port on loopback, for a server that must know its own URL (its resource) before it listens. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const SERVINGS: [string, () => Promise<Served>][] = [
  [
    "mcp.run, over real sockets",
    async () => {
      const port = await freePort();
      const resource = `http://127.0.0.1:${port}/mcp`;
      const server: HttpProcess = await serveHttp(
        MODULE,
        { port, auth: { resource, authorizationServer: issuer, scopes: ["mcp"] } },
        {},
        { issuer, jwksUri: `${issuer}/.well-known/jwks.json` },
      );
      expect(server.url).toBe(resource);
      return {
        url: resource,
        close: async () => {
          // Once every test has run: the process wrote where it listens and nothing else (no warning, nothing per refused token).
          const written = server.stderr();
          await server.stop();
          expect(written).toBe(`typemcp: Notes serves MCP at ${resource}\n`);
        },
      };
    },
  ],
  [
    "mcp.handler(), in process",
    async () => {
      jest.resetModules();
      const { jwt } = require("typemcp") as typeof import("typemcp");
      const { mcp } = require(MODULE) as { mcp: MCPServer };
      const resource = "http://localhost/mcp";
      const handler = mcp.handler({
        auth: {
          resource,
          authorizationServer: issuer,
          scopes: ["mcp"],
          verify: jwt({ issuer, jwksUri: `${issuer}/.well-known/jwks.json` }),
        },
      });
      return {
        url: resource,
        fetch: (url, init) => handler.fetch(new Request(url, init)),
        close: () => handler.close(),
      };
    },
  ],
];

describe.each(SERVINGS)("%s", (_, start) => {
  let served: Served;
  let metadataUrl: string;
  beforeAll(async () => {
    served = await start();
    metadataUrl = served.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp");
  });
  afterAll(() => served.close());

  const fetchIt = (url: string, init?: RequestInit) => (served.fetch ?? fetch)(url, init);

  /** The request a client on `revision` opens with, carrying `token`. */
  function opening(revision: Revision, token: string | undefined): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const body =
      revision === "2026-07-28"
        ? { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: ENVELOPE } }
        : {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
          };
    if (revision === "2026-07-28")
      Object.assign(headers, { "mcp-method": "tools/call", "mcp-name": "whoami", "mcp-protocol-version": revision });
    return fetchIt(served.url, { method: "POST", headers, body: JSON.stringify(body) });
  }

  test("the metadata names the issuer", async () => {
    const response = await fetchIt(metadataUrl);
    expect(await response.json()).toEqual({
      resource: served.url,
      authorization_servers: [issuer],
      scopes_supported: ["mcp", "notes:read", "notes:write"],
      bearer_methods_supported: ["header"],
    });
  });

  /** Each bad token, made once the issuer is up, and the reason jose (or the SDK) gives. */
  const BAD: [string, () => Promise<string | undefined>, string][] = [
    ["no token", async () => undefined, "Missing Authorization header"],
    ["a token that is no JWT", async () => "not-a-jwt", "Invalid Compact JWS"],
    [
      "an expired token",
      () => sign(GRANT, { audience: served.url, expires: NOW - 120 }),
      '"exp" claim timestamp check failed',
    ],
    [
      "a token for another resource",
      () => sign(GRANT, { audience: "https://other.example.com/mcp" }),
      'unexpected "aud" claim value',
    ],
    ["a token with no audience", () => sign(GRANT, {}), 'missing required "aud" claim'],
    [
      "a token from another issuer",
      () => sign(GRANT, { audience: served.url, issuer: "https://evil.example.com" }),
      'unexpected "iss" claim value',
    ],
    [
      "an unsigned token (alg: none)",
      async () => unsigned({ ...GRANT, iss: issuer, aud: served.url, exp: NOW + 3600 }),
      'Unsupported "alg" value for a JSON Web Key Set',
    ],
    [
      "a token signed by another key under the issuer's key id",
      () => sign(GRANT, { audience: served.url, key: attacker.privateKey }),
      "signature verification failed",
    ],
    [
      "a token signed by a key the issuer does not publish",
      () => sign(GRANT, { audience: served.url, kid: "k9" }),
      "no applicable key found in the JSON Web Key Set",
    ],
  ];

  describe.each(REVISIONS)("on %s", (revision) => {
    test.each(BAD)("%s: 401 and the challenge", async (_, token, description) => {
      const response = await opening(revision, await token());
      expect(await refusal(response)).toEqual({
        status: 401,
        wwwAuthenticate: challenge("invalid_token", description, "mcp", metadataUrl),
        body: { error: "invalid_token", error_description: description },
      });
    });

    test("a token without notes:read may call whoami, not read_note: 403 naming the scopes", async () => {
      const token = await sign({ ...GRANT, scope: "mcp" }, { audience: served.url });
      const client = await connectWithToken(served.url, revision, token, served.fetch);
      expect(await client.callTool({ name: "whoami", arguments: {} })).toEqual(
        answered({ client: "notes-app", subject: "ada", scopes: ["mcp"] }),
      );
      const refused = await client.callTool({ name: "read_note", arguments: { id: "7" } }).catch((error) => error);
      expect(refused).toMatchObject({
        name: "InsufficientScopeError",
        requiredScope: "mcp notes:read",
        errorDescription: "Insufficient scope for tool read_note",
      });
      expect(String(refused.resourceMetadataUrl)).toBe(metadataUrl);
      await client.close();
    });

    test("a good token reaches the tool as ctx.authInfo, with the token's claims", async () => {
      const client = await connectWithToken(
        served.url,
        revision,
        await sign(GRANT, { audience: served.url }),
        served.fetch,
      );
      expect(await client.callTool({ name: "whoami", arguments: {} })).toEqual(
        answered({ client: "notes-app", subject: "ada", scopes: ["mcp", "notes:read"] }),
      );
      expect(await client.callTool({ name: "read_note", arguments: { id: "7" } })).toEqual(
        answered("Note 7: milk, bread."),
      );
      await client.close();
    });
  });
});

test("docs/deployment.md's recipe, as written (its two hosts this test's): a good token is served, none gets 401, and no warning", async () => {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const recipe = documentedBlock("deployment:auth")
    .replace('"https://mcp.example.com/mcp"', JSON.stringify(resource))
    .replace('"mcp.example.com"', '"127.0.0.1"')
    .replaceAll("https://auth.example.com", issuer)
    .replace("port: 3000", `port: ${port}`);
  // In place of the quick start's `mcp.run();`: the fixture's server, then the recipe, compiled as a user's project compiles it.
  const { outputText } = ts.transpileModule(recipe, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const folder = path.join(ROOT, ".build", "auth-recipe");
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, "server.js");
  fs.writeFileSync(file, `const { mcp } = require(${JSON.stringify(MODULE)});\n${outputText}`);
  const serving = spawn(process.execPath, [file], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  serving.stderr!.on("data", (chunk) => (stderr += chunk));
  try {
    for (let i = 0; i < 200 && !stderr.includes("serves MCP"); i++) await new Promise((done) => setTimeout(done, 50));
    expect(stderr).toBe(`typemcp: Notes serves MCP at http://0.0.0.0:${port}/mcp\n`);
    const client = await connectWithToken(resource, "2026-07-28", await sign(GRANT, { audience: resource }));
    expect(await client.callTool({ name: "whoami", arguments: {} })).toEqual(
      answered({ client: "notes-app", subject: "ada", scopes: ["mcp", "notes:read"] }),
    );
    await client.close();
    const anonymous = await fetch(resource, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(await refusal(anonymous)).toEqual({
      status: 401,
      wwwAuthenticate: challenge(
        "invalid_token",
        "Missing Authorization header",
        "mcp",
        `http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`,
      ),
      body: { error: "invalid_token", error_description: "Missing Authorization header" },
    });
  } finally {
    serving.kill("SIGTERM");
  }
});
