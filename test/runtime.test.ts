/**
 * The runtime on its own, fed contract literals written by hand (the documented contract,
 * contract/contract.ts): registration checks, the content channel, and
 * results no fixture can produce honestly (NaN, bigint, cycles, prototype keys).
 */
import { CONTRACT_VERSION, MCPServer, tool, type JsonSchema, type ToolContract } from "typemcp";
import { validatorOf } from "../runtime/validation/validator";
import { toContent } from "../runtime/content";
import { dateOf, dateReviver } from "../runtime/dates";
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

describe("Dates in the arguments, where the contract's plan says", () => {
  const DATE_TIME = { type: "string", format: "date-time" };

  /** What a tool got, each Date written `Date(<ISO>)`, so that a string shows as one. */
  const shown = (value: unknown): unknown => {
    if (value instanceof Date) return `Date(${value.toISOString()})`;
    if (Array.isArray(value)) return value.map(shown);
    if (value !== null && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shown(item)]));
    return value;
  };
  const answer = (text: string) => ({ content: [{ type: "text", text }] });

  const tasks: JsonSchema = {
    type: "object",
    title: "fArguments",
    properties: {
      at: DATE_TIME,
      when: { anyOf: [DATE_TIME, { type: "string", const: "now" }] },
      task: { $ref: "#/$defs/Task" },
      span: { type: "array", prefixItems: [{ type: "string" }, DATE_TIME], minItems: 2, unevaluatedItems: DATE_TIME },
      log: { type: "object", properties: { note: { type: "string" } }, additionalProperties: DATE_TIME },
    },
    additionalProperties: false,
    $defs: {
      Task: {
        type: "object",
        properties: { due: DATE_TIME, subtasks: { type: "array", items: { $ref: "#/$defs/Task" } } },
        required: ["due", "subtasks"],
        additionalProperties: false,
      },
    },
  };
  const taskDates = {
    arguments: {
      properties: {
        at: { date: true as const },
        when: { date: true as const, keep: ["now"] },
        task: { ref: "Task" },
        span: { prefixItems: [null, { date: true as const }], items: { date: true as const } },
        log: { properties: { note: null }, additionalProperties: { date: true as const } },
      },
    },
    defs: { Task: { properties: { due: { date: true as const }, subtasks: { items: { ref: "Task" } } } } },
  };

  test("the tool gets a Date for each date-time string the plan points at, and every other value as sent", async () => {
    const mcp = new MCPServer("t");
    mcp.tool(
      (...args: unknown[]) => JSON.stringify(args.map(shown)),
      {},
      contract({ params: ["at", "when", "task", "span", "log"], inputSchema: tasks, dates: taskDates }),
    );
    const c = await client(mcp);
    const args = {
      at: "2026-01-02T03:04:05+01:00",
      when: "now",
      task: { due: "2026-02-01T00:00:00Z", subtasks: [{ due: "2026-01-15T12:00:00.250Z", subtasks: [] }] },
      span: ["2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z"],
      log: { note: "2026-04-01T00:00:00Z", ["__proto__"]: "2026-04-02T00:00:00Z" },
    };
    expect(await c.callTool({ name: "f", arguments: args })).toEqual(
      answer(
        JSON.stringify([
          "Date(2026-01-02T02:04:05.000Z)",
          "now",
          {
            due: "Date(2026-02-01T00:00:00.000Z)",
            subtasks: [{ due: "Date(2026-01-15T12:00:00.250Z)", subtasks: [] }],
          },
          ["2026-03-01T00:00:00Z", "Date(2026-03-02T00:00:00.000Z)", "Date(2026-03-03T00:00:00.000Z)"],
          // A declared key listed as null holds no Date; a record's "__proto__" key is a key like any other.
          { note: "2026-04-01T00:00:00Z", ["__proto__"]: "Date(2026-04-02T00:00:00.000Z)" },
        ]),
      ),
    );
    await c.close();
  });

  test("one destructured parameter gets the arguments object, its Dates made", async () => {
    const mcp = new MCPServer("t");
    const inputSchema = { ...NO_ARGS, properties: { from: DATE_TIME, label: { type: "string" } } };
    const dates = { arguments: { ref: "Range" }, defs: { Range: { properties: { from: { date: true as const } } } } };
    mcp.tool(
      (range: { from: Date; label: string }) => `${range.from instanceof Date} ${range.from.getTime()} ${range.label}`,
      {},
      contract({ inputSchema, argumentsObject: true, dates }),
    );
    const c = await client(mcp);
    expect(await c.callTool({ name: "f", arguments: { from: "1970-01-01T00:00:01Z", label: "x" } })).toEqual(
      answer("true 1000 x"),
    );
    await c.close();
  });

  test("a string no Date is made of, which only a schema that does not check the format lets through, is refused naming where", async () => {
    const mcp = new MCPServer("t");
    const loose = JSON.parse(JSON.stringify(tasks).replace(/"format":"date-time"/g, '"minLength":0')) as JsonSchema;
    mcp.tool(() => "called", {}, contract({ params: ["task"], inputSchema: loose, dates: taskDates }));
    const c = await client(mcp);
    const task = { due: "2026-02-01T00:00:00Z", subtasks: [{ due: "soon", subtasks: [] }] };
    expect(await c.callTool({ name: "f", arguments: { task } })).toEqual({
      content: [
        {
          type: "text",
          text: 'Error executing tool f: the arguments could not be read: task.subtasks[0].due: "soon" is not a date-time string, which a Date is made of',
        },
      ],
      isError: true,
    });
    await c.close();
  });

  test("a plan that refers to a name it does not define is refused at registration", () => {
    const mcp = new MCPServer("t");
    const dates = { arguments: { properties: { task: { ref: "Task" } } } };
    expect(() => mcp.tool(() => 1, {}, contract({ params: ["task"], inputSchema: tasks, dates }))).toThrow(
      'typemcp: tool "f": the Dates of its arguments refer to "Task", which the contract does not define',
    );
  });

  test("the arguments object is left as it came: only the objects and arrays on the way to a Date are copied", () => {
    const revive = dateReviver(taskDates);
    const args = { at: "2026-01-01T00:00:00Z", task: { due: "2026-01-01T00:00:00Z", subtasks: [] }, other: { a: 1 } };
    const sent = JSON.parse(JSON.stringify(args)) as typeof args;
    const given = revive(args) as typeof args & { at: unknown; task: { due: unknown } };
    expect(args).toEqual(sent);
    expect(given.at).toEqual(new Date(Date.UTC(2026, 0, 1)));
    expect(given.task.due).toEqual(new Date(Date.UTC(2026, 0, 1)));
    expect(given.task.subtasks).toBe(args.task.subtasks);
    expect(given.other).toBe(args.other);
    // Nothing to make: the object itself.
    const none = { when: "now", span: ["2026-01-01T00:00:00Z"] };
    expect(revive(none)).toBe(none);
  });

  // RFC 3339 date-times as the checker's format admits them, and the instant each stands for.
  const READINGS: [string, string][] = [
    ["2026-01-02T03:04:05Z", "2026-01-02T03:04:05.000Z"],
    ["2026-01-02t03:04:05z", "2026-01-02T03:04:05.000Z"],
    ["2026-01-02 03:04:05Z", "2026-01-02T03:04:05.000Z"],
    ["2026-01-02\t03:04:05Z", "2026-01-02T03:04:05.000Z"],
    ["2026-01-02T03:04:05+01:30", "2026-01-02T01:34:05.000Z"],
    ["2026-01-02T03:04:05+0130", "2026-01-02T01:34:05.000Z"],
    ["2026-01-02T03:04:05-05", "2026-01-02T08:04:05.000Z"],
    ["2026-01-02T03:04:05.1Z", "2026-01-02T03:04:05.100Z"],
    // A Date holds milliseconds: further digits are cut.
    ["2026-01-02T03:04:05.123999999Z", "2026-01-02T03:04:05.123Z"],
    // A leap second, which a Date cannot hold, is read as second 59 (as Temporal reads it).
    ["2016-12-31T23:59:60Z", "2016-12-31T23:59:59.000Z"],
    ["2016-12-31T18:59:60.5-05:00", "2016-12-31T23:59:59.500Z"],
    // Years 0 to 99 are those years, not 1900 to 1999.
    ["0099-03-01T00:00:00Z", "0099-03-01T00:00:00.000Z"],
    ["0000-01-01T00:00:00+01:00", "-000001-12-31T23:00:00.000Z"],
    ["2024-02-29T23:59:59.999-14:00", "2024-03-01T13:59:59.999Z"],
  ];

  test.each(READINGS)("%s is the instant %s", (text, iso) => {
    expect(validatorOf({ type: "string", format: "date-time" }).validate(text).total).toBe(0);
    expect(dateOf(text).toISOString()).toBe(iso);
  });

  test("V8's own parser makes an Invalid Date of some of them: why runtime/dates.ts reads the fields itself", () => {
    const unread = READINGS.map(([text]) => text).filter((text) => Number.isNaN(new Date(text).getTime()));
    expect(unread).toEqual(expect.arrayContaining(["2026-01-02T03:04:05-05", "2016-12-31T23:59:60Z"]));
  });
});
