import type { ModelFormatter } from "../formatter";

export const stringFormatter: ModelFormatter<"string"> = { kind: "string", format: () => ({ type: "string" }) };
export const numberFormatter: ModelFormatter<"number"> = { kind: "number", format: () => ({ type: "number" }) };
export const integerFormatter: ModelFormatter<"integer"> = { kind: "integer", format: () => ({ type: "integer" }) };
export const booleanFormatter: ModelFormatter<"boolean"> = { kind: "boolean", format: () => ({ type: "boolean" }) };
export const nullFormatter: ModelFormatter<"null"> = { kind: "null", format: () => ({ type: "null" }) };
