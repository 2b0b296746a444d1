import type { ModelFormatter } from "../writer";

export const arrayFormatter: ModelFormatter<"array"> = {
  kind: "array",
  format: (model, ctx) => ({ type: "array", items: ctx.format(model.items) }),
};
