/**
 * The runtime on its own, fed contract literals written by hand (the documented contract,
 * runtime/contract.ts): registration checks, the content channel, and
 * results no fixture can produce honestly (NaN, bigint, cycles, prototype keys).
 */
import { CONTRACT_VERSION, MCPServer, tool, type JsonSchema, type ToolContract } from "typemcp";
import { toContent } from "../runtime/content";
import { connectClient } from "./support/in-memory";

const NO_ARGS = { type: "object", title: "fArguments", properties: {}, additionalProperties: false };

function contract(extra: Partial<ToolContract> = {}): ToolContract {
  return { v: CONTRACT_VERSION, name: "f", params: [], inputSchema: NO_ARGS, ...extra };
}

const client = (mcp: MCPServer) => connectClient(mcp);

describe("registration", () => {
  test("without the transformer, mcp.tool says how to enable it", () => {
    const mcp = new MCPServer("t");
    expect(() => mcp.tool(function get_weather() {})).toThrow(
      'typemcp: mcp.tool(get_weather) has no compiled schema: the typemcp transformer did not run on this file. Add { "transform": "typemcp/transformer" } to "plugins" in the "compilerOptions" of your tsconfig.json, and build with tspc (from ts-patch) instead of tsc. Without the plugin, pass the tool entry of a `typemcp manifest` (it is missing if the manifest is older than the tool).',
    );
  });

  test("a contract of another version asks for a rebuild", () => {
    const mcp = new MCPServer("t");
    expect(() => mcp.tool(() => 1, {}, { ...contract(), v: 1 } as unknown as ToolContract)).toThrow(
      "typemcp: mcp.tool(<anonymous>) was compiled by a typemcp transformer with contract version 1, this runtime reads version 2: rebuild the project with the installed typemcp.",
    );
  });

  test("two tools cannot share a name", () => {
    const mcp = new MCPServer("t");
    mcp.tool(() => 1, {}, contract());
    expect(() => mcp.tool(() => 2, {}, contract())).toThrow('typemcp: a tool named "f" is already registered');
  });

  test("a tool registered after connecting is announced to a 2025-11-25 client with tools/list_changed", async () => {
    const mcp = new MCPServer("t");
    const c = await connectClient(mcp, "2025-11-25");
    const changed = new Promise<void>((resolve) =>
      c.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    mcp.tool(() => "late", { name: "late" }, contract());
    await changed;
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["late"]);
    await c.close();
  });

  test("a tool registered after connecting is announced on a 2026-07-28 client's subscriptions/listen stream", async () => {
    const mcp = new MCPServer("t");
    const c = await client(mcp);
    const changed = new Promise<void>((resolve) =>
      c.setNotificationHandler("notifications/tools/list_changed", () => resolve()),
    );
    const subscription = await c.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    mcp.tool(() => "late", { name: "late" }, contract());
    await changed;
    expect((await c.listTools({}, { cacheMode: "refresh" })).tools.map((t) => t.name)).toEqual(["late"]);
    await subscription.close();
    await c.close();
  });

  test("options.name set at run time retitles the compiled schemas", async () => {
    const mcp = new MCPServer("t");
    const output = {
      type: "object",
      title: "fOutput",
      properties: { result: { type: "number" } },
      required: ["result"],
    };
    mcp.tool(() => 1, { name: dynamicName() }, contract({ outputSchema: output, wrapped: true }));
    const c = await client(mcp);
    const [tool] = (await c.listTools()).tools;
    expect(tool.inputSchema.title).toBe("renamedArguments");
    expect(tool.outputSchema?.title).toBe("renamedOutput");
    await c.close();
  });
});

describe("@tool() and mcp.tools()", () => {
  test("legacy decorators (experimentalDecorators) mark methods on the prototype", async () => {
    class Legacy {
      prefix = "hi ";
      greet(name: string): string {
        return this.prefix + name;
      }
    }
    // What TypeScript emits for `@tool(...)` under experimentalDecorators.
    tool(
      {},
      contract({
        name: "greet",
        params: ["name"],
        inputSchema: { type: "object", properties: { name: { type: "string" } } },
      }),
    )(Legacy.prototype, "greet", Object.getOwnPropertyDescriptor(Legacy.prototype, "greet"));
    const mcp = new MCPServer("t");
    mcp.tools(new Legacy());
    const c = await client(mcp);
    expect(await c.callTool({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      content: [{ type: "text", text: "hi Ada" }],
    });
    await c.close();
  });

  test("an object with no marked methods is refused", () => {
    expect(() => new MCPServer("t").tools(new (class Plain {})())).toThrow(
      "typemcp: mcp.tools() found no @tool() methods on Plain",
    );
  });

  test("@tool() on something other than a method is refused", () => {
    expect(() => tool()(undefined, { kind: "field", name: "x" })).toThrow("typemcp: @tool() decorates methods only");
  });
});

function dynamicName(): string {
  return ["re", "named"].join("");
}

describe("results JSON cannot carry are errors, and the server keeps serving", () => {
  const numberOutput = {
    type: "object",
    title: "fOutput",
    properties: { result: { type: "number" } },
    required: ["result"],
  };
  const anyOutput = { type: "object", title: "fOutput", properties: { result: {} }, required: ["result"] };
  const cases: [string, () => unknown, JsonSchema, string][] = [
    [
      "NaN where a number is promised",
      () => NaN,
      numberOutput,
      "Error executing tool f: the result cannot be sent as JSON: result: NaN is not a JSON number",
    ],
    [
      "Infinity where a number is promised",
      () => Infinity,
      numberOutput,
      "Error executing tool f: the result cannot be sent as JSON: result: Infinity is not a JSON number",
    ],
    [
      "a bigint inside any",
      () => ({ id: 1n }),
      anyOutput,
      "Error executing tool f: the result cannot be sent as JSON: result.id: a bigint, which JSON cannot represent",
    ],
    [
      "a cycle",
      () => {
        const a: Record<string, unknown> = {};
        a.self = [a];
        return a;
      },
      anyOutput,
      "Error executing tool f: the result cannot be sent as JSON: result.self[0]: a cycle: the value contains itself",
    ],
  ];
  test.each(cases)("%s", async (_, fn, outputSchema, message) => {
    const mcp = new MCPServer("t");
    mcp.tool(fn, {}, contract({ outputSchema, wrapped: true }));
    mcp.tool(() => 1, { name: "after" }, contract({ outputSchema: numberOutput, wrapped: true }));
    const c = await client(mcp);
    expect(await c.callTool({ name: "f", arguments: {} })).toEqual({
      content: [{ type: "text", text: message }],
      isError: true,
    });
    expect(await c.callTool({ name: "after", arguments: {} })).toEqual({
      content: [{ type: "text", text: "1" }],
      structuredContent: { result: 1 },
    });
    await c.close();
  });

  test("a very long error message is truncated", async () => {
    const mcp = new MCPServer("t");
    mcp.tool(
      () => {
        throw new Error("x".repeat(100_000));
      },
      {},
      contract(),
    );
    const c = await client(mcp);
    const result = await c.callTool({ name: "f", arguments: {} });
    const text = (result.content as { text: string }[])[0].text;
    expect(text.length).toBeLessThan(4100);
    expect(text.endsWith("… (truncated)")).toBe(true);
    await c.close();
  });
});

describe("the content channel", () => {
  test("content blocks pass through for text-only tools, nested arrays flatten, null items drop", () => {
    const image = { type: "image", data: "AAAA", mimeType: "image/png" };
    expect(toContent(["caption", [image, null], 3], true)).toEqual([
      { type: "text", text: "caption" },
      image,
      { type: "text", text: "3" },
    ]);
  });

  test("data that looks like a content block is data when the tool has an output schema", () => {
    const looksLikeBlock = { type: "text", text: "hi" };
    expect(toContent(looksLikeBlock)).toEqual([{ type: "text", text: JSON.stringify(looksLikeBlock, null, 2) }]);
  });
});
