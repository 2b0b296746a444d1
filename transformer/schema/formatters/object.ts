import type { JsonSchema } from "../../../contract/contract";
import { setOwn } from "../../../contract/own";
import { annotate } from "../annotate";
import type { ModelFormatter } from "../formatter";

export const objectFormatter: ModelFormatter<"object"> = {
  kind: "object",
  format: (model, ctx) => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of model.properties) {
      // Never present (`a?: undefined`): not declared, so the closed object refuses the key.
      if (property.absent) continue;
      // The property's own description and keywords go on a copy: the model is shared.
      setOwn(properties, property.name, annotate({ ...ctx.format(property.model) }, property));
      if (property.required) required.push(property.name);
    }
    const schema: JsonSchema = { type: "object" };
    // A pure dictionary (`Record<string, T>`) is `additionalProperties` alone, as docs/rules.md shows it.
    if (Object.keys(properties).length || (!model.additional && !model.patterns)) schema.properties = properties;
    if (required.length) schema.required = required;
    // Exact, as TypeScript is with an object literal: no keys but the declared ones. (Results
    // never fail on this: the runtime sends only declared properties, see runtime/validation/.)
    if (model.patterns) {
      schema.patternProperties = Object.fromEntries(
        model.patterns.map(({ pattern, model }) => [pattern, ctx.format(model)]),
      );
    }
    schema.additionalProperties = model.additional ? ctx.format(model.additional) : false;
    // `Record<number, T>`: an array of T is one too, to TypeScript (its keys are numbers).
    if (model.numberKeys && model.properties.every((p) => p.absent)) {
      return { anyOf: [schema, { type: "array", items: ctx.format(model.patterns![0].model) }] };
    }
    return schema;
  },
};
