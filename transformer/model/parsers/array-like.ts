import type { Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import { ownDataProperties } from "../brand";
import type { Model } from "../model";
import type { ParseContext, TypeParser } from "../parser";

/** How far up a chain of `extends` an array is looked for. */
const MAX_BASE_DEPTH = 10;

/** Whether a class or interface extends `Array<T>` or `ReadonlyArray<T>`, directly or through other bases. */
export function extendsArray(type: Type, ctx: ParseContext, depth = 0): boolean {
  const { checker } = ctx;
  if (depth > MAX_BASE_DEPTH) return false;
  return checker.baseTypes(type).some((base) => checker.isArrayType(base) || extendsArray(base, ctx, depth + 1));
}

/** Arrays, tuples, and classes and interfaces that extend an array: what JSON.stringify sends as an array. */
export function isArrayLike(type: Type, ctx: ParseContext): boolean {
  const { checker } = ctx;
  return (
    checker.isArrayType(type) ||
    checker.isTupleType(type) ||
    ((checker.flags(type) & TypeFlags.Object) !== 0 && extendsArray(type, ctx))
  );
}

/** The element type of an array-like type: the type of its number index signature. */
export function elementType(type: Type, { checker }: ParseContext): Type | undefined {
  return checker.indexInfos(type).find((info) => checker.flags(info.keyType) & TypeFlags.Number)?.type;
}

/** The array model of an array-like type that is not an array or a tuple itself, or why it has none. */
export function arrayLikeModel(type: Type, ctx: ParseContext): Model {
  const extra = ownDataProperties(type, ctx);
  if (extra.length) {
    return ctx.unsupported(
      type,
      `is an array with its own properties (${extra.map((name) => JSON.stringify(name)).join(", ")}), which a JSON array cannot carry`,
    );
  }
  const element = elementType(type, ctx);
  if (!element) return ctx.unsupported(type, "is an array whose element type typemcp cannot read");
  return { kind: "array", items: ctx.modelOf(element) };
}

/**
 * `interface Tags extends Array<string> {}`, `class TagList extends Array<string>`,
 * `interface Scores extends ReadonlyArray<number> {}`: arrays, as JSON.stringify sends them
 * and as TypeScript accepts an array literal for them. Own data properties (beyond brands)
 * would need an array that carries keys, which JSON has not: reported.
 */
export const arrayLikeParser: TypeParser = {
  construct: "classes and interfaces extending Array",
  supports: (type, ctx) =>
    (ctx.checker.flags(type) & TypeFlags.Object) !== 0 &&
    !ctx.checker.isArrayType(type) &&
    !ctx.checker.isTupleType(type) &&
    extendsArray(type, ctx),
  parse: arrayLikeModel,
};
