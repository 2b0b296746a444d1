import type { Server, Transport } from "@modelcontextprotocol/server";
import type { StdioServerHandle } from "@modelcontextprotocol/server/stdio";
import { RequestStates } from "./ask/state";
import { ScopeTable } from "./auth/scopes";
import type { Hooks } from "./call/function";
import {
  CONTRACT_VERSION,
  type Contract,
  type PromptContract,
  type ResourceContract,
  type ToolContract,
} from "../contract/contract";
import { markedMethods } from "./decorators";
import { CallSite, FaultLog } from "./faults";
import type { HttpEndpoint, HttpHandlerOptions, ServedEndpoint } from "./http";
import { DEFAULT_LIST_CACHE, Instances } from "./instance";
import type { CacheHint, PromptFunction, PromptOptions, ResourceFunction, ResourceOptions } from "./kinds";
import { Lifecycle } from "./lifecycle";
import type { HttpOptions } from "./node-http";
import { RegisteredPrompt } from "./prompt";
import { Registry } from "./registry";
import { RegisteredResource } from "./resource";
import { catchUnhandledRejections } from "./background";
import { RegisteredTool, type ToolFunction, type ToolOptions } from "./tool";

/**
 * typemcp's stdio module, loaded when a connection is first served: it extends `node:events`'
 * EventEmitter, which a Cloudflare Worker's bundle has no module for, so `mcp.handler()` there
 * must not load it (docs/deployment.md, "Cloudflare Workers").
 */
function stdioModule(): typeof import("./stdio") {
  return require("./stdio") as typeof import("./stdio");
}

export interface ServerOptions {
  /** The server's version, in `server/discover` and `initialize`. Default "1.0.0". */
  version?: string;
  /** Instructions for the client's model, in `server/discover` and `initialize`. */
  instructions?: string;
  /**
   * How long a 2026-07-28 client, or a shared cache, may keep the lists it got (`ttlMs`,
   * `cacheScope`): `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`
   * and `server/discover`. Default `{ ttlMs: 300_000, cacheScope: "public" }`: what is
   * registered is fixed when the server starts and the same for every caller, so any client or
   * shared cache may keep a list for five minutes; a registration made later is announced with
   * a list-changed notification to clients that listen, and reaches the others within that
   * time. `resources/list` of a server with a template that lists its instances (its `list`
   * option) is not kept by default (`ttlMs: 0`, private): those may change at any time.
   * `ttlMs: 0` makes every client ask again each time. (2025-11-25 clients get no cache fields.)
   */
  listCache?: CacheHint;
  /** The same for `tools/list` and `server/discover` alone, over `listCache`. */
  toolsListCache?: CacheHint;
  /**
   * How a tool whose result is not an object (a number, a list, a union...) sends it.
   * `"wrapped"` (the default, as the Python SDK does on every revision): as
   * `{"result": value}`, with an output schema of that shape, to every client. `"native"`: as the
   * value itself, with the value's own schema (any root), to 2026-07-28 clients, and wrapped
   * by the SDK for 2025-11-25 clients, whose revision requires an object.
   */
  resultShape?: "wrapped" | "native";
  /**
   * Milliseconds a shutdown (SIGTERM, SIGINT, stdin closed, `close()`) waits for the requests
   * in flight (default 10,000). The ones still running then are answered with an error, and the
   * server closes: a function that never finishes cannot keep a process from exiting (an
   * orchestrator's own grace period, 30 s in Kubernetes, is longer).
   */
  shutdownTimeout?: number;
  /**
   * Log to stderr, with the registration's name and the stack (or where it was registered),
   * what is a bug in the server's own code: an exception thrown by a tool, prompt or resource,
   * a value that breaks its declared type or cannot be sent as JSON, a token verifier
   * (`auth.verify`) that fails rather than refuse a token. The client is answered
   * with an error either way; this is for the developer. Each distinct cause is logged once.
   * Default true; stdout, where stdio's JSON-RPC goes, is never written.
   */
  logErrors?: boolean;
  /**
   * The key `requestState` is signed with: what a 2026-07-28 retry of a call that asked the
   * client something (`ctx.elicit`, `ctx.sample`, `ctx.roots`) carries of the rounds before it.
   * At least 32 bytes. Default: the TYPEMCP_REQUEST_STATE_KEY environment variable, else a
   * random key made when the server starts, which serves one process only: give every process
   * behind one endpoint the same key (docs/deployment.md).
   */
  requestStateKey?: string | Uint8Array;
  /** Seconds a `requestState` stays valid: how long a user has to answer (default 600). */
  requestStateTtl?: number;
}

const DEFAULT_SHUTDOWN_TIMEOUT = 10_000;

const NO_AUTH =
  "nothing would check them, and anyone who reaches the endpoint could call it. Pass auth (docs/deployment.md#authentication), or leave scopes out.";

export type RunOptions = { transport?: "stdio" } | HttpOptions;

const ENABLE_PLUGIN =
  'Add { "transform": "typemcp/transformer" } to "plugins" in the "compilerOptions" of your tsconfig.json, and build with tspc (from ts-patch) instead of tsc. Without the plugin, pass the tool entry of a `typemcp manifest` (it is missing if the manifest is older than the tool).';
const BUILD_WITH_TYPEMCP =
  "TypeScript 7 is installed, which runs no transformer: build with `npx typemcp build` instead of tsc (TypeScript 7's own compiler, every tool's schemas written in). Without it (esbuild, tsx, ...), pass the tool entry of a `typemcp manifest` (it is missing if the manifest is older than the tool).";

/**
 * How to build the tools, for the TypeScript the project installed (7 has no transformer API:
 * tspc cannot run there), as transformer/typescript.ts decides it: loaded for this message only,
 * so that a server loads nothing of the transformer's as it starts.
 */
function howToBuild(): string {
  try {
    const { installedTypeScript } = require("../transformer/typescript") as typeof import("../transformer/typescript");
    return installedTypeScript()?.backend === "ts7" ? BUILD_WITH_TYPEMCP : ENABLE_PLUGIN;
  } catch {
    // No TypeScript to be found (or, in a bundle, no module resolution): the plugin's way.
    return ENABLE_PLUGIN;
  }
}

function describeFunction(fn: unknown): string {
  return typeof fn === "function" && fn.name ? fn.name : "<anonymous>";
}

type Kind = "tool" | "prompt" | "resource";

function kindOf(contract: Contract): Kind {
  return contract.kind ?? "tool";
}

function isContract(value: unknown): value is Contract {
  return value !== null && typeof value === "object" && "v" in value && "params" in value;
}

/** Checks what the transformer wrote: present, of this runtime's contract version and of this kind, built without errors. */
function checkContract<C extends Contract>(where: string, kind: Kind, contract: Contract | undefined): C {
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
  if (kindOf(contract) !== kind)
    throw new Error(`typemcp: ${where} was given the contract of a ${kindOf(contract)}, not of a ${kind}`);
  return contract as C;
}

/**
 * An MCP server whose tools, prompts and resources are plain TypeScript functions. Serves
 * both protocol revisions (2026-07-28 and 2025-11-25) through the SDK's entries
 * (`serveStdio`, `createMcpHandler`), which build one low-level `Server` per connection or per
 * request: each is wired to the same registry, whose schemas came precomputed from the
 * transformer, so the lists do no work.
 */
export class MCPServer {
  private readonly registry = new Registry();
  private readonly lifecycle: Lifecycle;
  private readonly instances: Instances;
  private readonly connections = new Set<StdioServerHandle>();
  private latest?: Server;
  private http?: ServedEndpoint;
  private readonly faults?: FaultLog;
  /** Signs the state of requests that asked the client something (requestStateKey). */
  private readonly states: RequestStates;
  /** The scopes tools, prompts and resources require (their `scopes` option), checked over HTTP with `auth`. */
  private readonly scopes = new ScopeTable();
  /** Serving HTTP without `auth`: a registration with `scopes` is refused, as none could be checked. */
  private unchecked = false;

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
    if (options.resultShape !== undefined && options.resultShape !== "wrapped" && options.resultShape !== "native")
      throw new TypeError(`typemcp: resultShape is "wrapped" or "native" (got ${String(options.resultShape)})`);
    this.lifecycle = new Lifecycle(shutdownTimeout);
    this.states = new RequestStates({ key: options.requestStateKey, ttlSeconds: options.requestStateTtl });
    if (options.logErrors !== false) this.faults = new FaultLog();
    this.instances = new Instances(this.registry, this.lifecycle, {
      name,
      version: options.version ?? "1.0.0",
      instructions: options.instructions,
      toolsListCache: { ...DEFAULT_LIST_CACHE, ...options.listCache, ...options.toolsListCache },
      listCache: options.listCache && { ...DEFAULT_LIST_CACHE, ...options.listCache },
    });
    this.registry.onChange = (kind) => {
      this.instances.announce(kind);
      this.http?.changed(kind);
    };
  }

  /** Milliseconds a shutdown waits for the requests in flight (ServerOptions.shutdownTimeout). */
  get shutdownTimeout(): number {
    return this.lifecycle.shutdownTimeout;
  }

  /**
   * The SDK's low-level `Server` serving the latest stdio or `connect()` connection (undefined
   * before one opens), for anything typemcp does not wrap. Each connection, and each HTTP
   * request, is served by its own instance.
   */
  get server(): Server | undefined {
    return this.latest;
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
    this.addTool(fn, options, compiled, new CallSite(this.tool));
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
      this.addTool(bound as ToolFunction, options, compiled, site);
    }
  }

  /**
   * Registers `fn` as a prompt: its parameters are the prompt's arguments (text on the wire,
   * converted to the declared number or boolean), its JSDoc the description, and it returns
   * the prompt's messages (a string is one user message). The typemcp transformer fills in
   * `compiled` at build time; calling this on code it did not build throws.
   */
  prompt(fn: PromptFunction, options?: PromptOptions | PromptContract, compiled?: PromptContract): void {
    const site = new CallSite(this.prompt);
    if (typeof fn !== "function") throw new TypeError(`typemcp: mcp.prompt takes a function, got ${typeof fn}`);
    if (compiled === undefined && isContract(options)) [options, compiled] = [{}, options];
    const where = `mcp.prompt(${describeFunction(fn)})`;
    const contract = checkContract<PromptContract>(where, "prompt", compiled);
    const prompt = new RegisteredPrompt(fn, (options as PromptOptions | undefined) ?? {}, contract, this.hooks(site));
    this.requireScopes(prompt, (options as PromptOptions | undefined)?.scopes, where);
    this.registry.addPrompt(prompt);
  }

  /**
   * Registers `fn` as the resource at `uri`, or, when `uri` is an RFC 6570 template
   * (`"users://{id}/profile"`), as a resource template whose variables are `fn`'s parameters.
   * The declared return type decides the contents: a string is text, bytes a blob, other data
   * JSON checked against the type's schema.
   */
  resource(
    uri: string,
    fn: ResourceFunction,
    options?: ResourceOptions | ResourceContract,
    compiled?: ResourceContract,
  ): void {
    const site = new CallSite(this.resource);
    if (typeof uri !== "string") throw new TypeError(`typemcp: mcp.resource takes a URI first, got ${typeof uri}`);
    if (typeof fn !== "function") throw new TypeError(`typemcp: mcp.resource takes a function, got ${typeof fn}`);
    if (compiled === undefined && isContract(options)) [options, compiled] = [{}, options];
    const where = `mcp.resource(${JSON.stringify(uri)}, ${describeFunction(fn)})`;
    const contract = checkContract<ResourceContract>(where, "resource", compiled);
    if (contract.uri !== uri)
      throw new Error(
        `typemcp: ${where} was compiled for the URI ${JSON.stringify(contract.uri)}: rebuild the project (the URI is checked against the function's parameters at build time)`,
      );
    const resource = new RegisteredResource(
      uri,
      fn,
      (options as ResourceOptions | undefined) ?? {},
      contract,
      this.hooks(site),
    );
    this.requireScopes(resource, (options as ResourceOptions | undefined)?.scopes, where);
    this.registry.addResource(resource);
  }

  /**
   * Tells the clients subscribed to `uri` that the resource changed: 2025-11-25 clients that
   * sent `resources/subscribe` for it, and 2026-07-28 clients listening for it
   * (`subscriptions/listen` with `resourceSubscriptions`).
   */
  resourceUpdated(uri: string): void {
    this.instances.resourceUpdated(uri);
    this.http?.resourceUpdated(uri);
  }

  /**
   * Serves one connection over any SDK transport (tests use the SDK's InMemoryTransport), as
   * stdio is served: the client's first message picks the protocol revision (a 2026-07-28
   * request or `server/discover`, or a 2025-11-25 `initialize`).
   */
  async connect(transport: Transport): Promise<void> {
    this.prepare();
    const connection = stdioModule().serveConnection(transport, () => (this.latest = this.instances.create(true)));
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
   * requests in flight are answered. Resolves when the server is listening; with HTTP, to the
   * address it listens on.
   */
  async run(options: RunOptions = {}): Promise<{ port?: number; url?: string }> {
    const exit = () => void this.close().finally(() => process.exit(0));
    // The process is typemcp's to keep serving: a tool's background rejection is logged, not fatal.
    catchUnhandledRejections(this.faults);
    process.once("SIGTERM", exit);
    process.once("SIGINT", exit);
    const transport = options.transport ?? "stdio";
    if (transport === "stdio") {
      await this.connect(stdioModule().stdioTransport(exit));
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
   * Stops taking requests, waits for the ones in flight to be answered (up to `shutdownTimeout`
   * milliseconds, then answers those still running with an error), and closes every connection.
   */
  async close(): Promise<void> {
    await this.lifecycle.drain();
    await Promise.allSettled([...this.connections].map((connection) => connection.close()));
    if (this.http) await this.http.close();
    await this.instances.close();
  }

  private addTool(
    fn: ToolFunction,
    options: ToolOptions | ToolContract | undefined,
    compiled: ToolContract | undefined,
    site: CallSite,
  ): void {
    if (typeof fn !== "function") throw new TypeError(`typemcp: mcp.tool takes a function, got ${typeof fn}`);
    // `mcp.tool(fn, manifest.tools.get_weather)`: a contract from `typemcp manifest` in the options' place.
    if (compiled === undefined && isContract(options)) [options, compiled] = [{}, options];
    const contract = checkContract<ToolContract>(`mcp.tool(${describeFunction(fn)})`, "tool", compiled);
    const tool = new RegisteredTool(fn, (options as ToolOptions | undefined) ?? {}, contract, this.hooks(site), {
      resultShape: this.options.resultShape,
    });
    this.requireScopes(tool, (options as ToolOptions | undefined)?.scopes, `mcp.tool(${describeFunction(fn)})`);
    this.registry.addTool(tool);
  }

  /** Keeps a registration's `scopes` option; refuses one no request would be checked against (HTTP served without `auth`). */
  private requireScopes(registration: object, scopes: unknown, where: string): void {
    if (scopes === undefined) return;
    if (this.unchecked)
      throw new Error(`typemcp: ${where} has scopes, but this server serves HTTP without auth: ${NO_AUTH}`);
    this.scopes.set(registration, scopes, where);
  }

  private hooks(site: CallSite): Hooks {
    const faults = this.faults;
    return { site, report: faults && ((...args) => faults.report(...args)), states: this.states };
  }

  /**
   * Makes the first tool's validators as the server starts serving. A tool's validators are made on
   * its first call; in a fresh process the first of them also runs the validation's own code for
   * the first time (V8 compiles it then), which costs that call about a millisecond more.
   * Made here, that millisecond is part of the start.
   */
  private prepare(): void {
    // A tool keeps its validators once made: a second connection finds them made.
    this.registry.tools.values().next().value?.prepare();
  }

  private endpoint(options: HttpHandlerOptions): ServedEndpoint {
    if (this.http)
      throw new Error("typemcp: this server already serves HTTP (mcp.run with HTTP, or mcp.handler(), is called once)");
    if (!options.auth && this.scopes.any)
      throw new Error(
        `typemcp: registrations require the scopes ${[...this.scopes.named].join(", ")}, but HTTP is served without auth: ${NO_AUTH}`,
      );
    this.unchecked = !options.auth;
    this.prepare();
    return (this.http = this.httpModule().createEndpoint(
      {
        perRequest: () => this.instances.create(false),
        session: () => this.instances.create(true),
        closing: () => this.lifecycle.closing,
        scopes: {
          neededFor: (request) => this.scopes.neededFor(this.registry, request),
          named: () => this.scopes.named,
        },
        verifierFailed: (error) => this.faults?.verifier(error),
      },
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
}
