import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";

const CONTENT_TYPES = new Set(["text", "image", "audio", "resource_link", "resource"]);

/** An MCP content block a tool built itself (text, image, audio, resource link, embedded resource). */
export function isContentBlock(value: unknown): value is ContentBlock {
  return value !== null && typeof value === "object" && CONTENT_TYPES.has((value as { type?: unknown }).type as string);
}

function text(text: string): ContentBlock {
  return { type: "text", text };
}

/**
 * The content channel (DESIGN §4), from a value already in its wire form: a string as is,
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
