import type { Symbol, Type } from "../checker/checker";
import { SymbolFlags } from "../checker/flags";
import type { ParseContext } from "./parser";

/**
 * A brand's property: named with a leading underscore (`__brand`, `_tag`) or keyed by a symbol
 * (`[brand]: "UserId"`, which the checker names `__@brand@…`). A brand distinguishes values
 * TypeScript-side only: no JSON value carries it, so typemcp describes what it is put on.
 */
export function isBrandProperty(symbol: Symbol, { checker }: ParseContext): boolean {
  return checker.symbolName(symbol).startsWith("_");
}

/** An object type made of brand properties only (one at least): `{ readonly __brand: "UserId" }`. */
export function isBrand(type: Type, ctx: ParseContext): boolean {
  const properties = ctx.checker.properties(type);
  return (
    properties.length > 0 &&
    properties.every((p) => isBrandProperty(p, ctx)) &&
    ctx.checker.callSignatures(type).length === 0
  );
}

/** The data properties a type declares besides its library ones and its brands: what an array-like type adds to an array. */
export function ownDataProperties(type: Type, ctx: ParseContext): string[] {
  const { checker } = ctx;
  return checker
    .properties(type)
    .filter((p) => !(checker.symbolFlags(p) & (SymbolFlags.Method | SymbolFlags.Accessor | SymbolFlags.Prototype)))
    .filter(
      (p) => !checker.hasLibraryDeclaration(p) && !isBrandProperty(p, ctx) && !checker.isNonPublicOrStaticMember(p),
    )
    .map((p) => checker.symbolName(p));
}
