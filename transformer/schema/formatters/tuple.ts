import type { JsonSchema } from "../../../contract/contract";
import type { ModelFormatter } from "../formatter";

/**
 * `prefixItems` + `minItems` + `maxItems`, and a rest element as `unevaluatedItems`: exact
 * under 2020-12, while a draft-07 validator (which knows neither keyword) only checks the
 * length bounds and so never rejects a valid tuple. (`items` for the rest would be read by
 * draft-07 as the schema of every element, the first ones included.)
 */
export const tupleFormatter: ModelFormatter<"tuple"> = {
  kind: "tuple",
  format: (model, ctx) => {
    const schema: JsonSchema = { type: "array" };
    if (model.elements.length) schema.prefixItems = model.elements.map((e) => ctx.format(e));
    schema.minItems = model.minItems;
    if (model.rest) schema.unevaluatedItems = ctx.format(model.rest);
    else schema.maxItems = model.elements.length;
    return schema;
  },
};
