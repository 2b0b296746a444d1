import type { Type, TypeChecker } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../modeler";

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * What TypeScript accepts for `${number}`: any string whose `+s` is finite — whitespace
 * around it, signs, exponents (up to e308: beyond, it is Infinity), hex/octal/binary,
 * whitespace alone; not "". When text `stop` follows and more placeholders come after it,
 * TypeScript cuts the string at the first `stop`, so no character of the number may begin
 * one: every atom is guarded by `(?!stop)`.
 */
function numberPattern(stop?: string): string {
  const a = (atom: string) => (stop ? `(?:(?!${escape(stop)})${atom})` : atom);
  const digit = a("[0-9]");
  const exponent = `${a("[eE]")}(?:${a("-")}${digit}+|${a("\\+")}?${a("0")}*(?:${digit}{1,2}|${a("[12]")}${digit}{2}|${a("3")}${a("0")}${a("[0-8]")}))`;
  // `digits (. digits*)?`, not `digits .? digits*`: the same strings, but with one way to split
  // a run of digits, so a backtracking engine (a client's) stays linear on a long one.
  const decimal = `${a("[+-]")}?(?:${digit}+(?:${a("\\.")}${digit}*)?|${a("\\.")}${digit}+)(?:${exponent})?`;
  const radix = `${a("0")}(?:${a("[xX]")}${a("[0-9a-fA-F]")}+|${a("[bB]")}${a("[01]")}+|${a("[oO]")}${a("[0-7]")}+)`;
  const space = a("\\s");
  return `(?:${space}*(?:${decimal}|${radix})${space}*|${space}+)`;
}

const RADIX = "0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+";
const BIGINT = `-?(?:0|[1-9][0-9]*|${RADIX})`;

/**
 * Canonical numeric keys (`String(Number(k)) === k`): the keys a `number` index signature
 * admits. JavaScript writes a number in exponent form exactly when its exponent is ≥ 21 or
 * ≤ -7, with at most 17 significant digits, and never beyond e+308 / e-324.
 */
export const NUMERIC_KEY =
  "^(?!-0$)(?:-?(?:0|[1-9][0-9]{0,20})(?:\\.[0-9]*[1-9])?" +
  "|-?[1-9](?:\\.[0-9]{0,15}[1-9])?e(?:\\+(?:2[1-9]|[3-9][0-9]|[12][0-9]{2}|30[0-8])|-(?:[7-9]|[1-9][0-9]|[12][0-9]{2}|3[01][0-9]|32[0-4]))" +
  "|NaN|-?Infinity)$";

/**
 * The pattern a placeholder matches. `next` is the text after it: TypeScript splits a
 * string at the first occurrence of the text between two placeholders, so a `${string}`
 * there cannot contain it; with no text between two placeholders, the first one takes
 * exactly one character.
 */
function placeholder(flags: number, next: string | undefined): string | undefined {
  const single = next === "";
  if (flags & TypeFlags.String) {
    if (single) return "[\\s\\S]";
    return next ? `(?:(?!${escape(next)})[\\s\\S])*` : "[\\s\\S]*";
  }
  if (flags & TypeFlags.Number) return single ? "(?:[0-9]|\\s)" : numberPattern(next);
  if (flags & TypeFlags.BigInt) return single ? "[0-9]" : BIGINT;
  return undefined;
}

/** The anchored regular expression of a template literal type, or undefined when it has none that is exact. */
export function templatePattern(type: Type, checker: TypeChecker): string | undefined {
  if (!(checker.flags(type) & TypeFlags.TemplateLiteral)) return undefined;
  const { texts, types } = checker.templateLiteral(type);
  let pattern = `^${escape(texts[0])}`;
  for (let i = 0; i < types.length; i++) {
    const last = i === types.length - 1;
    const part = placeholder(checker.flags(types[i]), last ? undefined : texts[i + 1]);
    if (part === undefined) return undefined;
    pattern += part + escape(texts[i + 1]);
  }
  return `${pattern}$`;
}

/** Template literal types (`` `user_${number}` ``): strings with the pattern TypeScript matches them by. */
export const templateLiteralParser: TypeParser = {
  construct: "template literal types",
  supports: (type, ctx) => (ctx.checker.flags(type) & (TypeFlags.TemplateLiteral | TypeFlags.StringMapping)) !== 0,
  parse: (type, ctx) => {
    const pattern = templatePattern(type, ctx.checker);
    if (pattern === undefined) return ctx.unsupported(type, "has no exact JSON Schema pattern (only string, number and bigint placeholders have one)");
    return { kind: "string", keywords: { pattern } };
  },
};
