import type { JsonSchema } from "../../contract/contract";
import type { Definition, Model, ObjectModel } from "../model/model";
import { formatters } from "./formatters";
import { SchemaWriter } from "./writer";

/** The object a model is, if it can be a schema's root as is: an object (or a named one) whose keys are strings. */
export function rootObject(model: Model): { object: ObjectModel; definition?: Definition } | undefined {
  const definition = model.kind === "ref" ? model.definition : undefined;
  const object = definition ? definition.model : model;
  if (object.kind !== "object" || object.numberKeys) return undefined;
  return { object, definition };
}

/**
 * A root schema: `head` (type, title, ...) first, then what `body` formats with the writer,
 * then the `$defs` it reached. A named root is written in place, and refers to itself as `#`.
 */
export function writeRoot(head: JsonSchema, body: (writer: SchemaWriter) => JsonSchema, root?: Definition): JsonSchema {
  const writer = new SchemaWriter(formatters, root);
  const schema: JsonSchema = { ...head, ...body(writer) };
  const defs = writer.definitions();
  if (defs) schema.$defs = defs;
  return schema;
}
