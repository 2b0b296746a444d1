import type { TypeParser } from "../modeler";

/** `T[]`, `Array<T>`, `readonly T[]`, `ReadonlyArray<T>`. */
export const arrayParser: TypeParser = {
  construct: "arrays",
  supports: (type, ctx) => ctx.checker.isArrayType(type),
  parse: (type, ctx) => ({ kind: "array", items: ctx.modelOf(ctx.checker.typeArguments(type)[0]) }),
};
