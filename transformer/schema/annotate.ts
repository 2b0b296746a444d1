import type { JsonSchema } from "../../contract/contract";
import type { Annotations } from "../model/model";

/** A node's description and keywords, added to its schema. */
export function annotate(schema: JsonSchema, annotations: Annotations): JsonSchema {
  if (annotations.description !== undefined) schema.description = annotations.description;
  if (annotations.keywords) Object.assign(schema, annotations.keywords);
  return schema;
}
