/**
 * What a faulty tool or a hostile client can do to one server in process, with contracts
 * written by hand: whatever a tool throws, arguments JSON cannot carry exactly, values nested
 * deeper than the stack, a polluted Object.prototype. Each call gets an answer, and the server
 * keeps serving. (The same over real stdio, where a process could exit: test/hostile.test.ts.)
 */
import { CONTRACT_VERSION, MCPServer, type ToolContract } from "typemcp";
import type { Client } from "@modelcontextprotocol/client";
import { ANY, validatorOf } from "../runtime/validation/validator";
import { RegisteredTool } from "../runtime/tool";
import { connectClient } from "./support/in-memory";

const NO_ARGS = { type: "object", title: "fArguments", properties: {}, additionalProperties: false };

function contract(extra: Partial<ToolContract> = {}): ToolContract {
  return { v: CONTRACT_VERSION, name: "f", params: [], inputSchema: NO_ARGS, ...extra };
}

const numberOutput = {
  type: "object",
  title: "fOutput",
  properties: { result: { type: "number" } },
  required: ["result"],
};

/** Rejections nobody handles, while a test runs: there must be none. */
let unhandled: unknown[];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(async () => {
  // Unhandled rejections are reported a macrotask after the promise settles.
  await new Promise((resolve) => setTimeout(resolve, 10));
  process.off("unhandledRejection", onUnhandled);
  expect(unhandled).toEqual([]);
});

/** A server with the tool under test and a `ping` tool that must still answer afterwards. */
async function serve(
  register: (mcp: MCPServer) => void,
  options?: ConstructorParameters<typeof MCPServer>[1],
): Promise<{ mcp: MCPServer; client: Client }> {
  const mcp = new MCPServer("t", { logErrors: false, ...options });
  register(mcp);
  mcp.tool(
    () => "pong",
    { name: "ping" },
    contract({
      name: "ping",
      outputSchema: { ...numberOutput, properties: { result: { type: "string" } } },
      wrapped: true,
    }),
  );
  return { mcp, client: await connectClient(mcp) };
}

async function stillServes(client: Client): Promise<void> {
  expect(await client.callTool({ name: "ping", arguments: {} })).toEqual({
    content: [{ type: "text", text: "pong" }],
    structuredContent: { result: "pong" },
  });
}

const errorResult = (text: string) => ({ content: [{ type: "text", text }], isError: true });

describe("whatever a tool throws or rejects with, the call answers isError with a message", () => {
  const withMessage = (message: unknown) => {
    const error = new Error("placeholder");
    Object.defineProperty(error, "message", { value: message });
    return error;
  };
  const strange: [string, () => unknown, string][] = [
    ["an Error whose message is a Symbol", () => withMessage(Symbol("boom")), "Symbol(boom)"],
    [
      "an Error whose message is a null-prototype object",
      () => withMessage(Object.assign(Object.create(null), { code: 42 })),
      '{"code":42}',
    ],
    [
      "an Error whose message getter throws",
      () =>
        Object.defineProperty(new TypeError("x"), "message", {
          get() {
            throw new Error("no");
          },
        }),
      "TypeError (its message cannot be read)",
    ],
    [
      "an Error whose message and name cannot be read",
      () => {
        const error = new Error("x");
        for (const key of ["message", "name"])
          Object.defineProperty(error, key, {
            get() {
              throw new Error("no");
            },
          });
        return error;
      },
      "the tool threw an exception that cannot be read",
    ],
    [
      "a revoked Proxy",
      () => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      },
      "the tool threw an exception that cannot be read",
    ],
    ["a null-prototype object", () => Object.assign(Object.create(null), { reason: "quota" }), '{"reason":"quota"}'],
    ["a Symbol", () => Symbol("bare"), "Symbol(bare)"],
    [
      "an object whose toJSON and toString throw",
      () => ({
        toJSON() {
          throw new Error("no");
        },
        toString() {
          throw new Error("no");
        },
      }),
      "the tool threw an exception that cannot be read",
    ],
    ["a bigint", () => 12n, "12"],
    ["undefined", () => undefined, "undefined"],
    ["null", () => null, "null"],
    ["a string", () => "plain words", "plain words"],
  ];

  test.each(strange)("%s, thrown by a sync tool", async (_, make, message) => {
    const { client } = await serve((mcp) =>
      mcp.tool(
        () => {
          throw make();
        },
        {},
        contract(),
      ),
    );
    expect(await client.callTool({ name: "f", arguments: {} })).toEqual(
      errorResult(`Error executing tool f: ${message}`),
    );
    await stillServes(client);
    await client.close();
  });

  test.each(strange)("%s, rejected by an async tool", async (_, make, message) => {
    const { client } = await serve((mcp) =>
      mcp.tool(
        async () => {
          throw make();
        },
        {},
        contract({ outputSchema: numberOutput, wrapped: true }),
      ),
    );
    expect(await client.callTool({ name: "f", arguments: {} })).toEqual(
      errorResult(`Error executing tool f: ${message}`),
    );
    await stillServes(client);
    await client.close();
  });

  test("a result whose then getter throws, and a thenable that rejects with a revoked Proxy", async () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const { client } = await serve((mcp) => {
      mcp.tool(
        () =>
          Object.defineProperty({}, "then", {
            get() {
              throw Symbol("then");
            },
          }),
        { name: "getter" },
        contract({ name: "getter" }),
      );
      mcp.tool(
        () => ({ then: (_: unknown, reject: (e: unknown) => void) => reject(proxy) }),
        { name: "thenable" },
        contract({ name: "thenable" }),
      );
    });
    expect(await client.callTool({ name: "getter", arguments: {} })).toEqual(
      errorResult("Error executing tool getter: Symbol(then)"),
    );
    expect(await client.callTool({ name: "thenable", arguments: {} })).toEqual(
      errorResult("Error executing tool thenable: the tool threw an exception that cannot be read"),
    );
    await stillServes(client);
    await client.close();
  });
});

const sumContract = contract({
  name: "sum",
  params: ["values"],
  inputSchema: {
    type: "object",
    title: "sumArguments",
    properties: { values: { type: "array", items: { type: "number" } } },
    required: ["values"],
    additionalProperties: false,
  },
  outputSchema: { ...numberOutput, title: "sumOutput" },
  wrapped: true,
});
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

test("an array nested 20,000 deep where numbers are expected: isError, nested too deeply, not -32603", async () => {
  const { client } = await serve((mcp) => mcp.tool(sum, {}, sumContract));
  const values = JSON.parse("[".repeat(20_000) + "1" + "]".repeat(20_000)) as unknown[];
  expect(await client.callTool({ name: "sum", arguments: { values } })).toEqual(
    errorResult(
      "Error executing tool sum: 1 validation error for sumArguments\nvalues.0\n  Input should be a valid number [input_value=(a value nested too deeply to show)]",
    ),
  );
  await stillServes(client);
  await client.close();
});

describe("a polluted Object.prototype reaches neither the results nor the arguments", () => {
  const record = {
    type: "object",
    title: "Record",
    properties: { name: { type: "string" }, note: { type: "string" } },
    required: ["name"],
    additionalProperties: false,
  };
  const prototype = Object.prototype as Record<string, unknown>;
  /** Runs `body` with Object.prototype polluted (Ajv and the SDK cannot compile or connect under it: they are ready before). */
  async function polluted<T>(body: () => T | Promise<T>): Promise<T> {
    prototype.note = "INJECTED-VIA-PROTOTYPE";
    prototype.units = "kelvin";
    try {
      return await body();
    } finally {
      delete prototype.note;
      delete prototype.units;
    }
  }
  /** A registered tool called directly (the SDK itself cannot run under a polluted prototype), called once first: its checkers made. */
  async function warmTool(
    fn: (...args: never[]) => unknown,
    compiled: ToolContract,
    args: Record<string, unknown> = {},
  ): Promise<(args: Record<string, unknown>) => unknown> {
    const tool = new RegisteredTool(fn as never, {}, compiled);
    const call = (a: Record<string, unknown>) =>
      tool.call(a, { mcpReq: { signal: new AbortController().signal } } as never, undefined as never);
    await call(args);
    return call;
  }

  test("the projection reads own properties only", async () => {
    const projectRecord = validatorOf(record);
    const projectList = validatorOf({ type: "array", items: record });
    await polluted(() => {
      expect(JSON.stringify(projectRecord.wireCopy({ name: "plain" }).value)).toBe('{"name":"plain"}');
      expect(
        JSON.stringify(
          projectList.wireCopy([{ name: "a" }, Object.assign(Object.create({ note: "inherited" }), { name: "b" })])
            .value,
        ),
      ).toBe('[{"name":"a"},{"name":"b"}]');
      expect(JSON.stringify(ANY.wireCopy({ name: "plain" }).value)).toBe('{"name":"plain"}');
    });
  });

  // Validation and projection read own properties only: what the prototype holds reaches neither side.
  test("a result never carries what the prototype holds", async () => {
    const call = await warmTool(() => ({ name: "plain" }), contract({ outputSchema: record }));
    const result = await polluted(() => call({}));
    expect(JSON.stringify(result)).not.toContain("INJECTED");
    expect(JSON.stringify(result)).not.toContain("kelvin");
  });

  test("an optional argument left out is never the prototype's", async () => {
    const received: unknown[] = [];
    const inputSchema = {
      type: "object",
      title: "fArguments",
      properties: { city: { type: "string" }, units: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    };
    const call = await warmTool(
      (city: string, units?: string) => void received.push(units),
      contract({ params: ["city", "units"], inputSchema }),
      { city: "Paris" },
    );
    received.length = 0;
    const result = await polluted(() => call({ city: "Paris" }));
    expect(received).not.toContain("kelvin");
    expect(JSON.stringify(result)).not.toContain("kelvin");
  });

  test("the arguments are passed by their own properties: one left out is undefined", async () => {
    const received: unknown[] = [];
    const call = await warmTool(
      (city: string, units?: string) => void received.push(units),
      contract({ params: ["city", "units"], inputSchema: { type: "object" } }),
      { city: "Paris" },
    );
    received.length = 0;
    call(Object.assign(Object.create({ units: "kelvin" }), { city: "Paris" }));
    expect(received).toEqual([undefined]);
  });
});

describe("a property named constructor", () => {
  test("optional in a result: absent is absent, not Object's constructor", async () => {
    const output = {
      type: "object",
      title: "Named",
      properties: { name: { type: "string" }, constructor: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    };
    const { client } = await serve((mcp) => mcp.tool(() => ({ name: "x" }), {}, contract({ outputSchema: output })));
    for (let i = 0; i < 20; i++) {
      expect(await client.callTool({ name: "f", arguments: {} })).toEqual({
        content: [{ type: "text", text: '{\n  "name": "x"\n}' }],
        structuredContent: { name: "x" },
      });
      await new Promise((resolve) => setImmediate(resolve));
    }
    await client.close();
  });

  test("optional as an argument: left out is accepted, given is passed", async () => {
    const received: unknown[] = [];
    const inputSchema = {
      type: "object",
      title: "fArguments",
      properties: { constructor: { type: "string" } },
      additionalProperties: false,
    };
    const { client } = await serve((mcp) =>
      mcp.tool(
        (constructor?: string) => void received.push(constructor),
        {},
        contract({ params: ["constructor"], inputSchema }),
      ),
    );
    for (let i = 0; i < 20; i++) {
      expect(await client.callTool({ name: "f", arguments: {} })).toEqual({ content: [] });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await client.callTool({ name: "f", arguments: { constructor: "Ada" } })).toEqual({ content: [] });
    expect(received).toEqual([...Array(20).fill(undefined), "Ada"]);
    await client.close();
  });
});

describe("numbers JSON parses to a value other than the one written", () => {
  const inputSchema = {
    type: "object",
    title: "measureArguments",
    properties: {
      length: { type: "number" },
      count: { type: "integer", minimum: 0 },
      big: { type: "integer", maximum: 1e20 },
    },
    additionalProperties: false,
  };
  const measure = contract({ name: "measure", params: ["length", "count", "big"], inputSchema });
  const invalid = (name: string, message: string) =>
    errorResult(`Error executing tool measure: 1 validation error for measureArguments\n${name}\n  ${message}`);
  // What a client that writes 2 ** 53 + 1 sends: JSON.parse reads it as 2 ** 53, as the literal here is.
  // eslint-disable-next-line no-loss-of-precision -- the loss is what is tested
  const TWO_TO_THE_53_PLUS_ONE = 9007199254740993;
  let client: Client;
  const received: unknown[][] = [];
  beforeEach(async () => {
    ({ client } = await serve((mcp) => mcp.tool((...args: unknown[]) => void received.push(args), {}, measure)));
    received.length = 0;
  });
  afterEach(() => client.close());

  // JSON.parse("1e400") is Infinity: what a client that writes 1e400 sends.
  test.each([
    ["length", Infinity, "Input should be a finite number [input_value=Infinity]"],
    ["length", -Infinity, "Input should be a finite number [input_value=-Infinity]"],
    ["count", Infinity, "Input should be a finite number [input_value=Infinity]"],
    [
      "count",
      TWO_TO_THE_53_PLUS_ONE,
      "Input should be a safe integer, from -9007199254740991 to 9007199254740991 [input_value=9007199254740992]",
    ],
    [
      "big",
      2 ** 60,
      "Input should be a safe integer, from -9007199254740991 to 9007199254740991 [input_value=1152921504606847000]",
    ],
    [
      "big",
      -(2 ** 53),
      "Input should be a safe integer, from -9007199254740991 to 9007199254740991 [input_value=-9007199254740992]",
    ],
  ])("%s = %p is refused, by name", async (name, value, message) => {
    for (let i = 0; i < 20; i++) {
      // The first calls are checked by walking the schema, the later ones by Ajv's compiled validator.
      expect(await client.callTool({ name: "measure", arguments: { [name]: value } })).toEqual(invalid(name, message));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(received).toEqual([]);
  });

  test("the largest safe integers, and large finite numbers, are accepted", async () => {
    const args = { length: 1.7976931348623157e308, count: Number.MAX_SAFE_INTEGER, big: -Number.MAX_SAFE_INTEGER };
    for (let i = 0; i < 20; i++) {
      expect(await client.callTool({ name: "measure", arguments: args })).toEqual({ content: [] });
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(received).toEqual(Array(20).fill([args.length, args.count, args.big]));
  });
});

describe("shutdown has a deadline", () => {
  test("close() waits for calls in flight up to shutdownTimeout, then answers the rest with an error", async () => {
    let started = 0;
    const { mcp, client } = await serve(
      (mcp) => {
        mcp.tool(() => new Promise(() => void started++), { name: "forever" }, contract({ name: "forever" }));
        mcp.tool(
          () => new Promise((resolve) => setTimeout(() => resolve("soon"), 20)),
          { name: "soon" },
          contract({ name: "soon" }),
        );
      },
      { shutdownTimeout: 200 },
    );
    const forever = client.callTool({ name: "forever", arguments: {} });
    const soon = client.callTool({ name: "soon", arguments: {} });
    while (started === 0) await new Promise((resolve) => setImmediate(resolve));
    await mcp.close();
    expect(await soon).toEqual({ content: [{ type: "text", text: "soon" }] });
    expect(await forever).toEqual(
      errorResult(
        "Error executing tool forever: the server shut down before the call finished (shutdownTimeout: 200 ms)",
      ),
    );
  });

  test("the default deadline is 10 seconds", () => {
    expect(new MCPServer("t").shutdownTimeout).toBe(10_000);
    expect(new MCPServer("t", { shutdownTimeout: 0 }).shutdownTimeout).toBe(0);
  });

  test("a deadline that is not a number of milliseconds is refused", () => {
    expect(() => new MCPServer("t", { shutdownTimeout: -1 })).toThrow(
      "typemcp: shutdownTimeout must be a number of milliseconds, 0 or more (got -1)",
    );
  });
});

describe("errors in the server's own code are logged to stderr, once per cause", () => {
  let written: string[];
  let spy: jest.SpyInstance;
  beforeEach(() => {
    written = [];
    spy = jest
      .spyOn(process.stderr, "write")
      .mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
  });
  afterEach(() => spy.mockRestore());

  function failing(kind: string): never {
    throw new RangeError(`no forecast for ${kind}`);
  }

  test("a tool's exception: the tool's name and the stack, once however often it is thrown", async () => {
    const { client } = await serve(
      (mcp) => {
        mcp.tool(
          (city: string) => failing(city),
          { name: "forecast" },
          contract({
            name: "forecast",
            params: ["city"],
            inputSchema: { type: "object", properties: { city: { type: "string" } } },
          }),
        );
        mcp.tool(
          async () => {
            throw new Error("elsewhere");
          },
          { name: "other" },
          contract({ name: "other" }),
        );
      },
      { logErrors: true },
    );
    for (const city of ["Paris", "Oslo", "Paris"]) {
      expect(await client.callTool({ name: "forecast", arguments: { city } })).toEqual(
        errorResult(`Error executing tool forecast: no forecast for ${city}`),
      );
    }
    await client.callTool({ name: "other", arguments: {} });
    await stillServes(client);
    expect(written).toHaveLength(2);
    expect(written[0]).toMatch(
      /^typemcp: tool "forecast" threw \(the client was answered with isError\): RangeError: no forecast for Paris\n {4}at failing \(.*faults\.test\.ts:\d+:\d+\)\n/,
    );
    expect(written[1]).toMatch(
      /^typemcp: tool "other" threw \(the client was answered with isError\): Error: elsewhere\n {4}at .*faults\.test\.ts:\d+:\d+/,
    );
    await client.close();
  });

  test("a result that breaks its own declared type: the tool's name, the errors and where it was registered, once per kind of break", async () => {
    const output = {
      type: "object",
      title: "Weather",
      properties: { humidity: { type: "number" } },
      required: ["humidity"],
      additionalProperties: false,
    };
    let next: unknown = {};
    const { client } = await serve(
      (mcp) => mcp.tool(() => next, { name: "weather" }, contract({ name: "weather", outputSchema: output })),
      { logErrors: true },
    );
    await client.callTool({ name: "weather", arguments: {} });
    await client.callTool({ name: "weather", arguments: {} });
    next = { humidity: "high" };
    await client.callTool({ name: "weather", arguments: {} });
    next = { humidity: 10n };
    await client.callTool({ name: "weather", arguments: {} });
    expect(written).toHaveLength(3);
    expect(written[0]).toMatch(
      /^typemcp: tool "weather" returned a value its declared type does not allow \(the client was answered with isError\): 1 validation error for Weather\nhumidity\n {2}Field required\n {4}registered at .*faults\.test\.ts:\d+:\d+\n$/,
    );
    expect(written[1]).toMatch(
      /^typemcp: tool "weather" returned a value its declared type does not allow \(the client was answered with isError\): 1 validation error for Weather\nhumidity\n {2}Input should be a valid number \[input_value="high"\]\n {4}registered at /,
    );
    expect(written[2]).toMatch(
      /^typemcp: tool "weather" returned a value that cannot be sent as JSON \(the client was answered with isError\): result\.humidity: a bigint, which JSON cannot represent\n {4}registered at /,
    );
    await client.close();
  });

  test("keys a client chooses make no new causes: 1,100 wrong record keys are one entry, and a real exception is still logged", async () => {
    // A tool that echoes the client's keys into a Record<string, string> result, wrongly typed.
    const output = {
      type: "object",
      title: "tagsOutput",
      properties: { tags: { type: "object", additionalProperties: { type: "string" } } },
      required: ["tags"],
      additionalProperties: false,
    };
    const { client } = await serve(
      (mcp) => {
        mcp.tool(
          (key: string) => ({ tags: { [key]: 1 } }),
          { name: "tags" },
          contract({
            name: "tags",
            params: ["key"],
            inputSchema: { type: "object", properties: { key: { type: "string" } } },
            outputSchema: output,
          }),
        );
        mcp.tool(
          (key: string) => ({ tags: {}, [key]: 1n }),
          { name: "extra" },
          contract({
            name: "extra",
            params: ["key"],
            inputSchema: { type: "object", properties: { key: { type: "string" } } },
            outputSchema: {
              type: "object",
              title: "extraOutput",
              properties: {},
              additionalProperties: { type: "object" },
            },
          }),
        );
        mcp.tool(
          (message: string) => {
            throw message;
          },
          { name: "throws_text" },
          contract({
            name: "throws_text",
            params: ["message"],
            inputSchema: { type: "object", properties: { message: { type: "string" } } },
          }),
        );
        mcp.tool(() => failing("real"), { name: "real" }, contract({ name: "real" }));
      },
      { logErrors: true },
    );
    for (let i = 0; i < 1100; i++) {
      await client.callTool({ name: "tags", arguments: { key: `k${i}` } });
      await client.callTool({ name: "extra", arguments: { key: `k${i}` } });
      await client.callTool({ name: "throws_text", arguments: { message: `m${i}` } });
    }
    await client.callTool({ name: "real", arguments: {} });
    expect(written.map((line) => line.split(":")[1])).toEqual([
      ' tool "tags" returned a value its declared type does not allow (the client was answered with isError)',
      ' tool "extra" returned a value that cannot be sent as JSON (the client was answered with isError)',
      ' tool "throws_text" threw (the client was answered with isError)',
      ' tool "real" threw (the client was answered with isError)',
    ]);
    expect(written[0]).toContain("tags.k0\n  Input should be a valid string [input_value=1]");
    expect(written[3]).toMatch(/RangeError: no forecast for real\n {4}at failing \(.*faults\.test\.ts:\d+:\d+\)\n/);
    await client.close();
  });

  test("invalid arguments and timeouts are the client's or the clock's, not logged; logErrors: false logs nothing", async () => {
    const { client } = await serve(
      (mcp) => {
        mcp.tool(() => new Promise(() => undefined), { name: "hang", timeout: 10 }, contract({ name: "hang" }));
        mcp.tool(
          () => {
            throw new Error("quiet");
          },
          { name: "quiet" },
          contract({ name: "quiet" }),
        );
      },
      { logErrors: true },
    );
    await client.callTool({ name: "hang", arguments: {} });
    await client.callTool({ name: "hang", arguments: { extra: 1 } });
    expect(written).toEqual([]);
    await client.close();
    const silent = await serve(
      (mcp) =>
        mcp.tool(
          () => {
            throw new Error("quiet");
          },
          { name: "quiet" },
          contract({ name: "quiet" }),
        ),
      { logErrors: false },
    );
    await silent.client.callTool({ name: "quiet", arguments: {} });
    expect(written).toEqual([]);
    await silent.client.close();
  });
});

describe("tool names: one rule, and a duplicate names both places", () => {
  test("a name computed at run time must be a valid MCP tool name", () => {
    const mcp = new MCPServer("t");
    const name = ["get", "weather", "now"].join(" ");
    expect(() => mcp.tool(() => 1, { name }, contract())).toThrow(
      /^typemcp: tool name "get weather now" \(registered at .*faults\.test\.ts:\d+:\d+\) is not a valid MCP tool name: use 1 to 128 characters of A-Z a-z 0-9 _ \. -$/,
    );
    expect(() => mcp.tool(() => 1, { name: "" }, contract())).toThrow(
      /tool name "" \(registered at .*\) is not a valid MCP tool name/,
    );
    expect(() => mcp.tool(() => 1, { name: "x".repeat(129) }, contract())).toThrow(/is not a valid MCP tool name/);
    expect(() => mcp.tool(() => 1, { name: 42 as unknown as string }, contract())).toThrow(
      /^typemcp: tool name 42 \(registered at .*\) is not a valid MCP tool name: a tool name is a string/,
    );
    mcp.tool(() => 1, { name: "x".repeat(128) }, contract());
    mcp.tool(() => 1, { name: "a-b.c_D9" }, contract());
  });

  test("a second tool of the same name: the error says where both were registered", () => {
    const mcp = new MCPServer("t");
    mcp.tool(() => 1, {}, contract());
    let message = "";
    try {
      mcp.tool(() => 2, {}, contract());
    } catch (error) {
      message = (error as Error).message;
    }
    const [, file, first, second] =
      /^typemcp: a tool named "f" is already registered \(first at (.*faults\.test\.ts):(\d+):\d+, again at \1:(\d+):\d+\): give one of them another name with \{ name: "\.\.\." \}$/.exec(
        message,
      ) ?? [];
    expect(file).toBeDefined();
    expect(Number(second) - Number(first)).toBe(3);
  });
});

describe("a million wrong items", () => {
  test("sum(values: number[]) with 1,000,000 strings (4 MB): the first errors listed, all counted", async () => {
    const { client } = await serve((mcp) => mcp.tool(sum, {}, sumContract));
    const values = JSON.parse(`[${'"x",'.repeat(999_999)}"x"]`) as unknown[];
    const lines = Array.from(
      { length: 50 },
      (_, i) => `values.${i}\n  Input should be a valid number [input_value="x"]`,
    );
    expect(await client.callTool({ name: "sum", arguments: { values } })).toEqual(
      errorResult(
        `Error executing tool sum: 1000000 validation errors for sumArguments (the first 50 listed)\n${lines.join("\n")}`,
      ),
    );
    await stillServes(client);
    await client.close();
  });

  test("a result with 20,000 wrong items breaks its type: the first errors listed, all counted", async () => {
    const output = {
      type: "object",
      title: "listOutput",
      properties: { result: { type: "array", items: { type: "integer" } } },
      required: ["result"],
    };
    const { client } = await serve((mcp) =>
      mcp.tool(
        () => Array(20_000).fill(0.5),
        { name: "list" },
        contract({ name: "list", outputSchema: output, wrapped: true }),
      ),
    );
    const result = (await client.callTool({ name: "list", arguments: {} })) as { content: { text: string }[] };
    expect(result.content[0].text.split("\n").slice(0, 3)).toEqual([
      "Error executing tool list: 20000 validation errors for listOutput (the first 50 listed)",
      "result.0",
      "  Input should be a valid integer [input_value=0.5]",
    ]);
    await client.close();
  });
});

describe("patterns a backtracking engine takes exponential or quadratic time on", () => {
  const withPattern = (pattern: string) => ({
    type: "object",
    title: "fArguments",
    properties: { text: { type: "string", pattern } },
    required: ["text"],
    additionalProperties: false,
  });
  const shown = (text: string) => `[input_value="${text.slice(0, 119)}… (${text.length + 2} characters)]`;
  const digits = `v${"1".repeat(50_000)}x`;
  // V8's own RegExp does not finish these in a lifetime: 25 a take it a second, and each more a
  // doubles that; `[0-9]+\.?[0-9]*` (a number pattern as typemcp once wrote it) takes it 1.3 s on
  // 30,000 digits, and four times that on twice as many.
  const QUADRATIC_NUMBER = String.raw`^v(?:\s*(?:[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+))\s*|\s+)$`;
  test.each([
    ["an author's ^(a+)+$, 20,000 a and a !", "^(a+)+$", `${"a".repeat(20_000)}!`],
    ["[0-9]+\\.?[0-9]*, v, 50,000 digits and x", QUADRATIC_NUMBER, digits],
  ])("%s: refused, on the first call (the walk) and once compiled (Ajv)", async (_, pattern, text) => {
    const { client } = await serve((mcp) =>
      mcp.tool((value: string) => value, {}, contract({ params: ["text"], inputSchema: withPattern(pattern) })),
    );
    for (let i = 0; i < 2; i++) {
      expect(await client.callTool({ name: "f", arguments: { text } })).toEqual(
        errorResult(
          `Error executing tool f: 1 validation error for fArguments\ntext\n  String should match pattern ${JSON.stringify(pattern)} ${shown(text)}`,
        ),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    await client.close();
  });
});
