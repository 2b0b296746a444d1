import type { ModelFormatter } from "../formatter";

/** Any JSON value: the empty schema (never `true`: no boolean sub-schemas, for older validators). */
export const anyFormatter: ModelFormatter<"any"> = { kind: "any", format: () => ({}) };

/**
 * Unsupported types never reach a published schema: the tool's walk reports them and the
 * schema is dropped (output) or the build fails (input). This keeps the writer total.
 */
export const unsupportedFormatter: ModelFormatter<"unsupported"> = { kind: "unsupported", format: () => ({}) };
