import ts from "typescript";
import type { TypeParser } from "../modeler";

/**
 * String, number and boolean literal types, and enum members (which are literals to the
 * checker). An enum member whose value is computed (`Size = "abc".length`, or any member of
 * a `declare enum` without initializers) has no literal type: its value is some number.
 */
export const literalParser: TypeParser = {
  construct: "literal types and enum members",
  supports: (type) => (type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral | ts.TypeFlags.Enum)) !== 0,
  parse: (type, ctx) => {
    if (!(type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral | ts.TypeFlags.BooleanLiteral))) return { kind: "number" };
    // `1e400` is a number literal type whose value is Infinity: JSON has no such number.
    if (type.isNumberLiteral() && !Number.isFinite(type.value)) return ctx.unsupported(type, "is not a JSON number (JSON has no Infinity)");
    if (type.isStringLiteral() || type.isNumberLiteral()) return { kind: "literal", value: type.value };
    return { kind: "literal", value: ctx.typeText(type) === "true" };
  },
};
