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
import type { MCPServer } from "typemcp";
import { ROOT } from "./support/build";
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
