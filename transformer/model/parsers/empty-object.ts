import type { Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import { withTypeDocumentation } from "../jsdoc";
import type { Model } from "../model";
import type { ParseContext, TypeParser } from "../parser";

/** Any JSON value but null: a string, a number, a boolean, an object with any keys, an array. */
export const NOT_NULL: Model = {
  kind: "union",
  members: [
    { kind: "string" },
    { kind: "number" },
    { kind: "boolean" },
    { kind: "object", properties: [], additional: { kind: "any" } },
    { kind: "array", items: { kind: "any" } },
  ],
};

/**
 * Whether an object type (or an intersection of them) has no members a value must have: no
 * property, no index signature. Call and construct signatures, Map, Date and the like are
 * taken by the parsers before this one.
 */
export function isEmptyObjectType(type: Type, { checker }: ParseContext): boolean {
  return checker.properties(type).length === 0 && checker.indexInfos(type).length === 0;
}

function isLibraryObject(type: Type, { checker }: ParseContext): boolean {
  const symbol = checker.symbolOf(type);
  return symbol !== undefined && checker.symbolName(symbol) === "Object" && checker.isLibrarySymbol(symbol);
}

/** The model of an empty object type: any JSON value but null; a named one (`interface Options {}`) is a definition, with its JSDoc. */
export function emptyObjectModel(type: Type, ctx: ParseContext): Model {
  if (!ctx.nameOf(type)) return NOT_NULL;
  ctx.define(type);
  return withTypeDocumentation(type, NOT_NULL, ctx);
}

/**
 * `{}`, an interface or object type that declares nothing (`interface Options {}`,
 * `Omit<T, keyof T>`), and `Object`: TypeScript admits any value but null and undefined for
 * them (`{ e: 1 }` type-checks for `e: {}`), so JSON's null alone is refused. Not a class
 * with no declared properties: that one is reported (class.ts). As a result it is wrapped,
 * since its schema is no object.
 */
export const emptyObjectParser: TypeParser = {
  construct: "the empty object type {} and Object",
  supports: (type, ctx) =>
    (ctx.checker.flags(type) & TypeFlags.Object) !== 0 && (isLibraryObject(type, ctx) || isEmptyObjectType(type, ctx)),
  parse: emptyObjectModel,
};
