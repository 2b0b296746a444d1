/**
 * OpenTelemetry traces (runtime/trace.ts): with no tracer provider registered a server's
 * instances are the SDK's plain `Server`; with one, each request is a SERVER span named and
 * described as OpenTelemetry's MCP conventions say, parented on the client's `traceparent`
 * from `_meta`, with the function's own spans inside it, on both protocol revisions, in
 * memory and through `mcp.handler()`. Spans are read from the SDK's in-memory exporter.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Server } from "@modelcontextprotocol/server";
import { context, propagation, trace, SpanKind, SpanStatusCode, type Span } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import { CONTRACT_VERSION, MCPServer, type PromptContract, type ResourceContract, type ToolContract } from "typemcp";
import * as ts from "typescript";
import { documentedBlock } from "./support/documentation";
import { connectClient } from "./support/in-memory";
import { ENVELOPE, URL_, answerOf, modernPost } from "./support/raw-http";

const REVISIONS = ["2026-07-28", "2025-11-25"] as const;

/** The client's span: what a traced client puts in `_meta.traceparent`. */
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const CLIENT_SPAN = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

const ADD: ToolContract = {
  v: CONTRACT_VERSION,
  name: "add",
  params: ["a", "b"],
  inputSchema: {
    type: "object",
    title: "addArguments",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
};
const FAIL: ToolContract = {
  ...ADD,
  name: "fail",
  params: [],
  inputSchema: { ...ADD.inputSchema, properties: {}, required: undefined },
};
delete (FAIL.inputSchema as Record<string, unknown>).required;

const GREET: PromptContract = {
  v: CONTRACT_VERSION,
  kind: "prompt",
  name: "greet",
  params: ["who"],
  arguments: [{ name: "who", required: true }],
  argumentsSchema: {
    type: "object",
    title: "greetArguments",
    properties: { who: { type: "string" } },
    required: ["who"],
    additionalProperties: false,
  },
};
const CONFIG: ResourceContract = {
  v: CONTRACT_VERSION,
  kind: "resource",
  name: "config",
  uri: "config://app",
  params: [],
  arguments: [],
  argumentsSchema: { type: "object", title: "configArguments", properties: {}, additionalProperties: false },
  contents: "text",
};

function server(): MCPServer {
  const mcp = new MCPServer("traced", { logErrors: false });
  mcp.tool(
    (a: number, b: number) =>
      // The function's own span: a child of the request's.
      trace.getTracer("app").startActiveSpan("adding", (span: Span) => {
        span.end();
        return a + b;
      }),
    ADD,
  );
  mcp.tool(() => {
    throw new Error("out of paper");
  }, FAIL);
  mcp.prompt((who: string) => `Greet ${who}.`, GREET);
  mcp.resource("config://app", () => "debug=true", CONFIG);
  return mcp;
}

/** What a test compares of a span: everything that the conventions name, nothing timed. */
function seen(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    parent: span.parentSpanContext?.spanId,
    trace: span.spanContext().traceId,
    attributes: span.attributes,
    status: span.status,
    links: span.links.map((link) => link.context.spanId),
    events: span.events.map((event) => event.name),
  };
}

test("with no tracer provider registered, every instance is the SDK's own Server", async () => {
  const mcp = server();
  const client = await connectClient(mcp, "2025-11-25");
  expect(Object.getPrototypeOf(mcp.server)).toBe(Server.prototype);
  await client.close();
});

test("with none registered, typemcp does not load @opentelemetry/api; once one is, it traces", () => {
  jest.isolateModules(() => {
    let loaded = false;
    jest.doMock("@opentelemetry/api", () => {
      loaded = true;
      return jest.requireActual("@opentelemetry/api");
    });
    const { serverClass } = require("../runtime/trace") as typeof import("../runtime/trace");
    // This module registry's own copy of the SDK.
    const { Server: Isolated } =
      require("@modelcontextprotocol/server") as typeof import("@modelcontextprotocol/server");
    const registry = {} as Parameters<typeof serverClass>[0];
    expect(serverClass(registry)).toBe(Isolated);
    expect(loaded).toBe(false);
    trace.setGlobalTracerProvider(new BasicTracerProvider());
    try {
      const traced = serverClass(registry);
      expect(traced).not.toBe(Isolated);
      expect(traced.prototype).toBeInstanceOf(Isolated);
      expect(loaded).toBe(true);
    } finally {
      trace.disable();
    }
    expect(serverClass(registry)).toBe(Isolated);
  });
});

describe("with a tracer provider", () => {
  const exporter = new InMemorySpanExporter();
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  });
  afterAll(() => {
    trace.disable();
    propagation.disable();
    context.disable();
  });
  beforeEach(() => exporter.reset());

  /** The spans typemcp made (the function's own excepted), by name. */
  const served = () => exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === "typemcp");
  const named = (name: string) => served().filter((span) => span.name === name);

  describe.each(REVISIONS)("on %s", (revision) => {
    const modern = revision === "2026-07-28";
    const common = (id: string) => ({
      "jsonrpc.request.id": id,
      "mcp.protocol.version": revision,
    });

    test("a tool call: one SERVER span under the client's, the function's spans inside it", async () => {
      const mcp = server();
      const client = await connectClient(mcp, revision);
      expect(Object.getPrototypeOf(mcp.server)).not.toBe(Server.prototype);
      exporter.reset();
      const result = await client.callTool({
        name: "add",
        arguments: { a: 2, b: 3 },
        _meta: { traceparent: TRACEPARENT },
      });
      expect(result.content).toEqual([{ type: "text", text: "5" }]);
      const [span] = named("tools/call add");
      const { attributes, ...rest } = seen(span);
      expect(rest).toEqual({
        name: "tools/call add",
        kind: SpanKind.SERVER,
        parent: CLIENT_SPAN,
        trace: TRACE_ID,
        status: { code: SpanStatusCode.UNSET },
        links: [],
        events: [],
      });
      expect(attributes).toEqual({
        "mcp.method.name": "tools/call",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "add",
        ...common(String(attributes["jsonrpc.request.id"])),
      });
      expect(typeof attributes["jsonrpc.request.id"]).toBe("string");
      const [inner] = exporter.getFinishedSpans().filter((s) => s.name === "adding");
      expect(inner.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
      expect(inner.spanContext().traceId).toBe(TRACE_ID);
      await client.close();
    });

    test("a tool's error result is a tool_error; an unknown tool is its JSON-RPC code, not in the span's name", async () => {
      const mcp = server();
      const client = await connectClient(mcp, revision);
      exporter.reset();
      const result = await client.callTool({ name: "fail", arguments: {} });
      expect(result.isError).toBe(true);
      const [failed] = named("tools/call fail");
      expect(failed.attributes["error.type"]).toBe("tool_error");
      expect(failed.status).toEqual({
        code: SpanStatusCode.ERROR,
        message: (result.content as { text: string }[])[0].text,
      });
      // No traceparent: a root span of its own trace.
      expect(failed.parentSpanContext).toBeUndefined();

      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow("Unknown tool: nope");
      const [unknown] = named("tools/call");
      expect(unknown.attributes).toEqual({
        "mcp.method.name": "tools/call",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "nope",
        "error.type": "-32602",
        "rpc.response.status_code": "-32602",
        ...common(String(unknown.attributes["jsonrpc.request.id"])),
      });
      expect(unknown.status).toEqual({ code: SpanStatusCode.ERROR, message: "Unknown tool: nope" });
      await client.close();
    });

    test("prompts/get names the prompt; resources/read carries the URI; the SDK's own requests are spans too", async () => {
      const mcp = server();
      exporter.reset();
      const client = await connectClient(mcp, revision);
      // The opening request: initialize on 2025-11-25, server/discover on 2026-07-28.
      expect(served().map((span) => span.name)).toEqual([modern ? "server/discover" : "initialize"]);
      exporter.reset();
      await client.getPrompt({ name: "greet", arguments: { who: "Ada" }, _meta: { traceparent: TRACEPARENT } });
      await client.readResource({ uri: "config://app" });
      const [get, read] = served();
      expect([get.name, get.parentSpanContext?.spanId, get.attributes["gen_ai.prompt.name"]]).toEqual([
        "prompts/get greet",
        CLIENT_SPAN,
        "greet",
      ]);
      expect(read.name).toBe("resources/read");
      expect(read.attributes).toEqual({
        "mcp.method.name": "resources/read",
        "mcp.resource.uri": "config://app",
        ...common(String(read.attributes["jsonrpc.request.id"])),
      });
      await client.close();
    });
  });

  test("through mcp.handler(): the client's parent, the session-less revision, and the HTTP server's span linked", async () => {
    const mcp = server();
    const handler = mcp.handler();
    // An HTTP instrumentation's span around the request: linked, not the parent.
    const http = trace.getTracer("http").startSpan("POST /mcp");
    const response = await context.with(trace.setSpan(context.active(), http), () =>
      modernPost(
        handler,
        "tools/call",
        { name: "add", arguments: { a: 1, b: 1 } },
        { ...ENVELOPE, traceparent: TRACEPARENT },
      ),
    );
    http.end();
    expect((await answerOf(response)).result?.content).toEqual([{ type: "text", text: "2" }]);
    const [span] = named("tools/call add");
    expect(seen(span)).toEqual({
      name: "tools/call add",
      kind: SpanKind.SERVER,
      parent: CLIENT_SPAN,
      trace: TRACE_ID,
      attributes: {
        "mcp.method.name": "tools/call",
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "add",
        "jsonrpc.request.id": "1",
        "mcp.protocol.version": "2026-07-28",
      },
      status: { code: SpanStatusCode.UNSET },
      links: [http.spanContext().spanId],
      events: [],
    });
    await handler.close?.();
  });

  test("through mcp.handler() on 2025-11-25: the session's id on every span of the session", async () => {
    const mcp = server();
    const handler = mcp.handler();
    const client = new Client({ name: "traces", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(URL_), {
      fetch: (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init)),
    });
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe("legacy");
    await client.callTool({ name: "add", arguments: { a: 2, b: 2 }, _meta: { traceparent: TRACEPARENT } });
    const session = transport.sessionId;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const spans = served();
    expect(spans.map((span) => [span.name, span.attributes["mcp.session.id"]])).toEqual([
      ["initialize", session],
      ["tools/call add", session],
    ]);
    expect(spans[1].parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    await client.close();
    await handler.close?.();
  });
});

test("docs/deployment.md's tracing setup, followed as written: the console exporter prints the call's span under the client's", async () => {
  const { outputText } = ts.transpileModule(documentedBlock("deployment:tracing"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  new Function("require", "exports", outputText)(require, {});
  const printed: Record<string, unknown>[] = [];
  const dir = jest
    .spyOn(console, "dir")
    .mockImplementation((value: unknown) => void printed.push(value as Record<string, unknown>));
  try {
    const mcp = server();
    const client = await connectClient(mcp, "2025-11-25");
    await client.callTool({ name: "add", arguments: { a: 1, b: 2 }, _meta: { traceparent: TRACEPARENT } });
    await (trace.getTracerProvider() as unknown as { getDelegate(): BasicTracerProvider }).getDelegate().forceFlush();
    const call = printed.find((span) => span.name === "tools/call add");
    expect(call).toMatchObject({
      traceId: TRACE_ID,
      parentSpanContext: { spanId: CLIENT_SPAN, traceId: TRACE_ID },
      kind: SpanKind.SERVER,
      attributes: { "mcp.method.name": "tools/call", "gen_ai.tool.name": "add", "mcp.protocol.version": "2025-11-25" },
    });
    await client.close();
  } finally {
    dir.mockRestore();
    trace.disable();
    propagation.disable();
    context.disable();
  }
});
