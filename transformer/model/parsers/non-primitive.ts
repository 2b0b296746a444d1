import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

/**
 * The `object` type: any non-primitive, which in JSON is an object (any keys, any values) or
 * an array. Not `{}`: TypeScript refuses a string, a number, a boolean and null for it.
 */
export const nonPrimitiveParser: TypeParser = {
  construct: "object (the non-primitive type)",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.NonPrimitive) !== 0,
  parse: () => ({
    kind: "union",
    members: [
      { kind: "object", properties: [], additional: { kind: "any" } },
      { kind: "array", items: { kind: "any" } },
    ],
  }),
};
