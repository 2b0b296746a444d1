// MCP content blocks, declared here (not re-exported from the SDK, whose types are inferred
// from Zod schemas and carry no name) so that the transformer recognizes a tool returning them.

/** Hints for the client on how to use a block. */
export interface ContentAnnotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
}

interface BlockCommon {
  annotations?: ContentAnnotations;
  _meta?: Record<string, unknown>;
}

export interface TextContent extends BlockCommon {
  type: "text";
  text: string;
}

export interface ImageContent extends BlockCommon {
  type: "image";
  /** Base64. */
  data: string;
  mimeType: string;
}

export interface AudioContent extends BlockCommon {
  type: "audio";
  /** Base64. */
  data: string;
  mimeType: string;
}

export interface ResourceLink extends BlockCommon {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource's contents as text (what `resources/read` answers, and what an embedded resource holds). */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}

/** A resource's contents as bytes, base64-encoded. */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  /** Base64. */
  blob: string;
  _meta?: Record<string, unknown>;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource extends BlockCommon {
  type: "resource";
  resource: ResourceContents;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

type Bytes = Uint8Array | ArrayBuffer | string;

function base64(data: Bytes): string {
  if (typeof data === "string") return data; // already base64
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString("base64");
}

/**
 * An image content block, from bytes (a Buffer, Uint8Array or ArrayBuffer) or base64 text.
 * A tool whose declared return type is made of content blocks (and strings) answers with
 * those blocks as they are, and has no output schema.
 */
export function image(data: Bytes, mimeType: string): ImageContent {
  return { type: "image", data: base64(data), mimeType };
}

/** An audio content block, from bytes or base64 text. */
export function audio(data: Bytes, mimeType: string): AudioContent {
  return { type: "audio", data: base64(data), mimeType };
}

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

/** An MCP content block a tool built itself (text, image, audio, resource link, embedded resource). */
export function isContentBlock(value: unknown): value is ContentBlock {
  return value !== null && typeof value === "object" && CONTENT_TYPES.has((value as { type?: unknown }).type as string);
}

function text(text: string): ContentBlock {
  return { type: "text", text };
}

/**
 * The content channel (docs/rules.md), from a value already in its wire form: a string as is,
 * other scalars as JSON, an object as indented JSON, an array as one block per element
 * (nested arrays flattened, null items dropped), null as no blocks. Content blocks pass
 * through when `blocks` is set (text-only tools that build their own content).
 */
export function toContent(value: unknown, blocks = false): ContentBlock[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((item) => toContent(item, blocks));
  if (typeof value === "string") return [text(value)];
  if (typeof value !== "object") return [text(JSON.stringify(value))];
  if (blocks && isContentBlock(value)) return [value];
  return [text(JSON.stringify(value, null, 2))];
}
