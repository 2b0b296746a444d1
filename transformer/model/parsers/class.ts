import ts from "typescript";
import type { TypeParser } from "../modeler";
import { objectModel } from "./object-properties";

/**
 * Class instances: their declared public instance fields (constructor parameter properties
 * included). A class that declares none has nothing typemcp can describe: it is reported,
 * never silently turned into text.
 */
export const classParser: TypeParser = {
  construct: "classes",
  supports: (type) => ((type.getSymbol()?.flags ?? 0) & ts.SymbolFlags.Class) !== 0 && (type.flags & ts.TypeFlags.Object) !== 0,
  parse: (type, ctx) => {
    const model = objectModel(type, ctx);
    if (model.kind !== "object" || model.properties.length > 0 || model.additional || model.patterns) return model;
    return ctx.unsupported(type, "is a class with no declared properties");
  },
};
