import { SymbolFlags, TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";
import { objectModel } from "./object-properties";

/**
 * Class instances: their declared public instance fields (constructor parameter properties
 * included). A class that declares none has nothing typemcp can describe: it is reported,
 * never silently turned into text. One whose data is in getters (which live on the prototype,
 * where JSON.stringify never looks) is always sent as `{}`: an error, with the fix.
 */
export const classParser: TypeParser = {
  construct: "classes",
  supports: (type, { checker }) => {
    const symbol = checker.symbolOf(type);
    return (
      symbol !== undefined &&
      (checker.symbolFlags(symbol) & SymbolFlags.Class) !== 0 &&
      (checker.flags(type) & TypeFlags.Object) !== 0
    );
  },
  parse: (type, ctx) => {
    const model = objectModel(type, ctx);
    // Properties JSON never carries (`onclose?: () => void`) declare nothing that travels.
    const sent = model.kind === "object" && model.properties.some((p) => !p.absent);
    if (model.kind !== "object" || sent || model.additional || model.patterns) return model;
    const { checker } = ctx;
    const getters = checker
      .properties(type)
      .filter((p) => checker.symbolFlags(p) & SymbolFlags.GetAccessor)
      .map((p) => checker.symbolName(p))
      .filter((name) => !name.startsWith("#") && !name.startsWith("__"));
    if (getters.length) {
      const names = getters.map((name) => JSON.stringify(name)).join(", ");
      return ctx.unsupported(
        type,
        `is sent as {}: its getters (${names}) live on the prototype, where JSON.stringify never looks. Declare them as properties, or give the class a toJSON() that returns them`,
        "lost",
      );
    }
    return ctx.unsupported(type, "is a class with no declared properties");
  },
};
