/**
 * What a tool (or a prompt, or a resource) can ask the client in the middle of a call, and what
 * it gets back: the public types of `ctx.elicit`, `ctx.elicitUrl`, `ctx.sample` and `ctx.roots`.
 * How an ask travels (a request over the connection on 2025-11-25, an `input_required` answer
 * and a retry on 2026-07-28) is runtime/ask/asking.ts's; docs/asking.md says it for users.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  Root,
} from "@modelcontextprotocol/server";

/** What every ask accepts. */
export interface AskOptions {
  /**
   * The question's key among the call's questions (`inputRequests`' key on 2026-07-28). Default:
   * the kind and the ask's place in the call (`elicit-1`, `sample-2`, ...). A key must be unique
   * within one call.
   */
  key?: string;
}

/** The user's answer to `ctx.elicit<T>()`: the form filled in (checked against `T`), or declined, or dismissed. */
export type Elicitation<T> = { action: "accept"; content: T } | { action: "decline" } | { action: "cancel" };

/** The user's answer to `ctx.elicitUrl()`: whether they agreed to open the URL (what happens there is between them and the site). */
export interface UrlElicitation {
  action: "accept" | "decline" | "cancel";
}

/** A `sampling/createMessage` request, as the protocol defines it. */
export type SamplingRequest = CreateMessageRequestParams;

/** What `ctx.sample(prompt, options)` accepts besides the prompt: `maxTokens` is required by the protocol. */
export interface SampleOptions extends AskOptions {
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
}

/** The client's model's answer to `ctx.sample()`. */
export type SamplingResult = CreateMessageResult | CreateMessageResultWithTools;

/** What `ctx.can(kind)` asks about: whether the client declared it can answer that kind of question. */
export type AskKind = "elicit" | "elicitUrl" | "sample" | "roots";

export type { Root };
