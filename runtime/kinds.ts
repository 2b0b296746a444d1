/**
 * What `mcp.prompt` and `mcp.resource` accept and what their functions may return: the public
 * types of the kinds beside tools (a tool's are in tool.ts). The transformer finds registrations
 * by these methods' declarations; TypeScript itself checks a prompt's return type against
 * PromptResult, so a prompt that returns something else does not compile.
 */
import type {
  AudioContent,
  ContentAnnotations,
  EmbeddedResource,
  ImageContent,
  ResourceContents,
  ResourceLink,
  TextContent,
} from "./content";

/** An icon a client may show beside a prompt, resource or tool. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

/** What a completion function gives: the values, or the values with how many there are in all. */
export type CompletionValues =
  | readonly (string | number | boolean)[]
  | { values: readonly (string | number | boolean)[]; total?: number; hasMore?: boolean };

/**
 * Completes one argument of a prompt or one variable of a resource template, for
 * `completion/complete`: `value` is what the user has typed so far, `context.arguments` the
 * other arguments already given (as text). At most 100 values are sent; `total` and `hasMore`
 * say how many there are.
 */
export type Completer = (
  value: string,
  context: { arguments: Record<string, string> },
) => CompletionValues | Promise<CompletionValues>;

/** A block a prompt message can hold. */
export type PromptContent = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** One message of a prompt. */
export interface PromptMessage {
  role: "user" | "assistant";
  content: PromptContent;
}

/**
 * What a prompt function returns: a string (one user message), a content block (one user
 * message), a message, a list of those, or the messages with a description.
 */
export type PromptResult =
  | string
  | PromptContent
  | PromptMessage
  | readonly (string | PromptContent | PromptMessage)[]
  | { description?: string; messages: readonly PromptMessage[] };

// Any parameters: a prompt's or resource's parameters are whatever its author declared.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PromptFunction = (...args: any[]) => PromptResult | Promise<PromptResult>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ResourceFunction = (...args: any[]) => unknown;

/** What `mcp.prompt(fn, options)` accepts besides the function. */
export interface PromptOptions {
  /** The prompt's name; default: the function's name. */
  name?: string;
  /** A human-readable display name. */
  title?: string;
  /** Default: the function's JSDoc comment. */
  description?: string;
  icons?: Icon[];
  /**
   * Completion for arguments, by parameter name. An argument whose type is a union of string
   * literals (or an enum, or boolean) completes from its values with no code; a function here
   * takes precedence.
   */
  complete?: Record<string, Completer>;
  /**
   * OAuth scopes a call needs, over HTTP with `auth`: a token without them gets 403
   * `insufficient_scope` naming them, and the client may ask for a token that has them. The
   * prompt stays in `prompts/list` for everyone (docs/deployment.md#authentication).
   */
  scopes?: string[];
}

/** A resource as `resources/list` shows it: what a template's `list` function returns. */
export interface ResourceListing {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: ContentAnnotations;
  icons?: Icon[];
}

/** How long a 2026-07-28 client, or a shared cache, may keep an answer (`ttlMs`, `cacheScope`). */
export interface CacheHint {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** What `mcp.resource(uri, fn, options)` accepts besides the URI and the function. */
export interface ResourceOptions {
  /** The resource's name in `resources/list`; default: the function's name. */
  name?: string;
  /** A human-readable display name. */
  title?: string;
  /** Default: the function's JSDoc comment. */
  description?: string;
  /** Default: from the return type (`text/plain` for a string, `application/octet-stream` for bytes, `application/json` for data). */
  mimeType?: string;
  annotations?: ContentAnnotations;
  icons?: Icon[];
  /** The size in bytes, when known, for `resources/list`. */
  size?: number;
  /** For a template: the resources it has now, listed in `resources/list`. */
  list?: () => readonly ResourceListing[] | Promise<readonly ResourceListing[]>;
  /**
   * For a template: completion for variables, by parameter name. A variable whose type is a
   * union of string literals completes from its values with no code.
   */
  complete?: Record<string, Completer>;
  /** How long 2026-07-28 clients may keep what `resources/read` answers (default: not kept, `ttlMs: 0`, private). */
  cache?: CacheHint;
  /**
   * OAuth scopes a call needs, over HTTP with `auth`: a token without them gets 403
   * `insufficient_scope` naming them, and the client may ask for a token that has them. The
   * resource stays in its list for everyone (docs/deployment.md#authentication).
   */
  scopes?: string[];
}

export type { ResourceContents };
