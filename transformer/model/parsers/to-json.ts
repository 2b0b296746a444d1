import type { Signature, Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import type { ParseContext, TypeParser } from "../parser";
import { objectModel } from "./object-properties";

function toJsonMethod(type: Type, { checker }: ParseContext): Signature | undefined {
  const method = checker.property(type, "toJSON");
  if (!method) return undefined;
  return checker.callSignatures(checker.typeOfSymbol(method))[0];
}

function isLibraryDate(type: Type, { checker }: ParseContext): boolean {
  const symbol = checker.symbolOf(type);
  return symbol !== undefined && checker.symbolName(symbol) === "Date" && checker.hasLibraryDeclaration(symbol);
}

/**
 * Objects with a `toJSON()` method are sent as what it returns, as JSON.stringify does;
 * `Date` (whose toJSON gives an ISO 8601 string) is a `date-time` string, marked as a Date so
 * that an argument of the type is given to the tool as one.
 */
export const toJsonParser: TypeParser = {
  construct: "Date and objects with toJSON()",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.Object) !== 0 && toJsonMethod(type, ctx) !== undefined,
  parse: (type, ctx) => {
    if (isLibraryDate(type, ctx)) return { kind: "string", date: true, keywords: { format: "date-time" } };
    const returned = ctx.checker.returnType(toJsonMethod(type, ctx)!);
    // JSON.stringify calls toJSON once: what it returns is sent as its own properties, even if
    // it has a toJSON too. `toJSON(): this` is the object itself; another type's toJSON not called is reported.
    if (returned === type) return objectModel(type, ctx);
    if (ctx.checker.flags(returned) & TypeFlags.Object && toJsonMethod(returned, ctx)) {
      return ctx.unsupported(
        type,
        `has a toJSON() that returns ${ctx.typeText(returned)}, whose own toJSON() JSON.stringify does not call`,
      );
    }
    return ctx.modelOf(returned);
  },
};
