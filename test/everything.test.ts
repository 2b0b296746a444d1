/**
 * examples/everything/server.ts, built with the transformer from the sources (test/global-setup.ts)
 * and driven in process by both official clients, on both revisions: its prompts, resources,
 * templates and completions from source to answer, compared exactly. (The conformance suite
 * runs against the same server over HTTP in the second tier: test/conformance.test.ts.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as LegacyInMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Client as V2Client, InMemoryTransport } from "@modelcontextprotocol/client";
import type { MCPServer } from "typemcp";
import { ROOT } from "./support/build";
import { SEP_1330_FORM } from "./support/forms";
import { connectClient } from "./support/in-memory";

const BUILT = path.join(ROOT, ".build", "everything-sources");

/** What every client of the three offers for prompts, resources and completion. */
interface Client {
  listPrompts(): Promise<{ prompts: unknown[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<object>;
  listResources(): Promise<{ resources: unknown[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: unknown[] }>;
  readResource(params: { uri: string }): Promise<object>;
  complete(params: {
    ref: { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };
    argument: { name: string; value: string };
  }): Promise<object>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  close(): Promise<void>;
}

const KINDS = ["2026-07-28", "2025-11-25", "v1 SDK"] as const;

async function connect(mcp: MCPServer, kind: (typeof KINDS)[number]): Promise<Client> {
  if (kind !== "v1 SDK") return (await connectClient(mcp, kind)) as unknown as Client;
  const [clientTransport, serverTransport] = LegacyInMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  const client = new LegacyClient({ name: "test", version: "1.0.0" });
  await client.connect(clientTransport);
  return client as unknown as Client;
}

/** A result without what the 2026-07-28 revision adds to every one (the server's identity, cache fields). */
function bare(result: object): object {
  const { _meta, ttlMs, cacheScope, resultType, ...rest } = result as Record<string, unknown>;
  void [_meta, ttlMs, cacheScope, resultType];
  return rest;
}

test("it builds with no diagnostic", () => {
  const diagnostics = JSON.parse(fs.readFileSync(path.join(BUILT, "diagnostics.json"), "utf8"));
  expect(diagnostics).toEqual({ compilerDiagnostics: "", typemcpDiagnostics: [] });
});

describe.each(KINDS)("through the %s client", (kind) => {
  let client: Client;
  beforeAll(async () => {
    let mcp!: MCPServer;
    // A fresh server for each client: its tools that add tools or prompts change it.
    jest.isolateModules(() => ({ mcp } = require(path.join(BUILT, "server.js")) as { mcp: MCPServer }));
    client = await connect(mcp, kind);
  });
  afterAll(() => client.close());

  test("its prompts, with their arguments from the parameters and their @param text", async () => {
    expect((await client.listPrompts()).prompts).toEqual([
      { name: "test_simple_prompt", description: "A simple prompt without arguments." },
      {
        name: "test_prompt_with_arguments",
        description: "A prompt with required arguments.",
        arguments: [
          { name: "arg1", description: "First test argument.", required: true },
          { name: "arg2", description: "Second test argument.", required: true },
        ],
      },
      {
        name: "test_prompt_with_embedded_resource",
        description: "A prompt that includes an embedded resource.",
        arguments: [{ name: "resourceUri", description: "URI of the resource to embed.", required: true }],
      },
      { name: "test_prompt_with_image", description: "A prompt that includes image content." },
      {
        name: "review_code",
        title: "Code review",
        description: "Review code, as a conversation: the request, and the reviewer's first words.",
        arguments: [
          { name: "code", description: "The code to review.", required: true },
          { name: "focus", description: "What to look at first.", required: false },
          { name: "language", description: "The code's language.", required: false },
          { name: "strict", description: "Whether to flag every style issue.", required: false },
        ],
      },
      {
        name: "test_input_required_result_prompt",
        description: "A prompt that asks the user what it should be about.",
      },
    ]);
  });

  test("a prompt's messages, its arguments converted and defaulted as the function declares them", async () => {
    expect(bare(await client.getPrompt({ name: "review_code", arguments: { code: "x = 1", strict: "true" } }))).toEqual(
      {
        messages: [
          { role: "user", content: { type: "text", text: "Review this code for correctness, strictly:\nx = 1" } },
          { role: "assistant", content: { type: "text", text: "I'll look at its correctness first." } },
        ],
      },
    );
    expect(
      bare(await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "hello", arg2: "world" } })),
    ).toEqual({
      messages: [
        { role: "user", content: { type: "text", text: "Prompt with arguments: arg1='hello', arg2='world'" } },
      ],
    });
    expect(
      bare(
        await client.getPrompt({
          name: "test_prompt_with_embedded_resource",
          arguments: { resourceUri: "test://example-resource" },
        }),
      ),
    ).toEqual({
      messages: [
        {
          role: "user",
          content: {
            type: "resource",
            resource: {
              uri: "test://example-resource",
              mimeType: "text/plain",
              text: "Embedded resource content for testing.",
            },
          },
        },
        { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
      ],
    });
  });

  test("completion from a literal union and from a function", async () => {
    const complete = (name: string, value: string) =>
      client.complete({ ref: { type: "ref/prompt", name: "review_code" }, argument: { name, value } });
    expect(bare(await complete("focus", ""))).toEqual({
      completion: { values: ["correctness", "style", "performance"], total: 3, hasMore: false },
    });
    expect(bare(await complete("focus", "S"))).toEqual({ completion: { values: ["style"], total: 1, hasMore: false } });
    expect(bare(await complete("language", "py"))).toEqual({
      completion: { values: ["Python"], total: 1, hasMore: false },
    });
    expect(bare(await complete("strict", ""))).toEqual({
      completion: { values: ["true", "false"], total: 2, hasMore: false },
    });
    expect(
      bare(
        await client.complete({
          ref: { type: "ref/resource", uri: "users://{id}" },
          argument: { name: "id", value: "" },
        }),
      ),
    ).toEqual({ completion: { values: ["1", "2"], total: 2, hasMore: false } });
  });

  test("its resources: fixed URIs, the instances a template lists, and the templates", async () => {
    expect((await client.listResources()).resources).toEqual([
      {
        uri: "test://static-text",
        name: "static_text",
        title: "Static Text Resource",
        description: "A static text resource for testing.",
        mimeType: "text/plain",
      },
      {
        uri: "test://static-binary",
        name: "static_binary",
        title: "Static Binary Resource",
        description: "A static binary resource (image) for testing.",
        mimeType: "image/png",
      },
      {
        uri: "test://watched-resource",
        name: "watched_resource",
        title: "Watched Resource",
        description: "A resource that changes when test_update_watched_resource is called.",
        mimeType: "text/plain",
      },
      {
        uri: "users://1",
        name: "Ada",
        description: "A user, by id: JSON checked against User.",
        mimeType: "application/json",
      },
      {
        uri: "users://2",
        name: "Grace",
        description: "A user, by id: JSON checked against User.",
        mimeType: "application/json",
      },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      {
        uriTemplate: "test://template/{id}/data",
        name: "template",
        title: "Resource Template",
        description: "A resource template with parameter substitution.",
        mimeType: "application/json",
      },
      {
        uriTemplate: "users://{id}",
        name: "user",
        description: "A user, by id: JSON checked against User.",
        mimeType: "application/json",
      },
    ]);
  });

  test("reading them: text, bytes, JSON checked against its type; a missing user is the spec's not-found error", async () => {
    expect(bare(await client.readResource({ uri: "test://static-binary" }))).toEqual({
      contents: [
        {
          uri: "test://static-binary",
          mimeType: "image/png",
          blob: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
        },
      ],
    });
    expect(bare(await client.readResource({ uri: "users://2" }))).toEqual({
      contents: [
        {
          uri: "users://2",
          mimeType: "application/json",
          text: '{\n  "id": 2,\n  "name": "Grace",\n  "role": "member"\n}',
        },
      ],
    });
    expect(bare(await client.readResource({ uri: "test://template/42/data" }))).toEqual({
      contents: [
        {
          uri: "test://template/42/data",
          mimeType: "application/json",
          text: '{\n  "id": "42",\n  "templateTest": true,\n  "data": "Data for ID: 42"\n}',
        },
      ],
    });
    let error: { code?: number; message?: string; data?: unknown } = {};
    try {
      await client.readResource({ uri: "users://9" });
    } catch (thrown) {
      error = thrown as typeof error;
    }
    // The v1 client prefixes "MCP error <code>: " to the server's message.
    expect([error.code, error.message?.replace(/^MCP error -?\d+: /, ""), error.data]).toEqual([
      -32602,
      "No user 9",
      { uri: "users://9" },
    ]);
  });
});

/** The forms the build wrote from the example's types, as a client receives them. */
const DEFAULTS_FORM = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
  required: ["name", "age", "score", "status", "verified"],
};
const CHOICES_FORM = SEP_1330_FORM;

describe.each(["2026-07-28", "2025-11-25"] as const)("asking the %s client", (revision) => {
  let mcp: MCPServer;
  let client: V2Client;
  const asked: { method: string; params: Record<string, unknown> }[] = [];
  let elicitAnswer: (params: Record<string, unknown>) => object = () => ({ action: "cancel" });
  beforeAll(async () => {
    jest.isolateModules(() => ({ mcp } = require(path.join(BUILT, "server.js")) as { mcp: MCPServer }));
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverTransport);
    client = new V2Client(
      { name: "asked", version: "1.0.0" },
      {
        capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
        ...(revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
      },
    );
    const record = (request: { method: string; params?: unknown }) => {
      const { _meta, ...params } = (request.params ?? {}) as Record<string, unknown>;
      void _meta;
      asked.push({ method: request.method, params });
    };
    client.setRequestHandler("elicitation/create", (request) => {
      record(request);
      return elicitAnswer(request.params as Record<string, unknown>) as never;
    });
    client.setRequestHandler("sampling/createMessage", (request) => {
      record(request);
      return { role: "assistant", content: { type: "text", text: "Hello" }, model: "m" };
    });
    client.setRequestHandler("roots/list", (request) => {
      record(request);
      return { roots: [{ uri: "file:///home/ada" }] };
    });
    await client.connect(clientTransport);
  });
  afterAll(() => client.close());
  beforeEach(() => void asked.splice(0));

  const text = async (name: string, args: Record<string, unknown> = {}) =>
    ((await client.callTool({ name, arguments: args })).content as { text: string }[])[0].text;

  test("the forms the build wrote from the types, and the typed answers", async () => {
    elicitAnswer = () => ({
      action: "accept",
      content: { name: "Jane Smith", age: 25, score: 88, status: "inactive", verified: false },
    });
    expect(await text("test_elicitation_sep1034_defaults")).toBe(
      'Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88,"status":"inactive","verified":false}',
    );
    elicitAnswer = () => ({
      action: "accept",
      content: {
        untitledSingle: "option1",
        titledSingle: "value1",
        legacyEnum: "opt1",
        untitledMulti: ["option1", "option2"],
        titledMulti: ["value1", "value2"],
      },
    });
    expect(await text("test_elicitation_sep1330_enums")).toBe(
      'Elicitation completed: action=accept, content={"untitledSingle":"option1","titledSingle":"value1","legacyEnum":"opt1","untitledMulti":["option1","option2"],"titledMulti":["value1","value2"]}',
    );
    expect(asked).toEqual([
      {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: "Test client default value handling - please accept with defaults",
          requestedSchema: DEFAULTS_FORM,
        },
      },
      {
        method: "elicitation/create",
        params: { mode: "form", message: "Pick your options", requestedSchema: CHOICES_FORM },
      },
    ]);
  });

  test("three questions in one round, then two rounds one after the other", async () => {
    elicitAnswer = (params) => ({
      action: "accept",
      content: String(params.message).includes("color") ? { color: "teal" } : { name: "Ada" },
    });
    expect(await text("test_input_required_result_multiple_inputs")).toBe("Hello Ada (1 roots)");
    expect(asked.map((a) => a.method).sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    asked.splice(0);
    expect(await text("test_input_required_result_multi_round")).toBe("Ada likes teal");
    expect(asked.map((a) => a.params.message)).toEqual([
      "Step 1: What is your name?",
      "Step 2: What is your favorite color?",
    ]);
  });

  test("an answer its type does not allow is refused, and the tool never sees it", async () => {
    elicitAnswer = () => ({
      action: "accept",
      content: { name: "Jane", age: "thirty", score: 1, status: "gone", verified: true },
    });
    await expect(client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        'Invalid input response "elicit-1": it does not fit the form: 2 validation errors for Defaults',
      ),
    });
  });
});
