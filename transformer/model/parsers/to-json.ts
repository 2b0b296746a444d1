import ts from "typescript";
import type { TypeParser } from "../modeler";
import { objectModel } from "./object-properties";

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
    const returned = ctx.checker.getReturnTypeOfSignature(toJsonMethod(type, ctx)!);
    // JSON.stringify calls toJSON once: what it returns is sent as its own properties, even if
    // it has a toJSON too. `toJSON(): this` is the object itself; another type's toJSON not called is reported.
    if (returned === type) return objectModel(type, ctx);
    if (returned.flags & ts.TypeFlags.Object && toJsonMethod(returned, ctx)) {
      return ctx.unsupported(type, `has a toJSON() that returns ${ctx.typeText(returned)}, whose own toJSON() JSON.stringify does not call`);
    }
    return ctx.modelOf(returned);
  },
};
