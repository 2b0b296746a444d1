/**
 * `resources/read` on its short paths (runtime/resource.ts): a JSON resource's text written
 * while it is checked (runtime/validation/json-text.ts) where its schema and value allow, the projection
 * and JSON.stringify where they do not, and a fixed resource's empty arguments checked once.
 * Through the official client on both revisions, the answers compared whole: the same bytes
 * either way, and every refusal the error it was before.
 */
import type { Client } from "@modelcontextprotocol/client";
import { UriTemplate } from "@modelcontextprotocol/server";
import { CONTRACT_VERSION, MCPServer, type ResourceContract } from "typemcp";
import { connectClient } from "./support/in-memory";

const REVISIONS = ["2026-07-28", "2025-11-25"] as const;

const closed = (properties: Record<string, object>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** A service's configuration: nested objects and arrays, an optional number, a string-literal union, a nullable reference. */
const CONFIG_SCHEMA = {
  title: "Config",
  ...closed(
    {
      service: { type: "string" },
      limit: { type: "integer" },
      regions: { type: "array", items: { type: "string" } },
      features: { type: "array", items: { $ref: "#/$defs/Feature" } },
      window: { anyOf: [{ $ref: "#/$defs/Window" }, { type: "null" }] },
      updated: { type: "string" },
    },
    ["service", "limit", "regions", "features", "window"],
  ),
  $defs: {
    Feature: closed({ name: { type: "string" }, on: { type: "boolean" }, share: { type: "number" } }, ["name", "on"]),
    Window: closed({ day: { type: "string", enum: ["sat", "sun"] }, minutes: { type: "integer" } }, ["day", "minutes"]),
  },
};

function resource(uri: string, extra: Partial<ResourceContract> = {}): ResourceContract {
  return {
    v: CONTRACT_VERSION,
    kind: "resource",
    name: "r",
    uri,
    params: [],
    arguments: [],
    argumentsSchema: { type: "object", title: "rArguments", properties: {}, additionalProperties: false },
    contents: "json",
    outputSchema: CONFIG_SCHEMA,
    ...extra,
  };
}

const CONFIG = {
  service: "orders",
  limit: 600,
  regions: ["eu", "us"],
  features: [
    { name: "export", on: true, share: 0.25 },
    { name: 'say "hi"\n', on: false },
  ],
  window: { day: "sun", minutes: 45 },
};

/** CONFIG as JSON with two spaces, as it went out before the writer (written out, not computed). */
const CONFIG_TEXT = `{
  "service": "orders",
  "limit": 600,
  "regions": [
    "eu",
    "us"
  ],
  "features": [
    {
      "name": "export",
      "on": true,
      "share": 0.25
    },
    {
      "name": "say \\"hi\\"\\n",
      "on": false
    }
  ],
  "window": {
    "day": "sun",
    "minutes": 45
  }
}`;

/** The JSON-RPC error a request got. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    return { code, message };
  }
  throw new Error("the request succeeded");
}

describe.each(REVISIONS)("resources/read (%s)", (revision) => {
  let client: Client;
  let reads = 0;
  beforeAll(async () => {
    const mcp = new MCPServer("reads", { logErrors: false });
    mcp.resource("config://plain", () => CONFIG, resource("config://plain"));
    // Undeclared keys, a class instance, a Date where the type says a string: the projection's way, the same bytes.
    mcp.resource(
      "config://dated",
      () =>
        Object.assign(new (class Config {})(), {
          secret: "never sent",
          ...CONFIG,
          window: null,
          updated: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
        }),
      resource("config://dated"),
    );
    mcp.resource(
      "users://{id}",
      (id: number) => ({ ...CONFIG, service: `user ${id}`, limit: id }),
      resource("users://{id}", {
        template: true,
        params: ["id"],
        arguments: [{ name: "id", required: true }],
        argumentsSchema: { ...closed({ id: { type: "integer" } }, ["id"]), title: "usersArguments" },
        convert: { id: "number" },
      }),
    );
    mcp.resource(
      "teams://{id}/config",
      (id: string) => ({ ...CONFIG, service: `team ${id}` }),
      resource("teams://{id}/config", {
        template: true,
        params: ["id"],
        arguments: [{ name: "id", required: true }],
        argumentsSchema: { ...closed({ id: { type: "string" } }, ["id"]), title: "teamsArguments" },
      }),
    );
    mcp.resource("broken://type", () => ({ ...CONFIG, limit: "600" }), resource("broken://type"));
    mcp.resource("broken://bigint", () => ({ ...CONFIG, limit: 600n }), resource("broken://bigint"));
    mcp.resource("broken://hole", () => ({ ...CONFIG, regions: ["eu", undefined] }), resource("broken://hole"));
    // A contract whose empty arguments fail their check: refused on every read, as before.
    mcp.resource(
      "broken://arguments",
      () => {
        reads++;
        return CONFIG;
      },
      resource("broken://arguments", {
        argumentsSchema: { ...closed({ id: { type: "string" } }, ["id"]), title: "rArguments" },
      }),
    );
    mcp.resource("text://plain", () => 'a "text"\n', resource("text://plain", { contents: "text" }));
    mcp.resource(
      "blob://bytes",
      () => new Uint8Array([0, 1, 254, 255]),
      resource("blob://bytes", { contents: "blob" }),
    );
    client = await connectClient(mcp, revision);
  });
  afterAll(() => client.close());

  const contents = async (uri: string) => (await client.readResource({ uri })).contents;

  test("a JSON resource's text, written while checked: the same bytes on every read", async () => {
    for (let i = 0; i < 3; i++)
      expect(await contents("config://plain")).toEqual([
        { uri: "config://plain", mimeType: "application/json", text: CONFIG_TEXT },
      ]);
  });

  test("a value the writer leaves to the projection: the same bytes as before", async () => {
    expect(await contents("config://dated")).toEqual([
      {
        uri: "config://dated",
        mimeType: "application/json",
        text: CONFIG_TEXT.replace(
          /"window": \{\n {4}"day": "sun",\n {4}"minutes": 45\n {2}\}/,
          '"window": null,\n  "updated": "2026-01-02T03:04:05.000Z"',
        ),
      },
    ]);
  });

  test("a template's JSON, its variable converted and checked", async () => {
    expect(await contents("users://42")).toEqual([
      {
        uri: "users://42",
        mimeType: "application/json",
        text: CONFIG_TEXT.replace('"orders"', '"user 42"').replace('"limit": 600', '"limit": 42'),
      },
    ]);
    expect(await failure(client.readResource({ uri: "users://x" }))).toEqual({
      code: -32602,
      message:
        'Invalid URI for resource users://{id}: 1 validation error for usersArguments\nid\n  Input should be a valid integer [input_value="x"]',
    });
  });

  test("a template's matcher is asked only of URIs that begin with its text before its first variable", async () => {
    const asked: string[] = [];
    const match = UriTemplate.prototype.match;
    const spy = jest.spyOn(UriTemplate.prototype, "match").mockImplementation(function (this: UriTemplate, uri) {
      asked.push(`${this.toString()} ${uri}`);
      return match.call(this, uri);
    });
    try {
      expect(await contents("teams://a%20b/config")).toEqual([
        {
          uri: "teams://a%20b/config",
          mimeType: "application/json",
          text: CONFIG_TEXT.replace('"orders"', '"team a b"'),
        },
      ]);
      expect(await failure(client.readResource({ uri: "teams://a/other" }))).toEqual({
        code: -32602,
        message: "Resource not found: teams://a/other",
      });
      expect(await failure(client.readResource({ uri: "nothing://here" }))).toMatchObject({ code: -32602 });
    } finally {
      spy.mockRestore();
    }
    expect(asked).toEqual(["teams://{id}/config teams://a%20b/config", "teams://{id}/config teams://a/other"]);
  });

  test("text and bytes, as before", async () => {
    expect(await contents("text://plain")).toEqual([
      { uri: "text://plain", mimeType: "text/plain", text: 'a "text"\n' },
    ]);
    expect(await contents("blob://bytes")).toEqual([
      { uri: "blob://bytes", mimeType: "application/octet-stream", blob: "AAH+/w==" },
    ]);
  });

  test.each([
    [
      "a value that breaks its type",
      "broken://type",
      'Error reading resource broken://type: 1 validation error for Config\nlimit\n  Input should be a valid integer [input_value="600"]',
    ],
    [
      "a bigint",
      "broken://bigint",
      "Error reading resource broken://bigint: the contents cannot be sent as JSON: contents.limit: a bigint, which JSON cannot represent",
    ],
    [
      "an undefined item (sent as null, which the type refuses)",
      "broken://hole",
      "Error reading resource broken://hole: 1 validation error for Config\nregions.1\n  Input should be a valid string [input_value=null]",
    ],
  ])("%s: the error it was before", async (_, uri, message) => {
    expect(await failure(client.readResource({ uri }))).toEqual({ code: -32603, message });
  });

  test("a fixed resource whose empty arguments fail their check is refused on every read, its function not called", async () => {
    const refused = {
      code: -32602,
      message: "Invalid URI for resource broken://arguments: 1 validation error for rArguments\nid\n  Field required",
    };
    expect(await failure(client.readResource({ uri: "broken://arguments" }))).toEqual(refused);
    expect(await failure(client.readResource({ uri: "broken://arguments" }))).toEqual(refused);
    expect(reads).toBe(0);
  });
});
