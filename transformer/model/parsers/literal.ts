import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

const LITERAL = TypeFlags.StringLiteral | TypeFlags.NumberLiteral | TypeFlags.BooleanLiteral;

/**
 * String, number and boolean literal types, and enum members (which are literals to the
 * checker). An enum member whose value is computed (`Size = "abc".length`, or any member of
 * a `declare enum` without initializers) has no literal type: its value is some number.
 */
export const literalParser: TypeParser = {
  construct: "literal types and enum members",
  supports: (type, ctx) => (ctx.checker.flags(type) & (LITERAL | TypeFlags.Enum)) !== 0,
  parse: (type, ctx) => {
    if (!(ctx.checker.flags(type) & LITERAL)) return { kind: "number" };
    const value = ctx.checker.literalValue(type)!;
    // `1e400` is a number literal type whose value is Infinity: JSON has no such number.
    if (typeof value === "number" && !Number.isFinite(value))
      return ctx.unsupported(type, "is not a JSON number (JSON has no Infinity)");
    return { kind: "literal", value };
  },
};
