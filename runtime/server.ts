import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CacheScope,
  type CallToolRequestParams,
  type CallToolResult,
  type StandardSchemaV1,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/server";
import type { StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { CONTRACT_VERSION, type PromptContract, type ResourceContract, type ToolContract } from "./contract";
import type { PromptFunction, PromptOptions, ResourceFunction, ResourceOptions } from "./kinds";
import { markedMethods } from "./decorators";
import type { HttpEndpoint, HttpHandlerOptions, ServedEndpoint } from "./http";
import type { HttpOptions } from "./node-http";
import { CallSite, FaultLog } from "./faults";
import { errorResult, RegisteredTool, type ToolFunction, type ToolOptions } from "./tool";
import { toolNameProblem } from "./tool-name";

export interface ServerOptions {
  /** The server's version, in `server/discover` and `initialize`. Default "1.0.0". */
  version?: string;
  /** Instructions for the client's model, in `server/discover` and `initialize`. */
  instructions?: string;
  /**
   * How long a 2026-07-28 client may keep the `tools/list` (and `server/discover`) it got (`ttlMs`, `cacheScope`).
   * Default `{ ttlMs: 300_000, cacheScope: "public" }`: the tools are fixed when the server
   * starts and the same for every caller, so any client or shared cache may keep the list
   * for five minutes; a tool registered later is announced with `notifications/tools/list_changed`
   * to clients that listen, and reaches the others within that time. `ttlMs: 0` makes every
   * client ask again each time. (2025-11-25 clients get no cache fields.)
   */
  toolsListCache?: { ttlMs?: number; cacheScope?: CacheScope };
  /**
   * Milliseconds a shutdown (SIGTERM, SIGINT, stdin closed, `close()`) waits for the calls in
   * flight (default 10,000). The calls still running then are answered with an `isError`
   * result, and the server closes: a call that never finishes cannot keep a process from
   * exiting (an orchestrator's own grace period, 30 s in Kubernetes, is longer).
   */
  shutdownTimeout?: number;
  /**
   * Log to stderr, with the tool's name and the stack (or where the tool was registered), what
   * is a bug in the server's own code: an exception thrown by a tool, a result that breaks the
   * tool's declared type or cannot be sent as JSON. The client is answered with `isError` either
   * way; this is for the developer. Each distinct cause is logged once. Default true; stdout,
   * where stdio's JSON-RPC goes, is never written.
   */
  logErrors?: boolean;
}

const DEFAULT_SHUTDOWN_TIMEOUT = 10_000;

export type RunOptions = { transport?: "stdio" } | HttpOptions;

/**
 * tools/call's params as they came: the SDK checks the request against the spec's schema (a
 * malformed one is -32602) and, given this schema for the params, hands them over as JSON.parse
 * made them, instead of a copy rebuilt by its own schema. So a `__proto__` key in the arguments
 * stays a key (refused as an unknown argument) instead of becoming the copy's prototype, and
 * the arguments are not copied on every call.
 */
const CallToolParams: StandardSchemaV1<CallToolRequestParams> = {
  "~standard": { version: 1, vendor: "typemcp", validate: (value) => ({ value: value as CallToolRequestParams }) },
};

const DEFAULT_TOOLS_LIST_CACHE = { ttlMs: 300_000, cacheScope: "public" as CacheScope };

const ENABLE_PLUGIN =
  'Add { "transform": "typemcp/transformer" } to "plugins" in the "compilerOptions" of your tsconfig.json, and build with tspc (from ts-patch) instead of tsc. Without the plugin, pass the tool entry of a `typemcp manifest` (it is missing if the manifest is older than the tool).';
const BUILD_WITH_TYPEMCP =
  "TypeScript 7 is installed, which runs no transformer: build with `npx typemcp build` instead of tsc (TypeScript 7's own compiler, every tool's schemas written in). Without it (esbuild, tsx, ...), pass the tool entry of a `typemcp manifest` (it is missing if the manifest is older than the tool).";

/** How to build the tools, for the TypeScript the project installed (7 has no transformer API: tspc cannot run there). */
function howToBuild(): string {
  for (const from of [process.cwd(), __dirname]) {
    try {
      const { version } = require(require.resolve("typescript/package.json", { paths: [from] })) as { version: string };
      return Number(version.split(".")[0]) >= 7 ? BUILD_WITH_TYPEMCP : ENABLE_PLUGIN;
    } catch {
      // no TypeScript there
    }
  }
  return ENABLE_PLUGIN;
}

function describeFunction(fn: unknown): string {
  return typeof fn === "function" && fn.name ? fn.name : "<anonymous>";
}

/** A name as a message shows it: a string quoted, anything else as it is, cut short. */
function shortName(name: unknown): string {
  const text = typeof name === "string" ? JSON.stringify(name) : String(name);
  return text.length > 140 ? `${text.slice(0, 140)}…` : text;
}

function isContract(value: unknown): value is ToolContract {
  return value !== null && typeof value === "object" && "v" in value && "inputSchema" in value && "params" in value;
}

/** Checks what the transformer wrote: present, of this runtime's contract version, built without errors. */
function checkContract(fn: ToolFunction, contract: ToolContract | undefined): ToolContract {
  const where = `mcp.tool(${describeFunction(fn)})`;
  if (contract === undefined || contract === null || typeof contract !== "object") {
    throw new Error(
      `typemcp: ${where} has no compiled schema: the typemcp transformer did not run on this file. ${howToBuild()}`,
    );
  }
  if (contract.v !== CONTRACT_VERSION) {
    throw new Error(
      `typemcp: ${where} was compiled by a typemcp transformer with contract version ${String(contract.v)}, this runtime reads version ${CONTRACT_VERSION}: rebuild the project with the installed typemcp.`,
    );
  }
  if (contract.error) throw new Error(`typemcp: ${where} was not built, the build reported: ${contract.error}`);
  return contract;
}

/**
 * An MCP server whose tools are plain TypeScript functions. Serves both protocol revisions
 * (2026-07-28 and 2025-11-25) through the SDK's entries (`serveStdio`, `createMcpHandler`),
 * which build one low-level `Server` per connection or per request: each is wired to the same
 * tools, whose schemas came precomputed from the transformer, so `tools/list` does no work.
 */
export class MCPServer {
  private readonly registered = new Map<string, RegisteredTool>();
  private listing?: Tool[];
  /** Every SDK server instance serving now: one per stdio connection, HTTP request or legacy HTTP session. */
  private readonly live = new Set<Server>();
  /** Those that outlive a request (stdio connections, legacy HTTP sessions): a new tool is announced to them. */
  private readonly longLived = new Set<Server>();
  private readonly connections = new Set<StdioServerHandle>();
  private latest?: Server;
  private http?: ServedEndpoint;
  /** Calls not answered yet, each with what answers it at once: a shutdown waits for them, up to its deadline. */
  private readonly inFlight = new Map<Promise<CallToolResult>, () => void>();
  private closing = false;
  private readonly faults?: FaultLog;
  /** Milliseconds a shutdown waits for the calls in flight (ServerOptions.shutdownTimeout). */
  readonly shutdownTimeout: number;

  constructor(
    readonly name: string,
    private readonly options: ServerOptions = {},
  ) {
    const shutdownTimeout = options.shutdownTimeout ?? DEFAULT_SHUTDOWN_TIMEOUT;
    if (typeof shutdownTimeout !== "number" || !(shutdownTimeout >= 0)) {
      throw new TypeError(
        `typemcp: shutdownTimeout must be a number of milliseconds, 0 or more (got ${String(shutdownTimeout)})`,
      );
    }
    this.shutdownTimeout = shutdownTimeout;
    if (options.logErrors !== false) this.faults = new FaultLog();
  }

  /**
   * The SDK's low-level `Server` serving the latest stdio or `connect()` connection (undefined
   * before one opens), for anything typemcp does not wrap. Each connection, and each HTTP
   * request, is served by its own instance.
   */
  get server(): Server | undefined {
    return this.latest;
  }

  /** A new SDK server wired to this server's tools: what the SDK's entries call per connection or request. */
  private readonly instance = (longLived: boolean): Server => {
    const cache = { ...DEFAULT_TOOLS_LIST_CACHE, ...this.options.toolsListCache };
    const server = new Server(
      { name: this.name, version: this.options.version ?? "1.0.0" },
      {
        // logging: tools log through their ToolContext, at the level the client asks for.
        capabilities: { tools: { listChanged: true }, logging: {} },
        instructions: this.options.instructions,
        // server/discover is as fixed as the tool list: the same hint.
        cacheHints: { "tools/list": cache, "server/discover": cache },
      },
    );
    server.setRequestHandler("tools/list", () => ({
      tools: (this.listing ??= [...this.registered.values()].map((t) => t.definition)),
    }));
    server.setRequestHandler("tools/call", { params: CallToolParams }, (params, ctx) => {
      const tool = this.registered.get(params.name);
      // Unknown tool: a JSON-RPC error (-32602), not a tool result.
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      if (this.closing) throw new ProtocolError(-32000, "The server is shutting down");
      const answer = tool.call(params.arguments ?? {}, ctx, server);
      // A synchronous tool is answered within this turn, before close() would look (it waits a turn).
      return answer instanceof Promise ? this.track(answer, tool.name) : answer;
    });
    const onclose = server.onclose;
    server.onclose = () => {
      this.live.delete(server);
      this.longLived.delete(server);
      onclose?.();
    };
    this.live.add(server);
    if (longLived) this.longLived.add(server);
    return server;
  };

  /** The instance for a stdio or `connect()` connection: also what `mcp.server` shows. */
  private readonly connectionInstance = (): Server => (this.latest = this.instance(true));

  /**
   * Registers `fn` as a tool. The typemcp transformer fills in `compiled` at build time
   * from the function's types; calling this on code the transformer did not build throws.
   *
   * @param fn the tool: its parameters are the arguments, its declared return type the output.
   * @param options name, title, description, annotations, structuredOutput, timeout; or, for
   *   code built without the transformer, the tool's entry of a `typemcp manifest`.
   * @param compiled written by the transformer (see ToolContract); leave it out.
   */
  tool(fn: ToolFunction, options?: ToolOptions | ToolContract, compiled?: ToolContract): void {
    this.register(fn, options, compiled, new CallSite(this.tool));
  }

  private register(
    fn: ToolFunction,
    options: ToolOptions | ToolContract | undefined,
    compiled: ToolContract | undefined,
    site: CallSite,
  ): void {
    if (typeof fn !== "function") throw new TypeError(`typemcp: mcp.tool takes a function, got ${typeof fn}`);
    // `mcp.tool(fn, manifest.get_weather)`: a contract from `typemcp manifest` in the options' place.
    if (compiled === undefined && isContract(options)) [options, compiled] = [{}, options];
    const report = this.faults && ((...args: Parameters<FaultLog["report"]>) => this.faults!.report(...args));
    const tool = new RegisteredTool(fn, (options as ToolOptions | undefined) ?? {}, checkContract(fn, compiled), {
      site,
      report,
    });
    const at = (where: CallSite | undefined) => where?.location;
    // The transformer checks a name written as a literal; a name computed at run time is checked here, by the same rule.
    const problem = toolNameProblem(tool.name);
    if (problem) {
      const where = at(site) ? ` (registered at ${at(site)})` : "";
      throw new Error(`typemcp: tool name ${shortName(tool.name)}${where} is not a valid MCP tool name: ${problem}`);
    }
    const first = this.registered.get(tool.name);
    if (first) {
      const places = [at(first.site) && `first at ${at(first.site)}`, at(site) && `again at ${at(site)}`]
        .filter(Boolean)
        .join(", ");
      throw new Error(
        `typemcp: a tool named ${JSON.stringify(tool.name)} is already registered${places ? ` (${places})` : ""}: give one of them another name with { name: "..." }`,
      );
    }
    this.registered.set(tool.name, tool);
    this.listing = undefined;
    // 2025-11-25 connections are told directly; 2026-07-28 clients on the streams they opened with
    // subscriptions/listen (the SDK's stdio entry routes the notification there; over HTTP, its handler does).
    for (const server of this.longLived) if (server.transport) void server.sendToolListChanged().catch(() => undefined);
    this.http?.toolsChanged();
  }

  /**
   * Registers `fn` as a prompt: its parameters are the prompt's arguments (text on the wire,
   * converted to the declared number or boolean), its JSDoc the description. The typemcp
   * transformer fills in `compiled` at build time; calling this on code it did not build throws.
   */
  prompt(fn: PromptFunction, options?: PromptOptions | PromptContract, compiled?: PromptContract): void {
    void fn;
    void options;
    void compiled;
    throw new Error("typemcp: prompts are not served yet");
  }

  /**
   * Registers `fn` as the resource at `uri`, or, when `uri` is an RFC 6570 template
   * (`"users://{id}/profile"`), as a resource template whose variables are `fn`'s parameters.
   * The declared return type decides the contents: a string is text, bytes a blob, other data
   * JSON validated against the type's schema.
   */
  resource(
    uri: string,
    fn: ResourceFunction,
    options?: ResourceOptions | ResourceContract,
    compiled?: ResourceContract,
  ): void {
    void uri;
    void fn;
    void options;
    void compiled;
    throw new Error("typemcp: resources are not served yet");
  }

  /**
   * Registers every method of `instance` marked with `@tool()`, bound to the instance.
   * Throws when it has none (a class whose decorators did not run, or the wrong object).
   */
  tools(instance: object): void {
    const site = new CallSite(this.tools);
    const marked = markedMethods(instance);
    if (marked.length === 0)
      throw new Error(
        `typemcp: mcp.tools() found no @tool() methods on ${instance?.constructor?.name ?? typeof instance}`,
      );
    for (const { method, options, compiled } of marked) {
      const fn = (instance as Record<string | symbol, unknown>)[method];
      if (typeof fn !== "function")
        throw new Error(`typemcp: ${String(method)} is marked with @tool() but is not a method`);
      const bound = fn.bind(instance);
      Object.defineProperty(bound, "name", { value: String(method) });
      this.register(bound as ToolFunction, options, compiled, site);
    }
  }

  /**
   * Serves one connection over any SDK transport (tests use the SDK's InMemoryTransport), as
   * stdio is served: the client's first message picks the protocol revision (a 2026-07-28
   * request or `server/discover`, or a 2025-11-25 `initialize`).
   */
  async connect(transport: Transport): Promise<void> {
    this.prepareTools();
    // The SDK's stdio transport skips a line that is not JSON, and reports JSON that is not
    // JSON-RPC here without a word to the client: JSON-RPC answers it (id null), and the
    // connection goes on serving either way.
    const onerror = (error: Error) => {
      if (error.name !== "ZodError") return;
      const answer = {
        jsonrpc: "2.0" as const,
        id: null,
        error: { code: ProtocolErrorCode.InvalidRequest, message: "Invalid Request: the message is not JSON-RPC 2.0" },
      };
      void transport.send(answer as never).catch(() => undefined);
    };
    const { serveStdio } =
      require("@modelcontextprotocol/server/stdio") as typeof import("@modelcontextprotocol/server/stdio");
    const connection = serveStdio(this.connectionInstance, { transport, onerror });
    this.connections.add(connection);
    const onclose = transport.onclose;
    // serveStdio has set the transport up and started it by the time it returns.
    transport.onclose = () => {
      this.connections.delete(connection);
      onclose?.();
    };
  }

  /**
   * Serves over stdio (the default) or Streamable HTTP (`{ transport: "http", port }`). On
   * SIGTERM / SIGINT (and, on stdio, when the client closes stdin) the process exits once the
   * calls in flight are answered. Resolves when the server is listening; with HTTP, to the
   * address it listens on.
   */
  async run(options: RunOptions = {}): Promise<{ port?: number; url?: string }> {
    const exit = () => void this.close().finally(() => process.exit(0));
    process.once("SIGTERM", exit);
    process.once("SIGINT", exit);
    const transport = options.transport ?? "stdio";
    if (transport === "stdio") {
      // The SDK's stdio transport stops reading, and drops the calls in flight, when stdin
      // ends; typemcp answers them first (a client may write its requests, then close stdin).
      // So the transport reads a copy of stdin that never ends, and the end of the real one
      // closes the server the way SIGTERM does.
      const { PassThrough } = require("node:stream") as typeof import("node:stream");
      const { StdioServerTransport } =
        require("@modelcontextprotocol/server/stdio") as typeof import("@modelcontextprotocol/server/stdio");
      const input = process.stdin.pipe(new PassThrough(), { end: false });
      process.stdin.once("end", exit);
      await this.connect(new StdioServerTransport(input, process.stdout));
      return {};
    }
    if (transport !== "http")
      throw new Error(`typemcp: unknown transport ${JSON.stringify(transport)}: use "stdio" or "http"`);
    // Node's HTTP server, and the SDK's adapter to it: loaded only by a server that listens.
    const { listen, runEndpointOptions } = require("./node-http") as typeof import("./node-http");
    return listen(this.endpoint(runEndpointOptions(options as HttpOptions)), options as HttpOptions, this.name);
  }

  /**
   * Serves MCP over Streamable HTTP as a Web-standard handler: `fetch(Request) → Response`, for
   * serverless functions and edge runtimes (`export default mcp.handler()` on Cloudflare
   * Workers, Deno, Bun) or behind any framework. Stateless for 2026-07-28 clients;
   * 2025-11-25 clients get sessions, or none with `stateless: true`.
   */
  handler(options: HttpHandlerOptions = {}): HttpEndpoint {
    return this.endpoint(options);
  }

  /**
   * Stops taking calls, waits for the ones in flight to be answered (up to `shutdownTimeout`
   * milliseconds, then answers those still running with an error), and closes every connection.
   */
  async close(): Promise<void> {
    this.closing = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"expired">(
      (resolve) => (timer = setTimeout(() => resolve("expired"), this.shutdownTimeout)),
    );
    while (this.inFlight.size) {
      if ((await Promise.race([Promise.allSettled([...this.inFlight.keys()]), deadline])) === "expired") break;
    }
    clearTimeout(timer);
    for (const answerNow of [...this.inFlight.values()]) answerNow();
    // The last answers are written a few promise steps after their calls settle.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...this.connections].map((connection) => connection.close()));
    if (this.http) await this.http.close();
    await Promise.allSettled([...this.live].map((server) => server.close()));
  }

  /**
   * Makes the first tool's checkers as the server starts serving. A tool's checkers are made on
   * its first call; in a fresh process the first of them also runs the checker's own code for
   * the first time (V8 compiles it then), which costs that call about a millisecond more.
   * Made here, that millisecond is part of the start.
   */
  private prepareTools(): void {
    // A tool keeps its checkers once made: a second connection finds them made.
    this.registered.values().next().value?.prepare();
  }

  private endpoint(options: HttpHandlerOptions): ServedEndpoint {
    if (this.http)
      throw new Error("typemcp: this server already serves HTTP (mcp.run with HTTP, or mcp.handler(), is called once)");
    this.prepareTools();
    return (this.http = this.httpModule().createEndpoint(
      { perRequest: () => this.instance(false), session: () => this.instance(true) },
      options,
    ));
  }

  /**
   * Loaded when first asked for, not at start-up: the SDK's HTTP entry takes longer to load
   * than all of typemcp's own runtime, and a stdio server never needs it.
   */
  private httpModule(): typeof import("./http") {
    return require("./http") as typeof import("./http");
  }

  /** The answer to an async call, kept among the calls in flight until it is sent; a shutdown past its deadline answers it itself. */
  private track(call: Promise<CallToolResult>, toolName: string): Promise<CallToolResult> {
    let answerNow!: () => void;
    const answer = new Promise<CallToolResult>((resolve) => {
      // A call never rejects (RegisteredTool.call answers every failure); were it to, it is still answered.
      call.then(resolve, () => resolve(errorResult(toolName, "the call failed")));
      answerNow = () =>
        resolve(
          errorResult(
            toolName,
            `the server shut down before the call finished (shutdownTimeout: ${this.shutdownTimeout} ms)`,
          ),
        );
    });
    this.inFlight.set(answer, answerNow);
    const settled = () => void this.inFlight.delete(answer);
    answer.then(settled, settled);
    return answer;
  }
}
