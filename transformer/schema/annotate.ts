/** Writing into schemas and the records they hold, for the formatters and the compile steps alike. */
import type { JsonSchema } from "../../runtime/contract";
import type { Annotations } from "../model/model";

/**
 * `record[key] = value`, as an own property for every key: assigning to `"__proto__"` would
 * set the record's prototype instead (`{ "__proto__": string }` is a valid TypeScript type).
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** A node's description and keywords, added to its schema. */
export function annotate(schema: JsonSchema, annotations: Annotations): JsonSchema {
  if (annotations.description !== undefined) schema.description = annotations.description;
  if (annotations.keywords) Object.assign(schema, annotations.keywords);
  return schema;
}
