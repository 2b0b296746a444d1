import type { JsonSchema } from "../contract/contract";
import type { Model } from "./model/model";
import { rootObject, writeRoot } from "./schema/root";

export interface OutputSchema {
  schema: JsonSchema;
  /** Results travel as `{"result": value}`. */
  wrapped: boolean;
}

/**
 * The wrapping rules of docs/rules.md ("Output schema"): an object whose keys are strings is
 * the output schema itself, titled with its type name (`<tool>DictOutput` for an anonymous
 * `Record<string, T>`, `<tool>Output` for an anonymous object type); everything else (scalars,
 * arrays, tuples, unions, numeric-keyed records, the empty object type, void) is wrapped as
 * `{"result": ...}` under a `<tool>Output` object, because the root of an output schema must
 * be an object.
 */
export function outputSchema(toolName: string, model: Model): OutputSchema {
  const root = rootObject(model);
  if (root) {
    const { object, definition } = root;
    const title = definition
      ? definition.title
      : object.properties.every((p) => p.absent) && object.additional
        ? `${toolName}DictOutput`
        : `${toolName}Output`;
    return { schema: writeRoot({ title }, (writer) => writer.format(object), definition), wrapped: false };
  }
  const schema = writeRoot({ type: "object", title: `${toolName}Output` }, (writer) => ({
    properties: { result: writer.format(model) },
    required: ["result"],
  }));
  return { schema, wrapped: true };
}
