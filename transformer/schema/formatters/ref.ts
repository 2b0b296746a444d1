import type { ModelFormatter } from "../writer";

export const refFormatter: ModelFormatter<"ref"> = {
  kind: "ref",
  format: (model, ctx) => ctx.refTo(model.definition),
};
