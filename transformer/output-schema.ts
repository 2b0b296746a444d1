import type { JsonSchema } from "../runtime/contract";
import type { Definition, Model, ObjectModel } from "./model/model";
import { SchemaWriter } from "./schema/writer";

export interface OutputSchema {
  schema: JsonSchema;
  /** Results travel as `{"result": value}`. */
  wrapped: boolean;
}

/** The object a return type is, if it is one whose keys are strings (so it can be the root as is). */
function rootObject(model: Model): { object: ObjectModel; definition?: Definition } | undefined {
  const definition = model.kind === "ref" ? model.definition : undefined;
  const object = definition ? definition.model : model;
  if (object.kind !== "object" || object.keys === "number") return undefined;
  return { object, definition };
}

function withDefinitions(schema: JsonSchema, writer: SchemaWriter): JsonSchema {
  const defs = writer.definitions();
  if (defs) schema.$defs = defs;
  return schema;
}

/**
 * DESIGN §3: an object whose keys are strings is the output schema itself, titled with its
 * type name (`<tool>DictOutput` for an anonymous `Record<string, T>`, `<tool>Output` for an
 * anonymous object type); everything else (scalars, arrays, tuples, unions, numeric-keyed
 * records, void) is wrapped as `{"result": ...}` under a `<tool>Output` object, because the
 * root of an output schema must be an object.
 */
export function outputSchema(toolName: string, model: Model): OutputSchema {
  const root = rootObject(model);
  if (root) {
    const writer = new SchemaWriter(root.definition);
    const { object, definition } = root;
    const title = definition ? definition.title : object.properties.length === 0 && object.additional ? `${toolName}DictOutput` : `${toolName}Output`;
    const schema: JsonSchema = { title, ...writer.format(object) };
    return { schema: withDefinitions(schema, writer), wrapped: false };
  }
  const writer = new SchemaWriter();
  const schema: JsonSchema = {
    type: "object",
    title: `${toolName}Output`,
    properties: { result: writer.format(model) },
    required: ["result"],
  };
  return { schema: withDefinitions(schema, writer), wrapped: true };
}
