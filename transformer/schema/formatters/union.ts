import type { JsonSchema } from "../../../contract/contract";
import type { Model } from "../../model/model";
import type { ModelFormatter } from "../formatter";
import { jsonType } from "./literal";

type Literal = string | number | boolean;

/** Literals of one JSON type as one schema: `enum` (or `const` for one), `true | false` as `boolean`. */
function literalGroup(type: string, values: Literal[]): JsonSchema {
  if (type === "boolean" && values.includes(true) && values.includes(false)) return { type: "boolean" };
  return values.length === 1 ? { type, const: values[0] } : { type, enum: values };
}

/**
 * `anyOf`, never `oneOf` (overlapping branches would make `oneOf` reject valid values).
 * Literal members of one JSON type merge into one `enum`; `null` goes last, as in
 * `T | null`, so schemas read like the types they come from.
 */
export const unionFormatter: ModelFormatter<"union"> = {
  kind: "union",
  format: (model, ctx) => {
    const groups = new Map<string, Literal[]>();
    const order: (Model | string)[] = [];
    let hasNull = false;
    for (const member of model.members) {
      const plain = member.description === undefined && member.keywords === undefined;
      if (member.kind === "null" && plain) {
        hasNull = true;
      } else if (member.kind === "literal" && plain) {
        const type = jsonType(member.value);
        if (!groups.has(type)) {
          groups.set(type, []);
          order.push(type);
        }
        groups.get(type)!.push(member.value);
      } else {
        order.push(member);
      }
    }
    const anyOf = order.map((item) =>
      typeof item === "string" ? literalGroup(item, groups.get(item)!) : ctx.format(item),
    );
    if (hasNull) anyOf.push({ type: "null" });
    return anyOf.length === 1 ? anyOf[0] : { anyOf };
  },
};
