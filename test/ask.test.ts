/**
 * Asking the client from inside a call (`ctx.elicit`, `ctx.elicitUrl`, `ctx.sample`,
 * `ctx.roots`, `ctx.can`), in the runtime, fed hand-written contracts and forms (the documented
 * contract, contract/contract.ts: the transformer writes the form as the elicit call's third
 * argument), through the official v2 client answering on both protocol revisions.
 */
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { digest } from "../runtime/ask/state";
import { withoutServerInfo } from "./support/observe";
import { answerOf, modernPost } from "./support/raw-http";
import { CONTRACT_VERSION, MCPServer, type FormContract, type ToolContext, type ToolContract } from "typemcp";

const REVISIONS = ["2026-07-28", "2025-11-25"] as const;
type Revision = (typeof REVISIONS)[number];

const NAME_FORM: FormContract = {
  v: CONTRACT_VERSION,
  name: "Name",
  requestedSchema: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] },
};

function tool(name: string, extra: Partial<ToolContract> = {}): ToolContract {
  return {
    v: CONTRACT_VERSION,
    name,
    params: ["ctx"],
    context: 0,
    inputSchema: { type: "object", title: `${name}Arguments`, properties: {}, additionalProperties: false },
    ...extra,
  };
}

/** The form the transformer writes, passed as it passes it. */
function elicit<T extends object>(ctx: ToolContext, message: string, form: FormContract, key?: string) {
  return (ctx.elicit as (m: string, o: unknown, f: FormContract) => ReturnType<ToolContext["elicit"]>)(
    message,
    key === undefined ? undefined : { key },
    form,
  ) as Promise<import("typemcp").Elicitation<T>>;
}

/** A request's params without the `_meta` the SDK adds on 2025-11-25 (a progress token). */
function withoutMeta(params: unknown): unknown {
  if (params === undefined) return undefined;
  const { _meta, ...rest } = params as Record<string, unknown>;
  void _meta;
  return rest;
}

interface Answers {
  elicit?: (params: Record<string, unknown>) => Record<string, unknown>;
  sample?: (params: Record<string, unknown>) => Record<string, unknown>;
  roots?: () => Record<string, unknown>;
}

async function connect(mcp: MCPServer, revision: Revision, answers: Answers) {
  const capabilities: Record<string, object> = {};
  if (answers.elicit) capabilities.elicitation = { form: {}, url: {} };
  if (answers.sample) capabilities.sampling = {};
  if (answers.roots) capabilities.roots = {};
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverTransport);
  const client = new Client(
    { name: "test", version: "1.0.0" },
    { capabilities, ...(revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}) },
  );
  const asked: { method: string; params: unknown }[] = [];
  if (answers.elicit)
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push({ method: request.method, params: withoutMeta(request.params) });
      return answers.elicit!(request.params as Record<string, unknown>) as never;
    });
  if (answers.sample)
    client.setRequestHandler("sampling/createMessage", (request) => {
      asked.push({ method: request.method, params: withoutMeta(request.params) });
      return answers.sample!(request.params as Record<string, unknown>) as never;
    });
  if (answers.roots)
    client.setRequestHandler("roots/list", (request) => {
      asked.push({ method: request.method, params: withoutMeta(request.params) });
      return answers.roots!() as never;
    });
  await client.connect(clientTransport);
  if (revision === "2026-07-28") {
    // Results compare to the same expectations on both revisions.
    const callTool = client.callTool.bind(client);
    client.callTool = async (...args: Parameters<Client["callTool"]>) =>
      withoutServerInfo(await callTool(...args), client.getServerVersion());
  }
  return { client, asked };
}

const SAMPLED = { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" };
const ROOTS = { roots: [{ uri: "file:///work", name: "work" }] };

/** Builds a server with one tool taking only a context, and counts its runs. */
function serverWith(fn: (ctx: ToolContext) => unknown, options: { timeout?: number } = {}) {
  const mcp = new MCPServer("ask", { logErrors: false });
  const counter = { runs: 0 };
  mcp.tool(
    (ctx: ToolContext) => {
      counter.runs++;
      return fn(ctx);
    },
    options,
    tool("t"),
  );
  return { mcp, counter };
}

describe.each(REVISIONS)("asking the client on %s", (revision) => {
  test("an elicitation: the form sent as written, the answer checked and returned typed; the call runs again from the start", async () => {
    const { mcp, counter } = serverWith(async (ctx) => {
      const answer = await elicit<{ name: string }>(ctx, "What is your name?", NAME_FORM);
      return answer.action === "accept" ? `Hello, ${answer.content.name}!` : `no name (${answer.action})`;
    });
    const { client, asked } = await connect(mcp, revision, {
      elicit: () => ({ action: "accept", content: { name: "Ada" } }),
    });
    const result = await client.callTool({ name: "t", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada!" }]);
    expect(result.isError).toBeUndefined();
    expect(asked).toEqual([
      {
        method: "elicitation/create",
        params: { mode: "form", message: "What is your name?", requestedSchema: NAME_FORM.requestedSchema },
      },
    ]);
    expect(counter.runs).toBe(2);
    await mcp.close();
  });

  test.each(["decline", "cancel"] as const)("an elicitation answered %s: the action, no content", async (action) => {
    const { mcp } = serverWith(async (ctx) => JSON.stringify(await elicit(ctx, "Name?", NAME_FORM)));
    const { client } = await connect(mcp, revision, { elicit: () => ({ action }) });
    const result = await client.callTool({ name: "t", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify({ action }) }]);
    await mcp.close();
  });

  test("an answer its form does not allow ends the request with -32602, and the function never sees it", async () => {
    const seen: unknown[] = [];
    const { mcp } = serverWith(async (ctx) => {
      seen.push(await elicit(ctx, "Name?", NAME_FORM));
      return "went on";
    });
    // The client's own check of the answer is switched off: this is a client that sends what it likes.
    const { client } = await connect(mcp, revision, { elicit: () => ({ action: "accept", content: { name: 7 } }) });
    const failure = client.callTool({ name: "t", arguments: {} }).then(
      (result) => ({ result }),
      (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
    );
    const outcome = await failure;
    expect(seen).toEqual([]);
    expect(outcome).toEqual(
      expect.objectContaining({ code: -32602, message: expect.stringContaining('Invalid input response "elicit-1"') }),
    );
    await mcp.close();
  });

  test("sampling, from a prompt and options or from a whole request, and the client's roots", async () => {
    const { mcp, counter } = serverWith(async (ctx) => {
      const short = await ctx.sample("Capital of France?", { maxTokens: 50, systemPrompt: "Be brief." });
      const whole = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "And of Italy?" } }],
        maxTokens: 20,
      });
      const roots = await ctx.roots();
      return { short, whole, roots };
    });
    const { client, asked } = await connect(mcp, revision, { sample: () => SAMPLED, roots: () => ROOTS });
    const result = await client.callTool({ name: "t", arguments: {} });
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({
      short: SAMPLED,
      whole: SAMPLED,
      roots: ROOTS.roots,
    });
    expect(asked).toEqual([
      {
        method: "sampling/createMessage",
        params: {
          messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }],
          maxTokens: 50,
          systemPrompt: "Be brief.",
        },
      },
      {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "And of Italy?" } }], maxTokens: 20 },
      },
      { method: "roots/list", params: revision === "2026-07-28" ? undefined : {} },
    ]);
    // One round per question asked after the answer before it: 3 rounds, then the answer.
    expect(counter.runs).toBe(4);
    await mcp.close();
  });

  test("questions asked together go in one round", async () => {
    const { mcp, counter } = serverWith(async (ctx) => {
      const [name, sampled, roots] = await Promise.all([
        elicit<{ name: string }>(ctx, "Name?", NAME_FORM),
        ctx.sample("Greeting?", { maxTokens: 10 }),
        ctx.roots(),
      ]);
      return `${name.action}/${(sampled.content as { text: string }).text}/${roots.length}`;
    });
    const { client, asked } = await connect(mcp, revision, {
      elicit: () => ({ action: "accept", content: { name: "Ada" } }),
      sample: () => SAMPLED,
      roots: () => ROOTS,
    });
    const result = await client.callTool({ name: "t", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "accept/Paris/1" }]);
    expect(asked.map((a) => a.method).sort()).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    expect(counter.runs).toBe(2);
    await mcp.close();
  });

  test("questions asked after promise jobs of their own (async helpers) still go in one round", async () => {
    const { mcp, counter } = serverWith(async (ctx) => {
      const askName = async () => {
        await Promise.resolve();
        await Promise.resolve();
        return elicit<{ name: string }>(ctx, "Name?", NAME_FORM);
      };
      const askRoots = async () => {
        await null;
        return ctx.roots();
      };
      const [name, roots] = await Promise.all([askName(), askRoots()]);
      return `${name.action}/${roots.length}`;
    });
    const { client } = await connect(mcp, revision, {
      elicit: () => ({ action: "accept", content: { name: "Ada" } }),
      roots: () => ROOTS,
    });
    expect((await client.callTool({ name: "t", arguments: {} })).content).toEqual([{ type: "text", text: "accept/1" }]);
    expect(counter.runs).toBe(2);
    await mcp.close();
  });

  test("ctx.can says what the client declared; a question it cannot answer is the spec's error, never a hang", async () => {
    const { mcp } = serverWith(async (ctx) => {
      const can = {
        elicit: ctx.can("elicit"),
        elicitUrl: ctx.can("elicitUrl"),
        sample: ctx.can("sample"),
        roots: ctx.can("roots"),
      };
      if (!ctx.can("elicit")) return JSON.stringify(can);
      return "unreachable";
    });
    const { client } = await connect(mcp, revision, { sample: () => SAMPLED });
    const result = await client.callTool({ name: "t", arguments: {} });
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual({
      elicit: false,
      elicitUrl: false,
      sample: true,
      roots: false,
    });

    const asking = new MCPServer("ask");
    asking.tool(async (ctx: ToolContext) => (await ctx.roots()).length, {}, tool("t"));
    const { client: other } = await connect(asking, revision, { sample: () => SAMPLED });
    const outcome = await other.callTool({ name: "t", arguments: {} }).then(
      (r) => ({ result: r }),
      (error: { code?: number; message?: string; data?: unknown }) => ({ code: error.code, data: error.data }),
    );
    if (revision === "2026-07-28")
      // MissingRequiredClientCapability, naming what is missing.
      expect(outcome).toEqual({ code: -32021, data: { requiredCapabilities: { roots: {} } } });
    else
      expect(outcome).toEqual({
        result: {
          content: [
            {
              type: "text",
              text: "Cannot request input 'roots-1' (roots/list): the client on this 2025-era connection did not declare the required capability",
            },
          ],
          isError: true,
        },
      });
    await mcp.close();
    await asking.close();
  });

  test("a key given by the function names its question; two questions with one key fail the call", async () => {
    const { mcp } = serverWith(async (ctx) => {
      const answer = await elicit<{ name: string }>(ctx, "Name?", NAME_FORM, "user_name");
      return answer.action;
    });
    const { client } = await connect(mcp, revision, { elicit: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect((await client.callTool({ name: "t", arguments: {} })).content).toEqual([{ type: "text", text: "accept" }]);

    const twice = new MCPServer("ask", { logErrors: false });
    twice.tool(
      async (ctx: ToolContext) => {
        await Promise.all([ctx.roots({ key: "k" }), ctx.sample("x", { maxTokens: 1, key: "k" })]);
      },
      {},
      tool("t"),
    );
    const { client: other } = await connect(twice, revision, { sample: () => SAMPLED, roots: () => ROOTS });
    const result = await other.callTool({ name: "t", arguments: {} });
    expect(result).toEqual({
      content: [
        { type: "text", text: 'Error executing tool t: typemcp: two questions of one request have the key "k"' },
      ],
      isError: true,
    });
    await mcp.close();
    await twice.close();
  });

  test("an elicit call the build did not give a form to is refused with how to build it", async () => {
    const { mcp } = serverWith(async (ctx) => (await ctx.elicit<{ name: string }>("Name?")).action);
    const { client } = await connect(mcp, revision, { elicit: () => ({ action: "cancel" }) });
    const result = await client.callTool({ name: "t", arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toBe(
      "Error executing tool t: typemcp: ctx.elicit() was not built by typemcp: its form is written at build time from its type argument (`ctx.elicit<Booking>(message)`). Build with tspc and the typemcp plugin (TypeScript 5/6) or `npx typemcp build` (TypeScript 7)",
    );
    await mcp.close();
  });

  test("a prompt asks as a tool does", async () => {
    const mcp = new MCPServer("ask");
    mcp.prompt(
      async (ctx: ToolContext) => {
        const answer = await elicit<{ name: string }>(ctx, "Whose prompt?", NAME_FORM);
        return answer.action === "accept" ? `Write to ${answer.content.name}.` : "Write to nobody.";
      },
      {},
      {
        v: CONTRACT_VERSION,
        kind: "prompt",
        name: "letter",
        params: ["ctx"],
        context: 0,
        arguments: [],
        argumentsSchema: { type: "object", title: "letterArguments", properties: {}, additionalProperties: false },
      },
    );
    const { client } = await connect(mcp, revision, { elicit: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect(await client.getPrompt({ name: "letter" })).toEqual(
      expect.objectContaining({ messages: [{ role: "user", content: { type: "text", text: "Write to Ada." } }] }),
    );
    await mcp.close();
  });

  test("a tool with a timeout asks, and its clock covers one round", async () => {
    const { mcp } = serverWith(
      async (ctx) => {
        const answer = await elicit<{ name: string }>(ctx, "Name?", NAME_FORM);
        return answer.action;
      },
      { timeout: 5_000 },
    );
    const { client } = await connect(mcp, revision, { elicit: () => ({ action: "accept", content: { name: "Ada" } }) });
    expect((await client.callTool({ name: "t", arguments: {} })).content).toEqual([{ type: "text", text: "accept" }]);
    await mcp.close();
  });
});

describe("requestState on the wire (2026-07-28, Streamable HTTP)", () => {
  const ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
  };
  const KEY = "k".repeat(32);

  /** A server whose tool `greet(greeting)` asks a name, then a confirmation; `options` are the MCPServer's. */
  function greeter(options: ConstructorParameters<typeof MCPServer>[1] = {}) {
    const mcp = new MCPServer("ask", { logErrors: false, ...options });
    const CONFIRM: FormContract = {
      v: CONTRACT_VERSION,
      name: "Confirm",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    };
    mcp.tool(
      async (greeting: string, ctx: ToolContext) => {
        const name = await elicit<{ name: string }>(ctx, "Name?", NAME_FORM, "user_name");
        if (name.action !== "accept") return "no name";
        const ok = await elicit<{ ok: boolean }>(ctx, `Say "${greeting}" to ${name.content.name}?`, CONFIRM, "confirm");
        return ok.action === "accept" && ok.content.ok ? `${greeting}, ${name.content.name}!` : "not said";
      },
      {},
      tool("greet", {
        params: ["greeting", "ctx"],
        context: 1,
        inputSchema: {
          type: "object",
          title: "greetArguments",
          properties: { greeting: { type: "string" } },
          required: ["greeting"],
          additionalProperties: false,
        },
      }),
    );
    return mcp.handler();
  }

  const call = async (handler: ReturnType<MCPServer["handler"]>, params: Record<string, unknown>) =>
    answerOf(await modernPost(handler, "tools/call", { name: "greet", ...params }, ENVELOPE));

  const accept = (content: object) => ({ action: "accept", content });

  test("each round asks what is missing; earlier answers travel signed in requestState; a retry may land on another process sharing the key", async () => {
    const one = greeter({ requestStateKey: KEY });
    const other = greeter({ requestStateKey: KEY });
    const first = await call(one, { name: "greet", arguments: { greeting: "Hi" } });
    expect(first.result).toEqual({
      resultType: "input_required",
      inputRequests: {
        user_name: {
          method: "elicitation/create",
          params: { mode: "form", message: "Name?", requestedSchema: NAME_FORM.requestedSchema },
        },
      },
      requestState: expect.stringMatching(/^v1\./),
      _meta: expect.anything(),
    });
    const second = await call(other, {
      name: "greet",
      arguments: { greeting: "Hi" },
      inputResponses: { user_name: accept({ name: "Ada" }) },
      requestState: first.result!.requestState,
    });
    expect(second.result!.inputRequests).toEqual({
      confirm: {
        method: "elicitation/create",
        params: { mode: "form", message: 'Say "Hi" to Ada?', requestedSchema: expect.anything() },
      },
    });
    // The third round carries only this round's answer: the name comes from the state.
    const third = await call(one, {
      name: "greet",
      arguments: { greeting: "Hi" },
      inputResponses: { confirm: accept({ ok: true }), stray: accept({}) },
      requestState: second.result!.requestState,
    });
    expect(third.result!.content).toEqual([{ type: "text", text: "Hi, Ada!" }]);
    await one.close();
    await other.close();
  });

  test("answers without a state are this round's alone (extra keys ignored)", async () => {
    const handler = greeter();
    const answered = await call(handler, {
      name: "greet",
      arguments: { greeting: "Hi" },
      inputResponses: {
        user_name: accept({ name: "Ada" }),
        confirm: accept({ ok: true }),
        unknown: { action: "accept" },
      },
    });
    expect(answered.result!.content).toEqual([{ type: "text", text: "Hi, Ada!" }]);
    await handler.close();
  });

  test("a tampered, foreign, expired or misapplied state is refused with -32602 and the reason", async () => {
    const handler = greeter({ requestStateKey: KEY });
    const first = await call(handler, { name: "greet", arguments: { greeting: "Hi" } });
    const state = first.result!.requestState as string;
    const retry = (requestState: string, greeting = "Hi") =>
      call(handler, {
        name: "greet",
        arguments: { greeting },
        inputResponses: { user_name: accept({ name: "Ada" }) },
        requestState,
      });
    const refused = (why: string) => ({
      code: -32602,
      message: `Invalid or expired requestState: ${why}`,
      data: { reason: "invalid_request_state" },
    });
    expect((await retry(`${state}-TAMPERED`)).error).toEqual(
      refused("its signature does not match (altered, or signed with another key)"),
    );
    expect((await retry("not a state")).error).toEqual(refused("it is not a state this server wrote"));
    const [prefix, body, mac] = state.split(".");
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), exp: 1e10 }),
    );
    expect((await retry([prefix, altered.toString("base64url"), mac].join("."))).error).toEqual(
      refused("its signature does not match (altered, or signed with another key)"),
    );
    expect((await retry(state, "Hello")).error).toEqual(refused("it was given for other arguments"));

    // Signed by a process with its own key: the message says what several processes need.
    const unshared = greeter();
    expect(
      (
        await call(unshared, {
          name: "greet",
          arguments: { greeting: "Hi" },
          inputResponses: { user_name: accept({ name: "Ada" }) },
          requestState: state,
        })
      ).error,
    ).toEqual(
      refused(
        "it was not signed by this process: when several processes serve one endpoint, give them one key (the requestStateKey option, or TYPEMCP_REQUEST_STATE_KEY)",
      ),
    );

    const brief = greeter({ requestStateKey: KEY, requestStateTtl: -1 });
    const expiring = await call(brief, { name: "greet", arguments: { greeting: "Hi" } });
    expect(
      (
        await call(brief, {
          name: "greet",
          arguments: { greeting: "Hi" },
          inputResponses: { user_name: accept({ name: "Ada" }) },
          requestState: expiring.result!.requestState,
        })
      ).error,
    ).toEqual(refused("it expired (a state is valid for -1 s after the question)"));
    await Promise.all([handler.close(), unshared.close(), brief.close()]);
  });

  test("an answer that is not a response object is refused with -32602", async () => {
    const handler = greeter();
    const answered = await call(handler, {
      name: "greet",
      arguments: { greeting: "Hi" },
      inputResponses: { user_name: 12345 },
    });
    expect(answered.error).toEqual({
      code: -32602,
      message: 'Invalid input response "user_name": it is not a response object',
    });
    await handler.close();
  });

  test("a key shorter than 32 bytes is refused when the server is made", () => {
    expect(() => new MCPServer("ask", { requestStateKey: "short" })).toThrow(
      "typemcp: requestStateKey must be at least 32 bytes (got 5): for example `openssl rand -base64 32`",
    );
  });
});

describe.each(REVISIONS)("URL-mode elicitation on %s", (revision) => {
  test("the URL and message are sent, the action comes back", async () => {
    const { mcp } = serverWith(async (ctx) => {
      if (!ctx.can("elicitUrl")) return "cannot";
      const answer = await ctx.elicitUrl("Sign in to continue", "https://example.com/sign-in");
      return answer.action;
    });
    const { client, asked } = await connect(mcp, revision, { elicit: () => ({ action: "accept" }) });
    expect((await client.callTool({ name: "t", arguments: {} })).content).toEqual([{ type: "text", text: "accept" }]);
    expect(asked).toEqual([
      {
        method: "elicitation/create",
        params: {
          mode: "url",
          message: "Sign in to continue",
          url: "https://example.com/sign-in",
          // 2025-11-25 requires an id for a URL elicitation: the SDK makes one.
          ...(revision === "2025-11-25" ? { elicitationId: expect.any(String) } : {}),
        },
      },
    ]);
    await mcp.close();
  });
});

test("a form the build refused is refused when asked, with the build's message", async () => {
  const { mcp } = serverWith(
    async (ctx) =>
      (
        await (ctx.elicit as (m: string, o: unknown, f: FormContract) => Promise<{ action: string }>)(
          "Name?",
          undefined,
          {
            v: CONTRACT_VERSION,
            name: "Guest",
            requestedSchema: { type: "object", properties: {}, required: [] },
            error: "Guest.address: an object (Address) is not allowed",
          },
        )
      ).action,
  );
  const { client } = await connect(mcp, "2026-07-28", { elicit: () => ({ action: "cancel" }) });
  expect((await client.callTool({ name: "t", arguments: {} })).content).toEqual([
    {
      type: "text",
      text: "Error executing tool t: typemcp: ctx.elicit<Guest>() has no form: the build reported: Guest.address: an object (Address) is not allowed",
    },
  ]);
  await mcp.close();
});

test("the arguments' digest is the same with node:crypto and with WebCrypto (Workers), whatever the keys' order", async () => {
  const args = { b: [1, { y: "é", x: null }], a: "text" };
  const web = Buffer.from(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode('{"a":"text","b":[1,{"x":null,"y":"é"}]}')),
  ).toString("base64url");
  expect(await digest(args)).toBe(web);
  expect(await digest({ a: "text", b: [1, { x: null, y: "é" }] })).toBe(web);
});
