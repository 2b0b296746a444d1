import type { ModelFormatter } from "../formatter";

export const refFormatter: ModelFormatter<"ref"> = {
  kind: "ref",
  format: (model, ctx) => ctx.refTo(model.definition),
};
