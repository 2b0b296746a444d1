/**
 * Prompts, resources, resource templates and completion in the runtime, fed contracts written
 * by hand (the documented contract, contract/contract.ts), through the official v2 client on
 * both protocol revisions: what the lists publish, what `prompts/get` and `resources/read`
 * answer, the arguments converted and checked, every refusal's error, subscriptions, cache
 * hints, list changes, and the result shape option of tools.
 */
import type { Client } from "@modelcontextprotocol/client";
import {
  CONTRACT_VERSION,
  MCPServer,
  ResourceNotFoundError,
  type PromptContract,
  type ResourceContract,
  type ToolContext,
  type ToolContract,
} from "typemcp";
import { connectClient } from "./support/in-memory";

const REVISIONS = ["2026-07-28", "2025-11-25"] as const;

function objectSchema(title: string, properties: Record<string, object> = {}, required: string[] = []) {
  const schema: Record<string, unknown> = { type: "object", title, properties, additionalProperties: false };
  if (required.length) schema.required = required;
  return schema;
}

function prompt(extra: Partial<PromptContract> = {}): PromptContract {
  return {
    v: CONTRACT_VERSION,
    kind: "prompt",
    name: "p",
    params: [],
    arguments: [],
    argumentsSchema: objectSchema("pArguments"),
    ...extra,
  };
}

function resource(uri: string, extra: Partial<ResourceContract> = {}): ResourceContract {
  return {
    v: CONTRACT_VERSION,
    kind: "resource",
    name: "r",
    uri,
    params: [],
    arguments: [],
    argumentsSchema: objectSchema("rArguments"),
    contents: "text",
    ...extra,
  };
}

/** What the review prompt's contract says: code (a string), language ("ts" | "py", default "ts"), strict (a boolean), count (an integer). */
const REVIEW = prompt({
  name: "review",
  description: "Review code.",
  params: ["code", "language", "strict", "count"],
  arguments: [
    { name: "code", description: "The code.", required: true },
    { name: "language", required: false },
    { name: "strict", required: false },
    { name: "count", required: false },
  ],
  argumentsSchema: objectSchema(
    "reviewArguments",
    {
      code: { type: "string", description: "The code." },
      language: { enum: ["ts", "py"], type: "string", default: "ts" },
      strict: { type: "boolean" },
      count: { type: "integer", minimum: 1 },
    },
    ["code"],
  ),
  convert: { strict: "boolean", count: "number" },
  completions: { language: ["ts", "py"] },
});

function review(code: string, language = "ts", strict?: boolean, count?: number): string {
  return `Review this ${language} code${strict ? " strictly" : ""}${count ? ` ${count} times` : ""}:\n${code}`;
}

/** The JSON-RPC error a request got. */
async function failure(request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await request;
  } catch (error) {
    const { code, message, data } = error as { code: number; message: string; data?: unknown };
    return data === undefined ? { code, message } : { code, message, data };
  }
  throw new Error("the request succeeded");
}

/** A result without what the 2026-07-28 revision adds to every one (the server's identity, cache fields). */
function bare<T extends object>(result: T): Partial<T> {
  const { _meta, ttlMs, cacheScope, resultType, ...rest } = result as Record<string, unknown>;
  void _meta;
  void ttlMs;
  void cacheScope;
  void resultType;
  return rest as Partial<T>;
}

describe.each(REVISIONS)("prompts (%s)", (revision) => {
  let client: Client;
  let mcp: MCPServer;
  beforeAll(async () => {
    mcp = new MCPServer("prompts", { logErrors: false });
    mcp.prompt(review, { title: "Code review" }, REVIEW);
    mcp.prompt(
      () => [
        "first",
        { type: "image", data: "aGk=", mimeType: "image/png" },
        { role: "assistant", content: { type: "text", text: "noted" } },
      ],
      { name: "mixed" },
      prompt({ name: "mixed" }),
    );
    mcp.prompt(
      () => ({ description: "Described.", messages: [{ role: "user", content: { type: "text", text: "hi" } }] }),
      prompt({ name: "described" }),
    );
    mcp.prompt(
      () => {
        throw new Error("no model today");
      },
      prompt({ name: "throws" }),
    );
    mcp.prompt(() => 42 as never, prompt({ name: "wrong" }));
    mcp.prompt(
      async (ctx: ToolContext) => `from ${ctx.client.info?.name} on ${ctx.client.protocolVersion}`,
      prompt({ name: "context", context: 0 }),
    );
    client = await connectClient(mcp, revision);
  });
  afterAll(() => client.close());

  test("prompts/list publishes each prompt's arguments, from its parameters", async () => {
    expect((await client.listPrompts()).prompts).toEqual([
      {
        name: "review",
        title: "Code review",
        description: "Review code.",
        arguments: [
          { name: "code", description: "The code.", required: true },
          { name: "language", required: false },
          { name: "strict", required: false },
          { name: "count", required: false },
        ],
      },
      { name: "mixed" },
      { name: "described" },
      { name: "throws" },
      { name: "wrong" },
      { name: "context" },
    ]);
  });

  test("a string is one user message; text arguments become the declared numbers and booleans", async () => {
    expect(
      bare(await client.getPrompt({ name: "review", arguments: { code: "x = 1", strict: "true", count: "2" } })),
    ).toEqual({
      messages: [{ role: "user", content: { type: "text", text: "Review this ts code strictly 2 times:\nx = 1" } }],
    });
  });

  test("strings, blocks and messages in a list; messages with a description", async () => {
    expect(bare(await client.getPrompt({ name: "mixed" }))).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "first" } },
        { role: "user", content: { type: "image", data: "aGk=", mimeType: "image/png" } },
        { role: "assistant", content: { type: "text", text: "noted" } },
      ],
    });
    expect(bare(await client.getPrompt({ name: "described" }))).toEqual({
      description: "Described.",
      messages: [{ role: "user", content: { type: "text", text: "hi" } }],
    });
  });

  test("the prompt's context knows the client", async () => {
    expect(bare(await client.getPrompt({ name: "context" })).messages).toEqual([
      { role: "user", content: { type: "text", text: `from test on ${revision}` } },
    ]);
  });

  test.each([
    [
      "a missing argument",
      {},
      "Invalid arguments for prompt review: 1 validation error for reviewArguments\ncode\n  Field required",
    ],
    [
      "an unknown argument",
      { code: "x", colour: "red" },
      "Invalid arguments for prompt review: 1 validation error for reviewArguments\ncolour\n  Extra inputs are not permitted",
    ],
    [
      "text that is not a number",
      { code: "x", count: "three" },
      'Invalid arguments for prompt review: 1 validation error for reviewArguments\ncount\n  Input should be a valid integer [input_value="three"]',
    ],
    [
      "a number out of range",
      { code: "x", count: "0" },
      "Invalid arguments for prompt review: 1 validation error for reviewArguments\ncount\n  Input should be greater than or equal to 1 [input_value=0]",
    ],
    [
      "a value outside the literal union",
      { code: "x", language: "rust" },
      'Invalid arguments for prompt review: 1 validation error for reviewArguments\nlanguage\n  Input should be "ts" or "py" [input_value="rust"]',
    ],
  ])("%s: -32602 naming it", async (_, args, message) => {
    expect(await failure(client.getPrompt({ name: "review", arguments: args }))).toEqual({ code: -32602, message });
  });

  test("an unknown prompt, a prompt that throws, one that returns no messages: JSON-RPC errors", async () => {
    expect(await failure(client.getPrompt({ name: "nope" }))).toEqual({
      code: -32602,
      message: "Unknown prompt: nope",
    });
    expect(await failure(client.getPrompt({ name: "throws" }))).toEqual({
      code: -32603,
      message: "Error getting prompt throws: no model today",
    });
    expect(await failure(client.getPrompt({ name: "wrong" }))).toEqual({
      code: -32603,
      message:
        "Error getting prompt wrong: the prompt returned a value that is not a prompt's (a string, a content block, a message, a list of them, or { messages })",
    });
  });

  test("completion: a literal union's values, filtered by prefix ignoring case", async () => {
    const complete = (value: string) =>
      client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "language", value } });
    expect(bare(await complete(""))).toEqual({ completion: { values: ["ts", "py"], total: 2, hasMore: false } });
    expect(bare(await complete("P"))).toEqual({ completion: { values: ["py"], total: 1, hasMore: false } });
    expect(bare(await complete("x"))).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    expect(
      bare(
        await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "code", value: "" } }),
      ),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    expect(
      await failure(
        client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "colour", value: "" } }),
      ),
    ).toEqual({
      code: -32602,
      message: 'Prompt review has no argument "colour" (its arguments: code, language, strict, count)',
    });
    expect(
      await failure(client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } })),
    ).toEqual({ code: -32602, message: "Unknown prompt: nope" });
  });
});

describe("completion functions", () => {
  test("get the typed text and the other arguments; more than 100 values are cut, with total and hasMore", async () => {
    const mcp = new MCPServer("c");
    const seen: unknown[] = [];
    mcp.prompt(
      review,
      {
        complete: {
          code: (value, context) => {
            seen.push([value, context]);
            return Array.from({ length: 150 }, (_, i) => `${value}${i}`);
          },
          count: () => ({ values: [1, 2, 3], total: 10, hasMore: true }),
        },
      },
      REVIEW,
    );
    const client = await connectClient(mcp);
    const { completion } = await client.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "code", value: "x" },
      context: { arguments: { language: "py" } },
    });
    expect(completion.values).toHaveLength(100);
    expect([completion.values[0], completion.values[99], completion.total, completion.hasMore]).toEqual([
      "x0",
      "x99",
      150,
      true,
    ]);
    expect(seen).toEqual([["x", { arguments: { language: "py" } }]]);
    expect(
      bare(
        await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "count", value: "" } }),
      ),
    ).toEqual({ completion: { values: ["1", "2", "3"], total: 10, hasMore: true } });
    await client.close();
  });

  test("a function for an argument the prompt does not have is refused at registration", () => {
    expect(() => new MCPServer("c").prompt(review, { complete: { colour: () => [] } }, REVIEW)).toThrow(
      "typemcp: review: complete.colour names no argument (code, language, strict, count)",
    );
  });
});

const PROFILE = resource("users://{id}/profile", {
  name: "profile",
  description: "A user's profile.",
  template: true,
  params: ["id"],
  arguments: [{ name: "id", description: "The user's id.", required: true }],
  argumentsSchema: objectSchema("profileArguments", { id: { type: "integer", minimum: 1 } }, ["id"]),
  convert: { id: "number" },
  contents: "json",
  outputSchema: {
    type: "object",
    title: "Profile",
    properties: { id: { type: "integer" }, name: { type: "string" } },
    required: ["id", "name"],
    additionalProperties: false,
  },
});

function profile(id: number): { id: number; name: string; secret?: string } {
  if (id === 404) throw new ResourceNotFoundError(`users://${id}/profile`, "No such user");
  if (id === 500) return { id, name: 5 as unknown as string };
  return { id, name: `user ${id}`, secret: "never sent" };
}

const FILE = resource("files://{+path}", {
  name: "file",
  template: true,
  params: ["path"],
  arguments: [{ name: "path", required: true }],
  argumentsSchema: objectSchema("fileArguments", { path: { type: "string" } }, ["path"]),
  contents: "text",
});

describe.each(REVISIONS)("resources (%s)", (revision) => {
  let client: Client;
  let mcp: MCPServer;
  beforeAll(async () => {
    mcp = new MCPServer("resources", { logErrors: false });
    mcp.resource(
      "config://app",
      () => "debug=true",
      { title: "App config" },
      resource("config://app", { name: "config", description: "The app's configuration." }),
    );
    mcp.resource(
      "logo://png",
      () => new Uint8Array([1, 2, 3]),
      resource("logo://png", { name: "logo", contents: "blob" }),
    );
    mcp.resource(
      "notes://md",
      () => "# Notes",
      { mimeType: "text/markdown", cache: { ttlMs: 60_000, cacheScope: "private" } },
      resource("notes://md", { name: "notes" }),
    );
    mcp.resource(
      "users://{id}/profile",
      profile,
      {
        list: () => [{ uri: "users://1/profile", name: "user 1" }],
      },
      PROFILE,
    );
    mcp.resource("files://{+path}", (path: string) => `file ${path}`, FILE);
    mcp.resource("broken://text", () => 7 as unknown as string, resource("broken://text", { name: "broken" }));
    client = await connectClient(mcp, revision);
  });
  afterAll(() => client.close());

  test("resources/list: the fixed URIs, then the instances a template lists; resources/templates/list", async () => {
    expect((await client.listResources()).resources).toEqual([
      {
        uri: "config://app",
        name: "config",
        title: "App config",
        description: "The app's configuration.",
        mimeType: "text/plain",
      },
      { uri: "logo://png", name: "logo", mimeType: "application/octet-stream" },
      { uri: "notes://md", name: "notes", mimeType: "text/markdown" },
      { uri: "broken://text", name: "broken", mimeType: "text/plain" },
      { uri: "users://1/profile", name: "user 1", description: "A user's profile.", mimeType: "application/json" },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: "users://{id}/profile",
        name: "profile",
        description: "A user's profile.",
        mimeType: "application/json",
      },
      { uriTemplate: "files://{+path}", name: "file", mimeType: "text/plain" },
    ]);
  });

  test("text, a blob, and data as JSON checked against its type (undeclared properties left out)", async () => {
    expect(bare(await client.readResource({ uri: "config://app" }))).toEqual({
      contents: [{ uri: "config://app", mimeType: "text/plain", text: "debug=true" }],
    });
    expect(bare(await client.readResource({ uri: "logo://png" }))).toEqual({
      contents: [{ uri: "logo://png", mimeType: "application/octet-stream", blob: "AQID" }],
    });
    expect(bare(await client.readResource({ uri: "users://7/profile" }))).toEqual({
      contents: [
        { uri: "users://7/profile", mimeType: "application/json", text: '{\n  "id": 7,\n  "name": "user 7"\n}' },
      ],
    });
    expect(bare(await client.readResource({ uri: "files://a/b%20c.txt" }))).toEqual({
      contents: [{ uri: "files://a/b%20c.txt", mimeType: "text/plain", text: "file a/b c.txt" }],
    });
  });

  test("the resource's cache hint goes to 2026-07-28 clients only", async () => {
    const read = (await client.readResource({ uri: "notes://md" })) as { ttlMs?: number; cacheScope?: string };
    expect([read.ttlMs, read.cacheScope]).toEqual(
      revision === "2026-07-28" ? [60_000, "private"] : [undefined, undefined],
    );
  });

  test.each([
    [
      "an unknown URI",
      "nothing://here",
      { code: -32602, message: "Resource not found: nothing://here", data: { uri: "nothing://here" } },
    ],
    [
      "a variable its type refuses",
      "users://0/profile",
      {
        code: -32602,
        message:
          "Invalid URI for resource users://{id}/profile: 1 validation error for profileArguments\nid\n  Input should be greater than or equal to 1 [input_value=0]",
      },
    ],
    [
      "a variable that is not a number",
      "users://me/profile",
      {
        code: -32602,
        message:
          'Invalid URI for resource users://{id}/profile: 1 validation error for profileArguments\nid\n  Input should be a valid integer [input_value="me"]',
      },
    ],
    [
      "a variable that is not valid percent-encoding",
      "users://%E0%A4%A/profile",
      {
        code: -32602,
        message: "Invalid URI for resource users://{id}/profile: a variable of the URI is not valid percent-encoding",
      },
    ],
    [
      "a not-found error thrown by the function",
      "users://404/profile",
      { code: -32602, message: "No such user", data: { uri: "users://404/profile" } },
    ],
    [
      "data that breaks its declared type",
      "users://500/profile",
      {
        code: -32603,
        message:
          "Error reading resource users://{id}/profile: 1 validation error for Profile\nname\n  Input should be a valid string [input_value=5]",
      },
    ],
    [
      "a value that is not what the declared type says",
      "broken://text",
      {
        code: -32603,
        message:
          "Error reading resource broken://text: the function returned a number, where its declared type says a string",
      },
    ],
  ])("%s: a JSON-RPC error", async (_, uri, error) => {
    expect(await failure(client.readResource({ uri }))).toEqual(error);
  });

  test("completion for a template's variables; a fixed URI has none; an unknown one is refused", async () => {
    expect(
      bare(
        await client.complete({
          ref: { type: "ref/resource", uri: "config://app" },
          argument: { name: "x", value: "" },
        }),
      ),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    expect(
      await failure(
        client.complete({ ref: { type: "ref/resource", uri: "nothing://{x}" }, argument: { name: "x", value: "" } }),
      ),
    ).toEqual({ code: -32602, message: "Unknown resource template: nothing://{x}" });
    expect(
      bare(
        await client.complete({
          ref: { type: "ref/resource", uri: "users://{id}/profile" },
          argument: { name: "id", value: "1" },
        }),
      ),
    ).toEqual({ completion: { values: [], total: 0, hasMore: false } });
  });
});

test("an exploded variable is a list, of one item or several, each converted", async () => {
  const mcp = new MCPServer("lists");
  const TAGS = resource("sum://{numbers*}", {
    name: "sum",
    template: true,
    params: ["numbers"],
    arguments: [{ name: "numbers", required: true }],
    argumentsSchema: objectSchema("sumArguments", { numbers: { type: "array", items: { type: "number" } } }, [
      "numbers",
    ]),
    convert: { numbers: "number" },
  });
  mcp.resource(
    "sum://{numbers*}",
    (numbers: number[]) => `${numbers.join("+")}=${numbers.reduce((a, b) => a + b)}`,
    TAGS,
  );
  const client = await connectClient(mcp);
  const text = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
  expect(await text("sum://4")).toBe("4=4");
  expect(await text("sum://1,2,3")).toBe("1+2+3=6");
  await client.close();
});

describe("subscriptions", () => {
  function watched(): MCPServer {
    const mcp = new MCPServer("watch");
    mcp.resource("watch://a", () => "a", resource("watch://a", { name: "a" }));
    mcp.resource("watch://b", () => "b", resource("watch://b", { name: "b" }));
    return mcp;
  }

  test("2025-11-25: resources/updated reaches the connections subscribed to that URI, until they unsubscribe", async () => {
    const mcp = watched();
    const subscriber = await connectClient(mcp, "2025-11-25");
    const bystander = await connectClient(mcp, "2025-11-25");
    const heard: string[] = [];
    subscriber.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(`sub ${n.params.uri}`));
    bystander.setNotificationHandler("notifications/resources/updated", (n) => void heard.push(`by ${n.params.uri}`));
    await subscriber.subscribeResource({ uri: "watch://a" });
    expect(await failure(subscriber.subscribeResource({ uri: "watch://zzz" }))).toEqual({
      code: -32602,
      message: "Resource not found: watch://zzz",
      data: { uri: "watch://zzz" },
    });
    mcp.resourceUpdated("watch://b");
    mcp.resourceUpdated("watch://a");
    await subscriber.ping();
    await subscriber.unsubscribeResource({ uri: "watch://a" });
    mcp.resourceUpdated("watch://a");
    await subscriber.ping();
    await bystander.ping();
    expect(heard).toEqual(["sub watch://a"]);
    await Promise.all([subscriber.close(), bystander.close()]);
  });

  test("2026-07-28: a listen stream for a URI hears of it", async () => {
    const mcp = watched();
    const client = await connectClient(mcp, "2026-07-28");
    const heard: string[] = [];
    const updated = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/resources/updated", (n) => {
        heard.push(n.params.uri);
        resolve();
      }),
    );
    const subscription = await client.listen({ resourceSubscriptions: ["watch://a"] });
    expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ["watch://a"] });
    mcp.resourceUpdated("watch://b");
    mcp.resourceUpdated("watch://a");
    await updated;
    expect(heard).toEqual(["watch://a"]);
    await client.close();
  });
});

describe("capabilities and list changes", () => {
  test("a server with tools only declares neither prompts nor resources, and answers their lists with -32601", async () => {
    const mcp = new MCPServer("tools only");
    for (const revision of REVISIONS) {
      const client = await connectClient(mcp, revision);
      expect(Object.keys(client.getServerCapabilities() ?? {}).sort()).toEqual(["logging", "tools"]);
      await client.close();
    }
    // Raw, as a client that does not look at the capabilities first asks.
    const handler = mcp.handler();
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    for (const method of ["prompts/list", "resources/list", "completion/complete"]) {
      const response = await handler.fetch(
        new Request("http://localhost/mcp", {
          method: "POST",
          headers: {
            host: "localhost",
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-method": method,
            "mcp-protocol-version": "2026-07-28",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { _meta: envelope } }),
        }),
      );
      const { error } = (await response.json()) as { error: { code: number } };
      expect([method, response.status, error.code]).toEqual([method, 404, -32601]);
    }
    await handler.close();
  });

  test("with prompts and templates: prompts, resources (subscribe) and completions", async () => {
    const mcp = new MCPServer("all");
    mcp.prompt(review, REVIEW);
    mcp.resource("files://{+path}", (path: string) => path, FILE);
    const client = await connectClient(mcp, "2025-11-25");
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      logging: {},
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
    });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/prompts/list_changed", () => resolve()),
    );
    mcp.prompt(() => "late", prompt({ name: "late" }));
    await changed;
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["review", "late"]);
    const resourcesChanged = new Promise<void>((resolve) =>
      client.setNotificationHandler("notifications/resources/list_changed", () => resolve()),
    );
    mcp.resource("late://one", () => "late", resource("late://one", { name: "late" }));
    await resourcesChanged;
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["late://one"]);
    await client.close();
  });

  test("a second prompt of a name, or resource of a URI, is refused; so is another kind's contract", () => {
    const mcp = new MCPServer("dup");
    mcp.prompt(review, REVIEW);
    expect(() => mcp.prompt(review, REVIEW)).toThrow(
      'typemcp: a prompt named "review" is already registered (first at',
    );
    mcp.resource("files://{+path}", (path: string) => path, FILE);
    expect(() => mcp.resource("files://{+path}", (path: string) => path, FILE)).toThrow(
      'typemcp: a resource template "files://{+path}" is already registered (first at',
    );
    const tool: ToolContract = { v: CONTRACT_VERSION, name: "t", params: [], inputSchema: objectSchema("tArguments") };
    expect(() => mcp.prompt(() => "x", tool as never)).toThrow(
      "typemcp: mcp.prompt(<anonymous>) was given the contract of a tool, not of a prompt",
    );
    expect(() => mcp.resource("config://other", () => "x", resource("config://app"))).toThrow(
      'typemcp: mcp.resource("config://other", <anonymous>) was compiled for the URI "config://app": rebuild the project',
    );
    expect(() =>
      mcp.prompt(function summary() {
        return "";
      }),
    ).toThrow("typemcp: mcp.prompt(summary) has no compiled schema: the typemcp transformer did not run on this file.");
  });
});

describe.each(REVISIONS)('resultShape: "native" (%s)', (revision) => {
  const LIST: ToolContract = {
    v: CONTRACT_VERSION,
    name: "numbers",
    params: [],
    inputSchema: objectSchema("numbersArguments"),
    outputSchema: {
      type: "object",
      properties: { result: { type: "array", items: { $ref: "#/$defs/N" } } },
      required: ["result"],
      title: "numbersOutput",
      $defs: { N: { type: "number" } },
    },
    wrapped: true,
  };

  test("the value's own schema and shape for 2026-07-28 clients; wrapped by the SDK for 2025-11-25 ones", async () => {
    const mcp = new MCPServer("native", { resultShape: "native" });
    mcp.tool(() => [1, 2], LIST);
    const client = await connectClient(mcp, revision);
    const [tool] = (await client.listTools()).tools;
    const natural = {
      type: "array",
      items: { $ref: "#/$defs/N" },
      title: "numbersOutput",
      $defs: { N: { type: "number" } },
    };
    const result = await client.callTool({ name: "numbers" });
    if (revision === "2026-07-28") {
      expect(tool.outputSchema).toEqual(natural);
      expect(result.structuredContent).toEqual([1, 2]);
    } else {
      expect(tool.outputSchema).toEqual({
        type: "object",
        properties: {
          result: {
            type: "array",
            // The SDK moves the natural schema under `result`, and its references with it.
            items: { $ref: "#/properties/result/$defs/N" },
            title: "numbersOutput",
            $defs: { N: { type: "number" } },
          },
        },
        required: ["result"],
      });
      expect(result.structuredContent).toEqual({ result: [1, 2] });
    }
    expect(result.content).toEqual([
      { type: "text", text: "1" },
      { type: "text", text: "2" },
    ]);
    await client.close();
  });

  test("the default keeps the wrapped shape for every client", async () => {
    const mcp = new MCPServer("wrapped");
    mcp.tool(() => [1, 2], LIST);
    const client = await connectClient(mcp, revision);
    expect((await client.listTools()).tools[0].outputSchema).toEqual(LIST.outputSchema);
    expect((await client.callTool({ name: "numbers" })).structuredContent).toEqual({ result: [1, 2] });
    await client.close();
  });
});

test("a prompt's and a resource's faults are logged to stderr with what they are, once per cause", async () => {
  const logged: string[] = [];
  const spy = jest.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  });
  try {
    const mcp = new MCPServer("faults");
    mcp.prompt(
      () => {
        throw new Error("no model today");
      },
      prompt({ name: "throws" }),
    );
    mcp.resource("users://{id}/profile", profile, PROFILE);
    const client = await connectClient(mcp);
    for (let i = 0; i < 2; i++) {
      await failure(client.getPrompt({ name: "throws" }));
      await failure(client.readResource({ uri: "users://500/profile" }));
    }
    await client.close();
  } finally {
    spy.mockRestore();
  }
  expect(logged).toHaveLength(2);
  expect(logged[0]).toMatch(
    /^typemcp: prompt "throws" threw \(the client was answered with an error\): Error: no model today\n {4}at /,
  );
  expect(logged[1]).toMatch(
    /^typemcp: resource "users:\/\/\{id\}\/profile" returned a value its declared type does not allow \(the client was answered with an error\): 1 validation error for Profile\nname\n {2}Input should be a valid string \[input_value=5\]\n {4}registered at .*prompts-resources\.test\.ts:\d+:\d+\n$/,
  );
});
