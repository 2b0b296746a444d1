import * as ts from "typescript";
import type { TypeParser } from "../modeler";

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

// What TypeScript accepts for a placeholder: `${number}` is any string whose `+s` is finite
// (whitespace around it, signs, exponents, hex/octal/binary, whitespace alone; not ""),
// `${bigint}` an integer literal without separators.
const DECIMAL = "[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?";
const RADIX = "0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+";
const NUMBER = `(?:\\s*(?:${DECIMAL}|${RADIX})\\s*|\\s+)`;
const BIGINT = `-?(?:0|[1-9][0-9]*|${RADIX})`;

/** Canonical numeric keys (`String(Number(k)) === k`): the keys a `number` index signature admits. */
export const NUMERIC_KEY = "^(?!-0$)(?:-?(?:0|[1-9][0-9]*)(?:\\.[0-9]*[1-9])?|-?[1-9](?:\\.[0-9]*[1-9])?e[+-][1-9][0-9]*|NaN|-?Infinity)$";

/**
 * The pattern a placeholder matches. `next` is the text after it: TypeScript splits a
 * string at the first occurrence of the text between two placeholders, so a `${string}`
 * there cannot contain it; with no text between two placeholders, the first one takes
 * exactly one character.
 */
function placeholder(type: ts.Type, next: string | undefined): string | undefined {
  const single = next === "";
  if (type.flags & ts.TypeFlags.String) {
    if (single) return "[\\s\\S]";
    return next ? `(?:(?!${escape(next)})[\\s\\S])*` : "[\\s\\S]*";
  }
  if (type.flags & ts.TypeFlags.Number) return single ? "(?:[0-9]|\\s)" : NUMBER;
  if (type.flags & ts.TypeFlags.BigInt) return single ? "[0-9]" : BIGINT;
  return undefined;
}

/** The anchored regular expression of a template literal type, or undefined when it has none that is exact. */
export function templatePattern(type: ts.Type): string | undefined {
  if (!(type.flags & ts.TypeFlags.TemplateLiteral)) return undefined;
  const { texts, types } = type as ts.TemplateLiteralType;
  let pattern = `^${escape(texts[0])}`;
  for (let i = 0; i < types.length; i++) {
    const last = i === types.length - 1;
    const part = placeholder(types[i], last ? undefined : texts[i + 1]);
    if (part === undefined) return undefined;
    pattern += part + escape(texts[i + 1]);
  }
  return `${pattern}$`;
}

/** Template literal types (`` `user_${number}` ``): strings with the pattern TypeScript matches them by. */
export const templateLiteralParser: TypeParser = {
  construct: "template literal types",
  supports: (type) => (type.flags & (ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) !== 0,
  parse: (type, ctx) => {
    const pattern = templatePattern(type);
    if (pattern === undefined) return ctx.unsupported(type, "has no exact JSON Schema pattern (only string, number and bigint placeholders have one)");
    return { kind: "string", keywords: { pattern } };
  },
};
