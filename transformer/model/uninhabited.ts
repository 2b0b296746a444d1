import type { Model } from "./model";

/** Whether a model is of a type with no values (`never`, `[never]`, `{ a: never }`): see the model's `uninhabited`. */
export function isUninhabited(model: Model): boolean {
  const resolved = model.kind === "ref" ? model.definition.model : model;
  return resolved.kind === "unsupported" && resolved.uninhabited === true;
}
