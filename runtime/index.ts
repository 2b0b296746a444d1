/**
 * typemcp's runtime: `MCPServer` serves tools whose schemas the typemcp transformer
 * (`typemcp/transformer`, a ts-patch plugin) computed from their types at build time.
 */
export { MCPServer, type RunOptions, type ServerOptions } from "./server";
export type { ToolFunction, ToolOptions } from "./tool";
export { CONTRACT_VERSION, type JsonSchema, type ToolContract } from "./contract";

/**
 * A whole number: published as `"type": "integer"` and validated as one. At the type level
 * it is a `number` (any number is assignable to it); the tag is read by the transformer.
 */
export type Integer = number & { readonly "typemcp.tag"?: { readonly type: "integer" } };
