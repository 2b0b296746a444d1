import * as ts from "typescript";
import type { TypeParser } from "../modeler";

/** Template literal types (`` `user_${number}` ``) and `Uppercase<string>`-style mappings are strings. */
export const templateLiteralParser: TypeParser = {
  construct: "template literal types",
  supports: (type) => (type.flags & (ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) !== 0,
  parse: () => ({ kind: "string" }),
};
