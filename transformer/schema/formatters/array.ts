import type { ModelFormatter } from "../formatter";

export const arrayFormatter: ModelFormatter<"array"> = {
  kind: "array",
  format: (model, ctx) => ({ type: "array", items: ctx.format(model.items) }),
};
