import type { ModelFormatter } from "../formatter";

export function jsonType(value: string | number | boolean): "string" | "number" | "boolean" {
  return typeof value as "string" | "number" | "boolean";
}

export const literalFormatter: ModelFormatter<"literal"> = {
  kind: "literal",
  format: (model) => ({ type: jsonType(model.value), const: model.value }),
};
