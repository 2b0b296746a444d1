import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

/**
 * `null`, and `undefined` / `void` where they cannot simply be left out: a returned
 * `undefined` and an `undefined` array element both travel as `null` in JSON. (Optional
 * properties and `T | undefined` properties are handled by the object parsers, which drop
 * `undefined` and leave the property out of `required`.)
 */
export const nullishParser: TypeParser = {
  construct: "null / undefined / void",
  supports: (type, ctx) => (ctx.checker.flags(type) & (TypeFlags.Null | TypeFlags.Undefined | TypeFlags.Void)) !== 0,
  parse: () => ({ kind: "null" }),
};
