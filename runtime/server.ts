import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, CallToolResultSchema, ErrorCode, ListToolsRequestSchema, RequestSchema, type CallToolRequest, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Server as HttpServer } from "node:http";
import { markedMethods } from "./decorators";
import type { HttpOptions } from "./http";
import { CONTRACT_VERSION, type ToolContract } from "./contract";
import { RegisteredTool, type ToolFunction, type ToolOptions } from "./tool";

export interface ServerOptions {
  /** The server's version, sent in `initialize`. Default "1.0.0". */
  version?: string;
  /** Instructions for the client's model, sent in `initialize`. */
  instructions?: string;
  /**
   * Compile the tools' validators and result projectors in the background once the server is
   * connected, one per idle turn of the event loop (default true). With false, a tool's are
   * compiled when it is first called, in the idle turn after that call (which is validated by
   * walking the schemas, its result copied by the interpreter): less memory for a server with
   * many tools that are rarely called.
   */
  precompile?: boolean;
}

export type RunOptions = { transport?: "stdio" } | HttpOptions;

/**
 * tools/call as the SDK's Protocol first reads it: just the method. The SDK's Server then
 * checks the whole request itself (a malformed one is -32602 Invalid params, not -32603) and
 * hands over the request as it came: the arguments object is the one JSON.parse made, so a
 * `__proto__` key in it stays a key (and is refused as an unknown argument), instead of being
 * turned into the prototype of a rebuilt object.
 */
const ToolsCallMethod = RequestSchema.extend({ method: CallToolRequestSchema.shape.method });

/**
 * Parses a tools/call and its result once with the schemas the SDK checks them with (Zod
 * compiles each on its first use), so that this one-time work is not a client's first call.
 */
function warmRequestPath(): void {
  const request = { method: "tools/call", params: { name: "typemcp-warm-up", arguments: {} } };
  ToolsCallMethod.safeParse(request);
  CallToolRequestSchema.safeParse(request);
  CallToolResultSchema.safeParse({ content: [{ type: "text", text: "{}" }], structuredContent: {} });
}

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

function isContract(value: unknown): value is ToolContract {
  return value !== null && typeof value === "object" && "v" in value && "inputSchema" in value && "params" in value;
}

/** Checks what the transformer wrote: present, of this runtime's contract version, built without errors. */
function checkContract(fn: ToolFunction, contract: ToolContract | undefined): ToolContract {
  const where = `mcp.tool(${describeFunction(fn)})`;
  if (contract === undefined || contract === null || typeof contract !== "object") {
    throw new Error(`typemcp: ${where} has no compiled schema: the typemcp transformer did not run on this file. ${howToBuild()}`);
  }
  if (contract.v !== CONTRACT_VERSION) {
    throw new Error(`typemcp: ${where} was compiled by a typemcp transformer with contract version ${String(contract.v)}, this runtime reads version ${CONTRACT_VERSION}: rebuild the project with the installed typemcp.`);
  }
  if (contract.error) throw new Error(`typemcp: ${where} was not built, the build reported: ${contract.error}`);
  return contract;
}

/**
 * An MCP server whose tools are plain TypeScript functions. Runs on the SDK's low-level
 * `Server` (its `McpServer` takes only Zod schemas); the schemas come precomputed from the
 * transformer, so `tools/list` does no work at all.
 */
export class MCPServer {
  /** The SDK's low-level server of `connect()` and stdio, for anything typemcp does not wrap. */
  readonly server: Server;
  private readonly registered = new Map<string, RegisteredTool>();
  private listing?: Tool[];
  /** Every low-level server serving now: the main one, and one per HTTP session. */
  private readonly sessions = new Set<Server>();
  private http?: HttpServer;
  /** Calls not answered yet: a shutdown waits for them. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private closing = false;
  private warming = false;

  constructor(
    private readonly name: string,
    private readonly options: ServerOptions = {},
  ) {
    this.server = this.session();
  }

  /** A low-level Server wired to this server's tools. Sessions share the tools and their compiled validators. */
  private session(): Server {
    const server = new Server(
      { name: this.name, version: this.options.version ?? "1.0.0" },
      // logging: tools log through their ToolContext, at the level the client sets.
      { capabilities: { tools: { listChanged: true }, logging: {} }, instructions: this.options.instructions },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: (this.listing ??= [...this.registered.values()].map((t) => t.definition)) }));
    server.setRequestHandler(ToolsCallMethod, (raw, extra) => {
      const request = raw as CallToolRequest; // checked by the SDK's Server before this runs
      const tool = this.registered.get(request.params.name);
      // Unknown tool: a JSON-RPC error (-32602), not a tool result. (McpError would prefix its code to the message.)
      if (!tool) throw Object.assign(new Error(`Unknown tool: ${request.params.name}`), { code: ErrorCode.InvalidParams });
      if (this.closing) throw Object.assign(new Error("The server is shutting down"), { code: ErrorCode.ConnectionClosed });
      const answer = tool.call(request.params.arguments ?? {}, extra, server);
      // A synchronous tool is answered within this turn, before close() would look (it waits a turn).
      return answer instanceof Promise ? this.track(answer) : answer;
    });
    const onclose = server.onclose;
    server.onclose = () => {
      this.sessions.delete(server);
      onclose?.();
    };
    this.sessions.add(server);
    return server;
  }

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
    if (typeof fn !== "function") throw new TypeError(`typemcp: mcp.tool takes a function, got ${typeof fn}`);
    // `mcp.tool(fn, manifest.get_weather)`: a contract from `typemcp manifest` in the options' place.
    if (compiled === undefined && isContract(options)) [options, compiled] = [{}, options];
    const tool = new RegisteredTool(fn, (options as ToolOptions | undefined) ?? {}, checkContract(fn, compiled));
    if (this.registered.has(tool.name)) throw new Error(`typemcp: a tool named ${JSON.stringify(tool.name)} is already registered`);
    this.registered.set(tool.name, tool);
    this.listing = undefined;
    for (const server of this.sessions) if (server.transport) void server.sendToolListChanged().catch(() => undefined);
  }

  /**
   * Registers every method of `instance` marked with `@tool()`, bound to the instance.
   * Throws when it has none (a class whose decorators did not run, or the wrong object).
   */
  tools(instance: object): void {
    const marked = markedMethods(instance);
    if (marked.length === 0) throw new Error(`typemcp: mcp.tools() found no @tool() methods on ${instance?.constructor?.name ?? typeof instance}`);
    for (const { method, options, compiled } of marked) {
      const fn = (instance as Record<string | symbol, unknown>)[method];
      if (typeof fn !== "function") throw new Error(`typemcp: ${String(method)} is marked with @tool() but is not a method`);
      const bound = fn.bind(instance);
      Object.defineProperty(bound, "name", { value: String(method) });
      this.tool(bound as ToolFunction, options, compiled);
    }
  }

  /** Serves over any SDK transport (tests use the SDK's InMemoryTransport). */
  async connect(transport: Transport): Promise<void> {
    await this.server.connect(transport);
    this.sessions.add(this.server);
    this.warmUp();
    // The SDK drops a line it cannot read without a word; JSON-RPC answers it (id null), and
    // the server goes on serving either way.
    this.server.onerror = (error) => {
      const code = error instanceof SyntaxError ? -32700 : error.name === "ZodError" ? -32600 : undefined;
      if (code === undefined) return;
      const message = code === -32700 ? "Parse error: the line is not JSON" : "Invalid Request: the message is not JSON-RPC 2.0";
      void transport.send({ jsonrpc: "2.0", id: null, error: { code, message } } as never).catch(() => undefined);
    };
  }

  /**
   * Serves over stdio (the default) or Streamable HTTP (`{ transport: "http", port }`, with
   * `stateless: true` for servers behind a load balancer). On SIGTERM / SIGINT (and, on stdio,
   * when the client closes stdin) the process exits once the calls in flight are answered.
   * Resolves when the server is listening; with HTTP, to the address it listens on.
   */
  async run(options: RunOptions = {}): Promise<{ port?: number }> {
    const exit = () => void this.close().finally(() => process.exit(0));
    process.once("SIGTERM", exit);
    process.once("SIGINT", exit);
    const transport = options.transport ?? "stdio";
    if (transport === "stdio") {
      process.stdin.once("end", exit);
      await this.connect(new StdioServerTransport());
      return {};
    }
    if (transport !== "http") throw new Error(`typemcp: unknown transport ${JSON.stringify(transport)}: use "stdio" or "http"`);
    // Loaded here, not at start-up: the SDK's HTTP transport takes longer to load than all of
    // typemcp's own runtime, and a stdio server never needs it.
    const { serveHttp } = require("./http") as typeof import("./http");
    this.http = await serveHttp(() => this.session(), options as HttpOptions);
    this.warmUp();
    const address = this.http.address();
    return { port: typeof address === "object" && address ? address.port : undefined };
  }

  /** Stops taking calls, waits for the ones in flight to be answered, then closes every connection. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
    // The last answers are written a few promise steps after their calls settle.
    await new Promise((resolve) => setImmediate(resolve));
    await Promise.allSettled([...this.sessions].map((server) => server.close()));
    if (this.http) {
      const closed = new Promise((resolve) => this.http!.close(resolve));
      this.http.closeAllConnections(); // keep-alive and event streams would hold close() open
      await closed;
    }
  }

  /**
   * Readies the SDK's tools/call schemas at once, with or without precompile: every call needs
   * them, and a first call that comes with no idle turn before it (a client in the same
   * process) would pay the 2 to 3 ms instead. Then, unless `precompile: false`, compiles every
   * tool's validators and projector in the background, one per idle turn.
   */
  private warmUp(): void {
    if (this.warming) return;
    this.warming = true;
    warmRequestPath();
    if (this.options.precompile === false) return;
    const pending = [...this.registered.values()].flatMap((tool) => tool.preparations());
    const next = () => {
      const prepare = pending.shift();
      if (!prepare || this.closing) return;
      prepare();
      setImmediate(next).unref();
    };
    setImmediate(next).unref();
  }

  private track<T>(call: Promise<T>): Promise<T> {
    this.inFlight.add(call);
    void call.finally(() => this.inFlight.delete(call));
    return call;
  }
}
