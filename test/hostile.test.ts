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
});

afterEach(async () => {
  // Whatever the case did, the server still answers.
  expect(await server.request("tools/call", { name: "ping", arguments: {} })).toMatchObject({ result: { structuredContent: { result: "pong" } } });
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
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: the message is not JSON-RPC 2.0" } });
  });

  test("an unknown method is -32601", async () => {
    expect(await server.request("tools/frobnicate", {})).toMatchObject({ error: { code: -32601, message: "Method not found" } });
  });

  test("an unknown tool is -32602", async () => {
    expect(await call("nope", {})).toMatchObject({ error: { code: -32602, message: "Unknown tool: nope" } });
  });

  test.each([["an array", [1, 2]], ["a string", "city=London"], ["a number", 7]])("arguments that are %s are -32602", async (_, args) => {
    expect(await call("text_length", args)).toMatchObject({ error: { code: -32602 } });
  });
});

describe("arguments", () => {
  test("missing and wrong-typed arguments are named", async () => {
    expect(errorText(await call("text_length", {}))).toBe("Error executing tool text_length: 1 validation error for text_lengthArguments\ntext\n  Field required");
    expect(errorText(await call("text_length", { text: 5 }))).toBe(
      "Error executing tool text_length: 1 validation error for text_lengthArguments\ntext\n  Input should be a valid string [input_value=5]",
    );
  });

  test("extra arguments are rejected, by name", async () => {
    expect(errorText(await call("ping", { verbose: true }))).toBe("Error executing tool ping: 1 validation error for pingArguments\nverbose\n  Extra inputs are not permitted");
  });

  test("a 5 MB string is served", async () => {
    expect(await call("text_length", { text: "x".repeat(5_000_000) })).toMatchObject({ result: { structuredContent: { result: 5_000_000 } } });
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
    server.send(`{"jsonrpc":"2.0","id":"deep1","method":"tools/call","params":{"name":"depth","arguments":{"tree":${tree}}}}`);
    expect(errorText(await server.next())).toBe("Error executing tool depth: the arguments are nested too deeply");
    const list = "[".repeat(20_000) + "1" + "]".repeat(20_000);
    server.send(`{"jsonrpc":"2.0","id":"deep2","method":"tools/call","params":{"name":"echo","arguments":{"value":${list}}}}`);
    expect(errorText(await server.next())).toBe("Error executing tool echo: the result is nested too deeply to be sent");
  });

  test("__proto__, constructor and prototype keys pollute nothing", async () => {
    const line = '{"jsonrpc":"2.0","id":"proto","method":"tools/call","params":{"name":"inspect","arguments":{"data":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":1}}}}';
    server.send(line);
    expect(await server.next()).toMatchObject({
      id: "proto",
      result: { structuredContent: { keys: ["__proto__", "constructor", "prototype"], prototypeIntact: true, globalPolluted: false } },
    });
    server.send('{"jsonrpc":"2.0","id":"proto2","method":"tools/call","params":{"name":"ping","arguments":{"__proto__":{"polluted":true}}}}');
    expect(errorText(await server.next())).toBe("Error executing tool ping: 1 validation error for pingArguments\n__proto__\n  Extra inputs are not permitted");
  });
});

describe("faulty results", () => {
  test.each([
    ["NaN where a number is promised", "not_a_number", {}, "Error executing tool not_a_number: the result cannot be sent as JSON: result: NaN is not a JSON number"],
    ["Infinity where a number is promised", "infinite", {}, "Error executing tool infinite: the result cannot be sent as JSON: result: Infinity is not a JSON number"],
    ["a bigint inside an any", "unserializable", { kind: "bigint" }, "Error executing tool unserializable: the result cannot be sent as JSON: result.id: a bigint, which JSON cannot represent"],
    ["a cycle inside an any", "unserializable", { kind: "cycle" }, "Error executing tool unserializable: the result cannot be sent as JSON: result.self: a cycle: the value contains itself"],
    ["a function inside an any", "unserializable", { kind: "function" }, "Error executing tool unserializable: the result cannot be sent as JSON: result.run: a function, which JSON cannot carry"],
    ["a symbol inside an any", "unserializable", { kind: "symbol" }, "Error executing tool unserializable: the result cannot be sent as JSON: result.tag: a symbol, which JSON cannot carry"],
  ])("%s is an isError result", async (_, tool, args, message) => {
    expect(errorText(await call(tool, args))).toBe(message);
  });

  test("private, #private and undeclared properties reach neither channel", async () => {
    const answer = await call("account", { owner: "Ada" });
    expect(answer).toMatchObject({ result: { content: [{ type: "text", text: '{\n  "owner": "Ada"\n}' }], structuredContent: { owner: "Ada" } } });
    const wire = JSON.stringify(answer);
    for (const secret of ["secret-token", "1234", "sk-live-123", "apiKey", "token"]) expect(wire).not.toContain(secret);
  });
});

describe("load", () => {
  test("1,000 concurrent calls over one connection are all answered right", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `load-${i}`);
    for (const [i, id] of ids.entries()) {
      server.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "text_length", arguments: { text: "x".repeat(i) } } });
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
