import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

/** `string`, `number`, `boolean`. (`boolean` is the union `true | false` to the checker; it is caught here first.) */
export const primitiveParser: TypeParser = {
  construct: "string / number / boolean",
  supports: (type, ctx) => (ctx.checker.flags(type) & (TypeFlags.String | TypeFlags.Number | TypeFlags.Boolean)) !== 0,
  parse: (type, ctx) => {
    const flags = ctx.checker.flags(type);
    if (flags & TypeFlags.String) return { kind: "string" };
    if (flags & TypeFlags.Number) return { kind: "number" };
    return { kind: "boolean" };
  },
};
