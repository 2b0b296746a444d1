import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { LoggingLevel, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";

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
  /** Aborted when the client cancels the call (`notifications/cancelled`) or the connection closes. */
  readonly signal: AbortSignal;
  /** The JSON-RPC id of the call. */
  readonly requestId: string | number;
  /** Sends `notifications/progress` when the client asked for progress (a progressToken); does nothing otherwise. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message` at `level`, unless the client set a higher level with `logging/setLevel`. */
  log(level: LoggingLevel, data: unknown): Promise<void>;
}

export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The context of one call; `signal` is the call's own, or that combined with the tool's timeout. */
export function toolContext(server: Server, toolName: string, extra: RequestExtra, signal: AbortSignal): ToolContext {
  const progressToken = extra._meta?.progressToken;
  return {
    signal,
    requestId: extra.requestId,
    reportProgress: async (progress, total, message) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, total, message } });
    },
    log: (level, data) => server.sendLoggingMessage({ level, logger: toolName, data }, extra.sessionId),
  };
}
