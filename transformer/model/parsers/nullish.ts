import ts from "typescript";
import type { TypeParser } from "../modeler";

/**
 * `null`, and `undefined` / `void` where they cannot simply be left out: a returned
 * `undefined` and an `undefined` array element both travel as `null` in JSON. (Optional
 * properties and `T | undefined` properties are handled by the object parsers, which drop
 * `undefined` and leave the property out of `required`.)
 */
export const nullishParser: TypeParser = {
  construct: "null / undefined / void",
  supports: (type) => (type.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0,
  parse: () => ({ kind: "null" }),
};
