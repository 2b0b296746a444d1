import * as ts from "typescript";
import type { TypeParser } from "../modeler";

/** String, number and boolean literal types, and enum members (which are literals to the checker). */
export const literalParser: TypeParser = {
  construct: "literal types and enum members",
  supports: (type) => (type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral)) !== 0,
  parse: (type, ctx) => {
    if (type.isStringLiteral() || type.isNumberLiteral()) return { kind: "literal", value: type.value };
    return { kind: "literal", value: ctx.typeText(type) === "true" };
  },
};
