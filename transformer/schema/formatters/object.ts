import type { JsonSchema } from "../../../runtime/contract";
import type { ModelFormatter } from "../writer";

export const objectFormatter: ModelFormatter<"object"> = {
  kind: "object",
  format: (model, ctx) => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of model.properties) {
      const schema = ctx.format(property.model);
      properties[property.name] = property.description === undefined ? schema : { ...schema, description: property.description };
      if (property.required) required.push(property.name);
    }
    const schema: JsonSchema = { type: "object" };
    // A pure dictionary (`Record<string, T>`) is `additionalProperties` alone, as DESIGN §3 shows it.
    if (model.properties.length || !model.additional) schema.properties = properties;
    if (required.length) schema.required = required;
    // Exact, as TypeScript is with an object literal: no keys but the declared ones. (Results
    // never fail on this: the runtime sends only declared properties, see runtime/wire.ts.)
    schema.additionalProperties = model.additional ? ctx.format(model.additional) : false;
    return schema;
  },
};
