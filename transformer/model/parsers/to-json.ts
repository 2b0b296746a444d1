import * as ts from "typescript";
import type { TypeParser } from "../modeler";

function toJsonMethod(type: ts.Type, ctx: Parameters<TypeParser["parse"]>[1]): ts.Signature | undefined {
  const method = type.getProperty("toJSON");
  if (!method) return undefined;
  return ctx.checker.getTypeOfSymbol(method).getCallSignatures()[0];
}

function isLibraryDate(type: ts.Type, ctx: Parameters<TypeParser["parse"]>[1]): boolean {
  const symbol = type.getSymbol();
  return symbol?.name === "Date" && (symbol.getDeclarations() ?? []).some((d) => ctx.isLibraryDeclaration(d));
}

/**
 * Objects with a `toJSON()` method are sent as what it returns, as JSON.stringify does;
 * `Date` (whose toJSON gives an ISO 8601 string) is a `date-time` string.
 */
export const toJsonParser: TypeParser = {
  construct: "Date and objects with toJSON()",
  supports: (type, ctx) => (type.flags & ts.TypeFlags.Object) !== 0 && toJsonMethod(type, ctx) !== undefined,
  parse: (type, ctx) => {
    if (isLibraryDate(type, ctx)) return { kind: "string", keywords: { format: "date-time" } };
    return ctx.modelOf(ctx.checker.getReturnTypeOfSignature(toJsonMethod(type, ctx)!));
  },
};
