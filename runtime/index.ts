/**
 * typemcp's runtime: `MCPServer` serves tools whose schemas the typemcp transformer
 * (`typemcp/transformer`, a ts-patch plugin) computed from their types at build time.
 */
export { MCPServer, type RunOptions, type ServerOptions } from "./server";
export type { ToolFunction, ToolOptions } from "./tool";
export type { HttpEndpoint, HttpHandlerOptions } from "./http";
export type { HttpOptions } from "./node-http";
export type { ToolClient, ToolContext } from "./context";
export type { AuthOptions, TokenVerifier } from "./auth/options";
export { jwt, type JwtOptions } from "./auth/jwt";
/** What a verified access token grants (`ctx.authInfo`); `OAuthError` refuses a token in a verifier of your own. */
export { OAuthError, OAuthErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
export type {
  AskKind,
  AskOptions,
  Elicitation,
  Root,
  SampleOptions,
  SamplingRequest,
  SamplingResult,
  UrlElicitation,
} from "./ask/kinds";
export { tool } from "./decorators";
export {
  audio,
  image,
  type AudioContent,
  type ContentAnnotations,
  type ContentBlock,
  type EmbeddedResource,
  type ImageContent,
  type BlobResourceContents,
  type ResourceContents,
  type ResourceLink,
  type TextContent,
  type TextResourceContents,
} from "./content";
export {
  CONTRACT_VERSION,
  type Contract,
  type DateNode,
  type FormContract,
  type DatePlan,
  type JsonSchema,
  type Manifest,
  type PromptContract,
  type ResourceContract,
  type ToolContract,
} from "../contract/contract";
export type {
  CacheHint,
  Completer,
  CompletionValues,
  Icon,
  PromptContent,
  PromptFunction,
  PromptMessage,
  PromptOptions,
  PromptResult,
  ResourceFunction,
  ResourceListing,
  ResourceOptions,
} from "./kinds";
export type {
  ExclusiveMaximum,
  ExclusiveMinimum,
  Format,
  Integer,
  KnownFormat,
  MaxItems,
  MaxLength,
  Maximum,
  MinItems,
  MinLength,
  Minimum,
  MultipleOf,
  Pattern,
  Tag,
  UniqueItems,
} from "./tags";
/** Thrown by a resource function for a URI it has nothing at: the client gets the spec's not-found error (-32602, with the URI). */
export { ResourceNotFoundError } from "@modelcontextprotocol/server";
