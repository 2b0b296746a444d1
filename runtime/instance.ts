import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type CacheScope,
  type CallToolRequestParams,
  type CompleteRequestParams,
  type GetPromptRequestParams,
  type ServerCapabilities,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import { NO_COMPLETION } from "./completion";
import type { CacheHint } from "./kinds";
import type { Lifecycle } from "./lifecycle";
import type { ListKind, Registry } from "./registry";
import { errorResult } from "./tool";
import { serverClass } from "./trace";

/** What every server instance is made with: the MCPServer's identity and list cache hints. */
export interface InstanceSettings {
  name: string;
  version: string;
  instructions?: string;
  /** `tools/list` and `server/discover` (ServerOptions.toolsListCache, else listCache). */
  toolsListCache: CacheHint;
  /** The other lists; undefined: `resources/list` of a server whose templates list instances is not kept. */
  listCache?: CacheHint;
}

/** The lists' default hint: fixed when the server starts, the same for every caller (see ServerOptions.listCache). */
export const DEFAULT_LIST_CACHE = { ttlMs: 300_000, cacheScope: "public" as CacheScope };

/**
 * Params as they came: the SDK checks the request against the spec's schema (a malformed one
 * is -32602) and, given this schema for the params, hands them over as JSON.parse made them,
 * instead of a copy rebuilt by its own schema. So a `__proto__` key among the arguments stays
 * a key (refused as an unknown argument) instead of becoming the copy's prototype, and the
 * arguments are not copied on every request.
 */
function asParsed<T>(): StandardSchemaV1<T> {
  return { "~standard": { version: 1, vendor: "typemcp", validate: (value) => ({ value: value as T }) } };
}
const CallToolParams = asParsed<CallToolRequestParams>();
const GetPromptParams = asParsed<GetPromptRequestParams>();
const CompleteParams = asParsed<CompleteRequestParams>();

/** A name the client sent, as a message shows it: whole up to 120 characters, cut after (a client's 9 MB name is not echoed back). */
function shortName(name: string): string {
  return name.length > 120 ? `${name.slice(0, 120)}… (${name.length} characters)` : name;
}

const SHUTTING_DOWN = "The server is shutting down";

/** The first protocol revision of the stateless era (revisions are dates: they compare as text). */
const MODERN = "2026-07-28";

/**
 * The SDK's low-level `Server` instances serving one MCPServer: one per stdio connection, HTTP
 * request or legacy HTTP session, each wired to the one registry (so an instance costs a few
 * handler registrations), and what is said to the ones that live on: a list changed, a resource
 * updated.
 */
export class Instances {
  /** Every instance serving now. */
  private readonly live = new Set<Server>();
  /** Those that outlive a request (stdio connections, legacy HTTP sessions): told of changes. */
  private readonly longLived = new Set<Server>();
  /** The URIs each 2025-11-25 connection subscribed to (`resources/subscribe`). */
  private readonly subscriptions = new WeakMap<Server, Set<string>>();

  constructor(
    private readonly registry: Registry,
    private readonly lifecycle: Lifecycle,
    private readonly settings: InstanceSettings,
  ) {}

  /**
   * A new instance, with the capabilities of what is registered now: a server with no prompt
   * declares no prompts (and answers `prompts/list` with -32601), as a client expects.
   */
  create(longLived: boolean): Server {
    const { registry, settings } = this;
    const prompts = registry.prompts.size > 0;
    const resources = registry.hasResources;
    const completions = registry.completes;
    // logging: functions log through their ToolContext, at the level the client asks for.
    const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
    if (prompts) capabilities.prompts = { listChanged: true };
    if (resources) capabilities.resources = { subscribe: true, listChanged: true };
    if (completions) capabilities.completions = {};
    const lists = settings.listCache ?? DEFAULT_LIST_CACHE;
    // The SDK's Server, or one that traces each request when the application has OpenTelemetry (runtime/trace.ts).
    const ServerClass = serverClass(registry);
    const server = new ServerClass(
      { name: settings.name, version: settings.version },
      {
        capabilities,
        instructions: settings.instructions,
        cacheHints: {
          // server/discover is as fixed as the tool list: the same hint.
          "tools/list": settings.toolsListCache,
          "server/discover": settings.toolsListCache,
          "prompts/list": lists,
          "resources/templates/list": lists,
          // Instances a template lists may change with every call: not kept unless the server says so.
          ...(settings.listCache || !registry.listsInstances ? { "resources/list": lists } : {}),
        },
      },
    );
    this.tools(server);
    if (prompts) this.prompts(server);
    if (resources) this.resources(server);
    if (completions) this.completion(server);
    const onclose = server.onclose;
    server.onclose = () => {
      this.live.delete(server);
      this.longLived.delete(server);
      onclose?.();
    };
    this.live.add(server);
    if (longLived) this.longLived.add(server);
    return server;
  }

  /** Tells the long-lived instances whose client can hear it that a list changed. */
  announce(kind: ListKind): void {
    for (const server of this.longLived) {
      if (!server.transport) continue;
      // 2025-11-25 connections are told directly; 2026-07-28 clients on the streams they opened with
      // subscriptions/listen (the SDK's stdio entry routes the notification there; over HTTP, its handler does).
      // An instance made before the first prompt or resource declared no such capability: it is not told.
      try {
        const sent =
          kind === "tools"
            ? server.sendToolListChanged()
            : kind === "prompts"
              ? server.sendPromptListChanged()
              : server.sendResourceListChanged();
        void sent.catch(() => undefined);
      } catch {
        // not declared on that instance
      }
    }
  }

  /** Tells the 2025-11-25 connections subscribed to `uri`, and the 2026-07-28 streams listening for it, that it changed. */
  resourceUpdated(uri: string): void {
    for (const server of this.longLived) {
      if (!server.transport) continue;
      // A 2025-11-25 connection hears of the URIs it subscribed to; on a 2026-07-28 one the SDK's
      // entry routes the notification to the listen streams whose filter names the URI.
      const version = server.getNegotiatedProtocolVersion();
      const modern = version !== undefined && version >= MODERN;
      if (!modern && !this.subscriptions.get(server)?.has(uri)) continue;
      try {
        void server.sendResourceUpdated({ uri }).catch(() => undefined);
      } catch {
        // no resources on that instance
      }
    }
  }

  /** Closes every instance. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.live].map((server) => server.close()));
  }

  private tools(server: Server): void {
    const { registry, lifecycle } = this;
    server.setRequestHandler("tools/list", () => ({ tools: registry.toolsList() }));
    server.setRequestHandler("tools/call", { params: CallToolParams }, (params, ctx) => {
      const tool = registry.tools.get(params.name);
      // Unknown tool: a JSON-RPC error (-32602), not a tool result.
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${shortName(params.name)}`);
      this.refuseWhenClosing();
      const answer = tool.call(params.arguments ?? {}, ctx, server);
      // A synchronous tool is answered within this turn, before close() would look (it waits a turn).
      return answer instanceof Promise
        ? lifecycle.track(
            answer,
            () => errorResult(tool.name, this.unfinished()),
            (error) => {
              // A protocol error is the request's answer (a requestState or an answer refused: -32602).
              if (error instanceof ProtocolError) throw error;
              return errorResult(tool.name, "the call failed");
            },
            ctx.mcpReq.signal,
          )
        : answer;
    });
  }

  private prompts(server: Server): void {
    const { registry } = this;
    server.setRequestHandler("prompts/list", () => ({ prompts: registry.promptsList() }));
    server.setRequestHandler("prompts/get", { params: GetPromptParams }, (params, ctx) => {
      const prompt = registry.prompts.get(params.name);
      if (!prompt)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${shortName(params.name)}`);
      this.refuseWhenClosing();
      return this.tracked(prompt.get(params.arguments, ctx, server), ctx.mcpReq.signal);
    });
  }

  private resources(server: Server): void {
    const { registry } = this;
    server.setRequestHandler("resources/list", async () => ({ resources: await registry.resourcesList() }));
    server.setRequestHandler("resources/templates/list", () => ({ resourceTemplates: registry.templatesList() }));
    server.setRequestHandler("resources/read", ({ params }, ctx) => {
      const found = registry.resourceAt(params.uri);
      // -32602 with the URI in its data, as the 2026-07-28 spec says (the SDK's error).
      if (!found) throw new ResourceNotFoundError(params.uri);
      this.refuseWhenClosing();
      return this.tracked(found.resource.read(params.uri, found.variables, ctx, server), ctx.mcpReq.signal);
    });
    // 2025-11-25 only (the 2026-07-28 revision subscribes through subscriptions/listen, which the SDK's entries serve).
    server.setRequestHandler("resources/subscribe", ({ params }) => {
      if (!registry.resourceAt(params.uri)) throw new ResourceNotFoundError(params.uri);
      let subscribed = this.subscriptions.get(server);
      if (!subscribed) this.subscriptions.set(server, (subscribed = new Set()));
      subscribed.add(params.uri);
      return {};
    });
    server.setRequestHandler("resources/unsubscribe", ({ params }) => {
      this.subscriptions.get(server)?.delete(params.uri);
      return {};
    });
  }

  private completion(server: Server): void {
    const { registry } = this;
    server.setRequestHandler("completion/complete", { params: CompleteParams }, (params) => {
      const { ref, argument } = params;
      const context = { arguments: params.context?.arguments ?? {} };
      if (ref.type === "ref/prompt") {
        const prompt = registry.prompts.get(ref.name);
        if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${shortName(ref.name)}`);
        return prompt.complete(argument.name, argument.value, context);
      }
      const template = registry.templates.get(ref.uri);
      if (template) return template.complete(argument.name, argument.value, context);
      // A fixed URI has no variables to complete.
      if (registry.resources.has(ref.uri)) return NO_COMPLETION;
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource template: ${shortName(ref.uri)}`);
    });
  }

  /** A prompt's or resource's answer, kept among the requests in flight when it is a promise. */
  private tracked<T>(answer: T | Promise<T>, signal: AbortSignal): T | Promise<T> {
    if (!(answer instanceof Promise)) return answer;
    return this.lifecycle.track(
      answer,
      () => {
        throw new ProtocolError(-32000, this.unfinished());
      },
      (error) => {
        throw error;
      },
      signal,
    );
  }

  private refuseWhenClosing(): void {
    if (this.lifecycle.closing) throw new ProtocolError(-32000, SHUTTING_DOWN);
  }

  private unfinished(): string {
    return `the server shut down before the call finished (shutdownTimeout: ${this.lifecycle.shutdownTimeout} ms)`;
  }
}
