import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";
import { objectModel } from "./object-properties";

/** Interfaces, object literal types, type aliases of them, mapped and utility types (`Partial`, `Pick`, `Record`, ...). */
export const objectParser: TypeParser = {
  construct: "interfaces, object types, Record and index signatures",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.Object) !== 0,
  parse: (type, ctx) => objectModel(type, ctx),
};
