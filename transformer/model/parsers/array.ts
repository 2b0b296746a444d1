import type { TypeParser } from "../parser";
import { isUninhabited } from "../uninhabited";

/** `T[]`, `Array<T>`, `readonly T[]`, `ReadonlyArray<T>`. */
export const arrayParser: TypeParser = {
  construct: "arrays",
  supports: (type, ctx) => ctx.checker.isArrayType(type),
  parse: (type, ctx) => {
    const items = ctx.modelOf(ctx.checker.typeArguments(type)[0]);
    // `never[]`: the empty array alone.
    return isUninhabited(items) ? { kind: "tuple", elements: [], minItems: 0 } : { kind: "array", items };
  },
};
