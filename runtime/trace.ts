/**
 * OpenTelemetry traces, when the application has them: with `@opentelemetry/api` installed (an
 * optional peer) and a tracer provider registered, every request a server instance answers is a
 * span of kind SERVER, named and described as OpenTelemetry's MCP semantic conventions say
 * (`{mcp.method.name} {target}`; a `tools/call` span is also GenAI's `execute_tool` span), its
 * parent the client's `traceparent` from the request's `_meta` (extracted by the application's
 * propagator), and the function runs inside it, so the spans it makes are its children.
 *
 * Without the API, or with it but no provider, instances are the SDK's plain `Server`: no
 * wrapper on any request (the decision is made once per instance: a module lookup cached at the
 * first, then two property reads). See docs/deployment.md#traces.
 */
import type * as OpenTelemetry from "@opentelemetry/api";
import {
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Registry } from "./registry";

type Api = typeof OpenTelemetry;
type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** Where @opentelemetry/api 1.x keeps what an application registers (its `trace`: the global tracer provider). */
const OTEL_GLOBALS = Symbol.for("opentelemetry.js.api.1");

/** undefined: not looked for yet; null: not installed. */
let api: Api | null | undefined;
/** The API's no-op provider: what its global provider delegates to until the application registers one. */
let noop: OpenTelemetry.TracerProvider | undefined;

function openTelemetry(): Api | null {
  if (api === undefined) {
    try {
      // An optional peer: absent is normal.
      api = require("@opentelemetry/api") as Api;
      noop = new api.ProxyTracerProvider().getDelegate();
    } catch {
      api = null;
    }
  }
  return api;
}

/** The span names' and attributes' longest client-sent text (as messages cut names: a 9 MB name is not copied into a span). */
const LONGEST = 120;
const cut = (text: string) => (text.length > LONGEST ? text.slice(0, LONGEST) : text);

/**
 * The server class an instance is made of: a traced one while the application has a tracer
 * provider registered, else the SDK's `Server` itself.
 */
export function serverClass(registry: Registry): typeof Server {
  // No tracer provider registered (the API keeps its registrations under this global): nothing
  // to trace, and the API is not loaded for it, which took 24 ms of a fresh process's start
  // where it is installed (a dependency of a dependency, say) but unused.
  if ((globalThis as Record<symbol, { trace?: unknown } | undefined>)[OTEL_GLOBALS]?.trace === undefined) return Server;
  const otel = openTelemetry();
  if (!otel) return Server;
  // The API's global provider is a proxy whose delegate is a no-op provider until the application registers one.
  const provider = otel.trace.getTracerProvider() as OpenTelemetry.ProxyTracerProvider;
  const delegate = typeof provider.getDelegate === "function" ? provider.getDelegate() : provider;
  if (delegate === noop) return Server;
  const tracer = otel.trace.getTracer("typemcp");
  return tracedServer(otel, tracer, registry);
}

const classes = new WeakMap<OpenTelemetry.Tracer, WeakMap<Registry, typeof Server>>();

function tracedServer(otel: Api, tracer: OpenTelemetry.Tracer, registry: Registry): typeof Server {
  let byRegistry = classes.get(tracer);
  if (!byRegistry) classes.set(tracer, (byRegistry = new WeakMap()));
  let made = byRegistry.get(registry);
  if (made) return made;
  // The SDK's hook for wrapping every request handler, its own (initialize, ping, ...) and those typemcp sets.
  made = class TracedServer extends Server {
    protected override _wrapHandler(method: string, handler: Handler): Handler {
      const inner = super._wrapHandler(method, handler);
      return (request, ctx) => traced(otel, tracer, registry, this, request, ctx, inner);
    }
  } as unknown as typeof Server;
  byRegistry.set(registry, made);
  return made;
}

function traced(
  otel: Api,
  tracer: OpenTelemetry.Tracer,
  registry: Registry,
  server: Server,
  request: JSONRPCRequest,
  ctx: ServerContext,
  inner: Handler,
): Promise<Result> {
  const { method } = request;
  const params = request.params ?? {};
  const ambient = otel.context.active();
  const meta = params._meta;
  // The client's context is the parent; the transport's (an HTTP server span, say) is linked, as the conventions say.
  const parent = meta ? otel.propagation.extract(ambient, meta) : ambient;
  const remote = otel.trace.getSpanContext(parent);
  const ambientSpan = otel.trace.getSpanContext(ambient);
  const links = remote && ambientSpan && remote.spanId !== ambientSpan.spanId ? [{ context: ambientSpan }] : undefined;

  const attributes: OpenTelemetry.Attributes = { "mcp.method.name": method, "jsonrpc.request.id": String(request.id) };
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const revision = envelope?.[PROTOCOL_VERSION_META_KEY] ?? server.getNegotiatedProtocolVersion();
  if (typeof revision === "string") attributes["mcp.protocol.version"] = revision;
  if (ctx.sessionId !== undefined) attributes["mcp.session.id"] = ctx.sessionId;
  let target: string | undefined;
  const name = typeof params.name === "string" ? params.name : undefined;
  if (method === "tools/call" && name !== undefined) {
    attributes["gen_ai.operation.name"] = "execute_tool";
    attributes["gen_ai.tool.name"] = cut(name);
    // Only a registered name goes into the span's name: names a client makes up would make one name each.
    if (registry.tools.has(name)) target = name;
  } else if (method === "prompts/get" && name !== undefined) {
    attributes["gen_ai.prompt.name"] = cut(name);
    if (registry.prompts.has(name)) target = name;
  } else if (typeof params.uri === "string") {
    attributes["mcp.resource.uri"] = cut(params.uri);
  }

  const span = tracer.startSpan(
    target === undefined ? method : `${method} ${target}`,
    { kind: otel.SpanKind.SERVER, attributes, links },
    parent,
  );
  const failed = (error: unknown) => {
    const code = error instanceof ProtocolError ? String(error.code) : undefined;
    span.setAttribute("error.type", code ?? (error instanceof Error ? error.constructor.name : "_OTHER"));
    if (code !== undefined) span.setAttribute("rpc.response.status_code", code);
    if (error instanceof Error && !(error instanceof ProtocolError)) span.recordException(error);
    span.setStatus({
      code: otel.SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : String(error),
    });
    span.end();
    throw error;
  };
  let answer: Promise<Result>;
  try {
    answer = otel.context.with(otel.trace.setSpan(parent, span), () => inner(request, ctx));
  } catch (error) {
    return failed(error);
  }
  return answer.then((result) => {
    // A tool's error result is a successful JSON-RPC answer: the conventions call it a tool_error.
    if (method === "tools/call" && result?.isError === true) {
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: toolError(result) });
    }
    span.end();
    return result;
  }, failed);
}

/** The first text of an error result, as its span's status says it. */
function toolError(result: Result): string {
  const content = result.content;
  const first = Array.isArray(content) ? (content[0] as { type?: unknown; text?: unknown } | undefined) : undefined;
  // Cut at 1,000 characters: the text may quote what the client sent.
  return first?.type === "text" && typeof first.text === "string" ? first.text.slice(0, 1000) : "tool_error";
}
