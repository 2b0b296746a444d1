/**
 * Hostile input over real stdio, against one server process: each case gets its answer,
 * and the server still serves the next request afterwards. The counts of what was tried
 * are printed for the reliability table of docs/reliability.md.
 */
import * as path from "node:path";
import { FIXTURES_OUT } from "./support/fixtures";
import { initialized, type RawServer } from "./support/raw-stdio";

const MODULE = path.join(FIXTURES_OUT, "hostile", "tool.js");
let server: RawServer;

beforeAll(async () => {
  server = await initialized(MODULE);
});

afterAll(async () => {
  server.child.stdin.end();
  expect(await server.exited).toEqual({ code: 0, signal: null });
  // Whatever was logged went to stderr: stdout is JSON-RPC, one message a line, and nothing else.
  const lines = server.stdout().split("\n");
  expect(lines.pop()).toBe("");
  for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
});

afterEach(async () => {
  // Whatever the case did, the server still answers.
  expect(await server.request("tools/call", { name: "ping", arguments: {} })).toMatchObject({
    result: { structuredContent: { result: "pong" } },
  });
});

const call = (name: string, args: unknown) => server.request("tools/call", { name, arguments: args });
const errorText = (answer: Record<string, unknown>) => {
  const result = answer.result as { isError?: boolean; content: { text: string }[]; structuredContent?: unknown };
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content[0].text;
};

describe("malformed JSON-RPC", () => {
  test.each([
    ["not JSON", "{this is not json"],
    ["truncated JSON", '{"jsonrpc":"2.0","id":1,"method":"tools/li'],
  ])("%s is skipped, as the SDK's stdio transport skips any line that is not JSON", async (_, line) => {
    server.send(line);
    // The next message out answers the next request: nothing was written for the line.
    server.send({ jsonrpc: "2.0", id: "after-garbage", method: "ping" });
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: "after-garbage", result: {} });
  });

  test.each([
    ["JSON that is not JSON-RPC", '{"hello":"world"}'],
    ["a JSON-RPC array batch of junk", "[1,2,3]"],
    ["a bare number", "42"],
  ])("%s gets -32600 with id null", async (_, line) => {
    server.send(line);
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: the message is not JSON-RPC 2.0" },
    });
  });

  test("a request with params null is -32600 with its own id", async () => {
    server.send('{"jsonrpc":"2.0","id":"null-params","method":"tools/call","params":null}');
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: "null-params",
      error: { code: -32600, message: "Invalid Request: the message is not JSON-RPC 2.0" },
    });
  });

  test("a line over the 10 MB limit is answered -32600 with its id and logged, and the process keeps serving", async () => {
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id: "too-big",
      method: "tools/call",
      params: { name: "text_length", arguments: { text: "x".repeat(10.5 * 1024 * 1024) } },
    });
    server.send(line);
    const bytes = Buffer.byteLength(line);
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: "too-big",
      error: {
        code: -32600,
        message: `Invalid Request: the message is ${bytes} bytes, over the limit of 10485760 bytes on stdio`,
      },
    });
    expect(server.stderr()).toContain(
      `typemcp: a message of ${bytes} bytes on stdin was refused: the limit is 10485760 bytes (answered with id "too-big")\n`,
    );
    // A line of just under the limit is still read and served.
    const padding = 10 * 1024 * 1024 - 200;
    expect(await call("text_length", { text: "y".repeat(padding) })).toMatchObject({
      result: { structuredContent: { result: padding } },
    });
  });

  test("a tool's background work rejecting with no handler is logged with its stack (which names the tool's function), and the process keeps serving", async () => {
    expect(await call("start_background", {})).toMatchObject({ result: { structuredContent: { result: "started" } } });
    // Node reports the rejection after the call's turn: wait until it is on stderr (a hang, not a time, fails this).
    while (!server.stderr().includes("the background work failed")) await new Promise((r) => setTimeout(r, 10));
    expect(server.stderr()).toMatch(
      /typemcp: a promise was rejected with no handler \(the process keeps serving\): Error: the background work failed\n {4}at start_background /,
    );
  });

  test("an unknown method is -32601", async () => {
    expect(await server.request("tools/frobnicate", {})).toMatchObject({
      error: { code: -32601, message: "Method not found" },
    });
  });

  test("an unknown tool is -32602", async () => {
    expect(await call("nope", {})).toMatchObject({ error: { code: -32602, message: "Unknown tool: nope" } });
  });

  test.each([
    ["an array", [1, 2]],
    ["a string", "city=London"],
    ["a number", 7],
  ])("arguments that are %s are -32602", async (_, args) => {
    expect(await call("text_length", args)).toMatchObject({ error: { code: -32602 } });
  });
});

describe("arguments", () => {
  test("missing and wrong-typed arguments are named", async () => {
    expect(errorText(await call("text_length", {}))).toBe(
      "Error executing tool text_length: 1 validation error for text_lengthArguments\ntext\n  Field required",
    );
    expect(errorText(await call("text_length", { text: 5 }))).toBe(
      "Error executing tool text_length: 1 validation error for text_lengthArguments\ntext\n  Input should be a valid string [input_value=5]",
    );
  });

  test("extra arguments are rejected, by name", async () => {
    expect(errorText(await call("ping", { verbose: true }))).toBe(
      "Error executing tool ping: 1 validation error for pingArguments\nverbose\n  Extra inputs are not permitted",
    );
  });

  test("a 5 MB string is served", async () => {
    expect(await call("text_length", { text: "x".repeat(5_000_000) })).toMatchObject({
      result: { structuredContent: { result: 5_000_000 } },
    });
  });

  test("a 5 MB wrong value is refused with the value cut short in the message", async () => {
    const text = errorText(await call("text_length", { text: ["y".repeat(5_000_000)] }));
    expect(text.length).toBeLessThan(400);
    expect(text).toContain('[input_value=["yyyyyyyy');
    expect(text).toContain("… (5000004 characters)]");
  });

  test("arguments nested 20,000 deep: a clean error, not a stack overflow", async () => {
    // Written as text: JSON.stringify itself cannot go that deep.
    const tree = '{"children":['.repeat(20_000) + '{"children":[]}' + "]}".repeat(20_000);
    server.send(
      `{"jsonrpc":"2.0","id":"deep1","method":"tools/call","params":{"name":"depth","arguments":{"tree":${tree}}}}`,
    );
    expect(errorText(await server.next())).toBe("Error executing tool depth: the arguments are nested too deeply");
    const list = "[".repeat(20_000) + "1" + "]".repeat(20_000);
    server.send(
      `{"jsonrpc":"2.0","id":"deep2","method":"tools/call","params":{"name":"echo","arguments":{"value":${list}}}}`,
    );
    expect(errorText(await server.next())).toBe(
      "Error executing tool echo: the result is nested too deeply to be sent",
    );
  });

  test("__proto__, constructor and prototype keys pollute nothing", async () => {
    const line =
      '{"jsonrpc":"2.0","id":"proto","method":"tools/call","params":{"name":"inspect","arguments":{"data":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":1}}}}';
    server.send(line);
    expect(await server.next()).toMatchObject({
      id: "proto",
      result: {
        structuredContent: {
          keys: ["__proto__", "constructor", "prototype"],
          prototypeIntact: true,
          globalPolluted: false,
        },
      },
    });
    server.send(
      '{"jsonrpc":"2.0","id":"proto2","method":"tools/call","params":{"name":"ping","arguments":{"__proto__":{"polluted":true}}}}',
    );
    expect(errorText(await server.next())).toBe(
      "Error executing tool ping: 1 validation error for pingArguments\n__proto__\n  Extra inputs are not permitted",
    );
  });
});

describe("faulty results", () => {
  test.each([
    [
      "NaN where a number is promised",
      "not_a_number",
      {},
      "Error executing tool not_a_number: the result cannot be sent as JSON: result: NaN is not a JSON number",
    ],
    [
      "Infinity where a number is promised",
      "infinite",
      {},
      "Error executing tool infinite: the result cannot be sent as JSON: result: Infinity is not a JSON number",
    ],
    [
      "a bigint inside an any",
      "unserializable",
      { kind: "bigint" },
      "Error executing tool unserializable: the result cannot be sent as JSON: result.id: a bigint, which JSON cannot represent",
    ],
    [
      "a cycle inside an any",
      "unserializable",
      { kind: "cycle" },
      "Error executing tool unserializable: the result cannot be sent as JSON: result.self: a cycle: the value contains itself",
    ],
    [
      "a function inside an any",
      "unserializable",
      { kind: "function" },
      "Error executing tool unserializable: the result cannot be sent as JSON: result.run: a function, which JSON cannot carry",
    ],
    [
      "a symbol inside an any",
      "unserializable",
      { kind: "symbol" },
      "Error executing tool unserializable: the result cannot be sent as JSON: result.tag: a symbol, which JSON cannot carry",
    ],
  ])("%s is an isError result", async (_, tool, args, message) => {
    expect(errorText(await call(tool, args))).toBe(message);
  });

  test("private, #private and undeclared properties reach neither channel", async () => {
    const answer = await call("account", { owner: "Ada" });
    expect(answer).toMatchObject({
      result: { content: [{ type: "text", text: '{\n  "owner": "Ada"\n}' }], structuredContent: { owner: "Ada" } },
    });
    const wire = JSON.stringify(answer);
    for (const secret of ["secret-token", "1234", "sk-live-123", "apiKey", "token"]) expect(wire).not.toContain(secret);
  });
});

describe("load", () => {
  test("1,000 concurrent calls over one connection are all answered right", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `load-${i}`);
    for (const [i, id] of ids.entries()) {
      server.send({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "text_length", arguments: { text: "x".repeat(i) } },
      });
    }
    const answers = new Map<unknown, Record<string, unknown>>();
    while (answers.size < ids.length) {
      const message = await server.next();
      answers.set(message.id, message);
    }
    for (const [i, id] of ids.entries()) {
      expect(answers.get(id)).toEqual({
        jsonrpc: "2.0",
        id,
        result: { content: [{ type: "text", text: String(i) }], structuredContent: { result: i } },
      });
    }
  });
});

describe("what a tool throws", () => {
  test.each([
    ["an Error whose message is a Symbol", "symbol_message", "Symbol(boom)"],
    ["a revoked Proxy", "revoked_proxy", "the tool threw an exception that cannot be read"],
    ["an Error whose message getter throws", "throwing_getter", "Error (its message cannot be read)"],
    ["an Error whose message is a null-prototype object", "null_prototype_message", "{}"],
  ])("an async tool rejecting with %s: isError, and the process keeps serving", async (_, kind, message) => {
    expect(errorText(await call("reject_strangely", { kind }))).toBe(
      `Error executing tool reject_strangely: ${message}`,
    );
  });
});

describe("input built to make validation slow", () => {
  test("sum(values: number[]) with 1,000,000 wrong items (4 MB): the first errors, all counted", async () => {
    server.send(
      `{"jsonrpc":"2.0","id":"million","method":"tools/call","params":{"name":"sum","arguments":{"values":[${'"x",'.repeat(999_999)}"x"]}}}`,
    );
    const text = errorText(await server.next());
    const lines = Array.from(
      { length: 50 },
      (_, i) => `values.${i}\n  Input should be a valid number [input_value="x"]`,
    );
    expect(text).toBe(
      `Error executing tool sum: 1000000 validation errors for sumArguments (the first 50 listed)\n${lines.join("\n")}`,
    );
  });

  test("a `v${number}` argument of v, 30,000 digits and x: refused by its pattern", async () => {
    const text = errorText(await call("version", { v: `v${"1".repeat(30_000)}x` }));
    expect(
      text.startsWith(
        "Error executing tool version: 1 validation error for versionArguments\nv\n  String should match pattern ",
      ),
    ).toBe(true);
    expect(text).toContain(`[input_value="v${"1".repeat(100)}`);
  });

  test('an author\'s Pattern<"^(a+)+$"> on 25 a and a !: refused by its pattern', async () => {
    expect(errorText(await call("repeated", { text: `${"a".repeat(25)}!` }))).toBe(
      `Error executing tool repeated: 1 validation error for repeatedArguments\ntext\n  String should match pattern "^(a+)+$" [input_value="${"a".repeat(25)}!"]`,
    );
  });

  test("countdown(n: Integer & Minimum<0>) given 1e400: refused by name, the loop never runs", async () => {
    server.send(
      '{"jsonrpc":"2.0","id":"infinite","method":"tools/call","params":{"name":"countdown","arguments":{"n":1e400}}}',
    );
    expect(errorText(await server.next())).toBe(
      "Error executing tool countdown: 1 validation error for countdownArguments\nn\n  Input should be a finite number [input_value=Infinity]",
    );
    server.send(
      '{"jsonrpc":"2.0","id":"unsafe","method":"tools/call","params":{"name":"countdown","arguments":{"n":9007199254740993}}}',
    );
    expect(errorText(await server.next())).toBe(
      "Error executing tool countdown: 1 validation error for countdownArguments\nn\n  Input should be a safe integer, from -9007199254740991 to 9007199254740991 [input_value=9007199254740992]",
    );
  });

  test("sum(values: number[]) with an array nested 20,000 deep: isError, nested too deeply", async () => {
    server.send(
      `{"jsonrpc":"2.0","id":"deep-sum","method":"tools/call","params":{"name":"sum","arguments":{"values":${"[".repeat(20_000)}1${"]".repeat(20_000)}}}}`,
    );
    expect(errorText(await server.next())).toBe(
      "Error executing tool sum: 1 validation error for sumArguments\nvalues.0\n  Input should be a valid number [input_value=(a value nested too deeply to show)]",
    );
  });
});

describe("errors in the server's own code reach its developer, on stderr", () => {
  test("a tool's exception, with the tool's name and the stack, once however often; a result that breaks its type, with where it was registered", async () => {
    const before = server.stderr().length;
    for (const city of ["Paris", "Oslo"])
      expect(errorText(await call("buggy", { city }))).toBe(`Error executing tool buggy: no station near ${city}`);
    expect(errorText(await call("broken", {}))).toBe(
      'Error executing tool broken: 1 validation error for brokenOutput\nhumidity\n  Input should be a valid number [input_value="high"]',
    );
    await call("broken", {});
    const logged = server.stderr().slice(before);
    const entries = logged.split(/^(?=typemcp: )/m);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatch(
      /^typemcp: tool "buggy" threw \(the client was answered with isError\): TypeError: no station near Paris\n {4}at \S*buggy\b.* \(.*fixtures[\\/]hostile[\\/]tool\.js:\d+:\d+\)\n/,
    );
    expect(entries[1]).toMatch(
      /^typemcp: tool "broken" returned a value its declared type does not allow \(the client was answered with isError\): 1 validation error for brokenOutput\nhumidity\n {2}Input should be a valid number \[input_value="high"\]\n {4}registered at .*fixtures[\\/]hostile[\\/]tool\.js:\d+:\d+\n$/,
    );
  });
});
