import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
  type AuthInfo,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Asking } from "./ask/asking";
import { questions } from "./ask/questions";
import type {
  AskKind,
  AskOptions,
  Elicitation,
  Root,
  SampleOptions,
  SamplingRequest,
  SamplingResult,
  UrlElicitation,
} from "./ask/kinds";

/** Who is calling: what the client said of itself, on either protocol revision. */
export interface ToolClient {
  /** The client's name and version (`clientInfo`). */
  readonly info?: Implementation;
  /** The capabilities the client declared. */
  readonly capabilities?: ClientCapabilities;
  /** The protocol revision of this call: `2026-07-28`, or the one negotiated by `initialize` (`2025-11-25`, ...). */
  readonly protocolVersion?: string;
}

/**
 * What a tool may know of the call it serves. A parameter of this type is not a tool
 * argument: the transformer leaves it out of the input schema and the runtime passes it.
 *
 * ```ts
 * async function crawl(url: string, ctx: ToolContext): Promise<string[]> {
 *   await ctx.reportProgress(1, 10, "fetching");
 *   if (ctx.signal.aborted) return [];
 * }
 * ```
 */
export interface ToolContext {
  /** Aborted when the client cancels the call (`notifications/cancelled`), the connection closes, or the tool's timeout expires. */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the call. */
  readonly requestId: string | number;
  /** The client: on 2026-07-28 from the call's own `_meta`, on 2025-11-25 from `initialize`. */
  readonly client: ToolClient;
  /**
   * The request's verified access token, over HTTP with `auth`: its client, scopes, expiry,
   * and (from `jwt()`) its claims in `extra`. Undefined without `auth` (stdio, `connect()`).
   */
  readonly authInfo?: AuthInfo;
  /** Sends `notifications/progress` when the client asked for progress (a progressToken); does nothing otherwise. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends `notifications/message` at `level`, unless the client asked for a higher one: per call
   * on 2026-07-28 (the request's log level), with `logging/setLevel` on 2025-11-25.
   */
  log(level: LoggingLevel, data: unknown): Promise<void>;
  /**
   * Asks the user to fill in a form whose schema typemcp writes at build time from `T` (a flat
   * object of strings, numbers, booleans and enums: docs/asking.md). The answer is checked
   * against `T` before the call goes on. On 2026-07-28 the call runs again from the start once
   * the client has the answers: see docs/asking.md for what that means for side effects.
   */
  elicit<T extends object>(message: string, options?: AskOptions): Promise<Elicitation<T>>;
  /** Asks the user to open a URL (URL-mode elicitation: a sign-in, a payment page). */
  elicitUrl(message: string, url: string, options?: AskOptions): Promise<UrlElicitation>;
  /** Asks the client's model (`sampling/createMessage`): one user message, or a whole request. */
  sample(prompt: string, options: SampleOptions): Promise<SamplingResult>;
  sample(request: SamplingRequest, options?: AskOptions): Promise<SamplingResult>;
  /** The client's roots (`roots/list`). */
  roots(options?: AskOptions): Promise<Root[]>;
  /** Whether the client declared it can answer this kind of question (a question it cannot answer fails the call). */
  can(kind: AskKind): boolean;
}

/** The context of one call; `signal` is the call's own, or that combined with the tool's timeout. */
export function toolContext(
  server: Server,
  toolName: string,
  ctx: ServerContext,
  signal: AbortSignal,
  asking: Asking,
): ToolContext {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  // Typed {} by the SDK: its keys are the reserved `io.modelcontextprotocol/*` names.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = () =>
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
  return {
    signal,
    requestId: ctx.mcpReq.id,
    // Read when asked: most tools never look.
    get client(): ToolClient {
      return {
        info: (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion(),
        capabilities: capabilities(),
        protocolVersion:
          (envelope?.[PROTOCOL_VERSION_META_KEY] as string | undefined) ?? server.getNegotiatedProtocolVersion(),
      };
    },
    authInfo: ctx.http?.authInfo,
    reportProgress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await ctx.mcpReq.notify({
        method: "notifications/progress",
        params: { progressToken, progress, total, message },
      });
    },
    log: (level, data) => ctx.mcpReq.log(level, data, toolName),
    ...questions(asking, capabilities),
  };
}
