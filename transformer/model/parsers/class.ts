import { SymbolFlags, TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../modeler";
import { objectModel } from "./object-properties";

/**
 * Class instances: their declared public instance fields (constructor parameter properties
 * included). A class that declares none has nothing typemcp can describe: it is reported,
 * never silently turned into text.
 */
export const classParser: TypeParser = {
  construct: "classes",
  supports: (type, { checker }) => {
    const symbol = checker.symbolOf(type);
    return symbol !== undefined && (checker.symbolFlags(symbol) & SymbolFlags.Class) !== 0 && (checker.flags(type) & TypeFlags.Object) !== 0;
  },
  parse: (type, ctx) => {
    const model = objectModel(type, ctx);
    if (model.kind !== "object" || model.properties.length > 0 || model.additional || model.patterns) return model;
    return ctx.unsupported(type, "is a class with no declared properties");
  },
};
