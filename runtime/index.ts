/**
 * typemcp's runtime: `MCPServer` serves tools whose schemas the typemcp transformer
 * (`typemcp/transformer`, a ts-patch plugin) computed from their types at build time.
 */
export { MCPServer, type RunOptions, type ServerOptions } from "./server";
export type { ToolFunction, ToolOptions } from "./tool";
export type { HttpEndpoint, HttpHandlerOptions } from "./http";
export type { HttpOptions } from "./node-http";
export type { ToolClient, ToolContext } from "./context";
export { tool } from "./decorators";
export {
  audio,
  image,
  type AudioContent,
  type ContentAnnotations,
  type ContentBlock,
  type EmbeddedResource,
  type ImageContent,
  type ResourceLink,
  type TextContent,
} from "./content";
export { CONTRACT_VERSION, type DateNode, type DatePlan, type JsonSchema, type ToolContract } from "./contract";
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
