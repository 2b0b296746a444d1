import type { Type, TypeChecker } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import type { TypeParser } from "../parser";

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

/** A class of the digits from `low` to `high`, as short as it is written: `7`, `[0-6]`. */
function digitRange(low: number, high: number): string {
  return low === high ? String(low) : `[${low}-${high}]`;
}

/** From `min` to `max` more digits: `[0-9]{0,3}`; nothing for none. */
function digitRun(min: number, max: number): string {
  if (max === 0) return "";
  return min === max ? (max === 1 ? "[0-9]" : `[0-9]{${max}}`) : `[0-9]{${min},${max}}`;
}

/**
 * Digit strings of `digits.length` digits whose value is at most `digits` (`bound`
 * included): a range as alternatives, one per position where a smaller digit may stand.
 */
function atMost(digits: string): string {
  const alternatives: string[] = [];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    const low = i === 0 ? 1 : 0;
    if (d > low)
      alternatives.push(
        `${digits.slice(0, i)}${digitRange(low, d - 1)}${digitRun(digits.length - i - 1, digits.length - i - 1)}`,
      );
  }
  return `(?:${[...alternatives, digits].join("|")})`;
}

/**
 * A fraction's digits (one at least, at most as many as `bound` has, the last not 0) whose
 * value as `0.digits` is at most `0.bound`: a prefix of the bound, or a smaller digit at the
 * first place they differ and any digits after it.
 */
function fractionAtMost(bound: string): string {
  const alternatives: string[] = [];
  for (let i = 0; i < bound.length; i++) {
    const smaller = Number(bound[i]) - 1;
    const after = bound.length - i - 1;
    if (smaller >= 1) alternatives.push(`${bound.slice(0, i)}${digitRange(1, smaller)}`);
    if (smaller >= 0 && after > 0)
      alternatives.push(`${bound.slice(0, i)}${digitRange(0, smaller)}${digitRun(0, after - 1)}[1-9]`);
    if (bound[i] !== "0") alternatives.push(bound.slice(0, i + 1));
  }
  return `(?:${alternatives.join("|")})`;
}

/** A significand of 1 to `digits` significant digits as JavaScript writes one in exponent form: `1`, `1.5`, `9.25`. */
function significand(digits: number): string {
  return digits <= 1 ? "[1-9]" : `[1-9](?:\\.${digitRun(0, digits - 2)}[1-9])?`;
}

/**
 * Canonical numeric keys (`String(Number(k)) === k`): the keys a `number` index signature
 * admits, as TypeScript tells a numeric property name. JavaScript writes a number with the
 * fewest digits that read back as it: in exponent form exactly when its exponent is ≥ 21 or
 * ≤ -7, never beyond e+308 / e-324. Which 16- and 17-digit strings are the shortest for their
 * number no regular expression of reasonable size can tell ("9007199254740993" is read as
 * ...992); up to 15 significant digits every string is: so keys have at most 15, and the
 * integers up to 2^53 (all exact) any. Subnormal numbers (below 2.2e-308) hold fewer digits:
 * at e-310 14, down to one at e-323, and e-324 is 5e-324 alone.
 *
 * No lookahead: the lengths are counted by the alternatives themselves (`-0` is left out by
 * giving the sign to the numbers other than 0). With three lookaheads, a pattern engine asks
 * their bodies at a key's first character: the linear engine took 2.3 to 2.9× V8's time on
 * `1.5e-7`, and 8 to 12× in the first 40 ms of a fresh process; without them, 0.9×, a table
 * lookup a character (docs/performance.md). test/unit/parsers.test.ts holds it to the pattern
 * with lookaheads.
 */
function numericKey(): string {
  const SIGNIFICANT = 15;
  const integer = [
    `[1-9][0-9]{0,${SIGNIFICANT - 1}}`,
    // 16 to 21 digits, at most 15 of them significant: `100000000000000000000` (1e20).
    `[1-9][0-9]{${SIGNIFICANT - 1}}0{1,${21 - SIGNIFICANT}}`,
    // Every integer up to 2^53 is exact: 16 digits up to 9007199254740992.
    atMost(String(2 ** 53)),
  ];
  // 0 < exponent ≤ 21, digits after the point: at most 15 digits in all, so one alternative
  // per place of the point (1 to 14 digits before it), the last digit not 0.
  const point: string[] = [];
  for (let before = 1; before < SIGNIFICANT; before++)
    point.push(`${digitRun(before - 1, before - 1)}\\.${digitRun(0, SIGNIFICANT - 1 - before)}`);
  const fraction = [
    `[1-9](?:${point.join("|")})[1-9]`,
    // -7 < exponent ≤ 0: `0.000123`.
    `0\\.0{0,5}[1-9](?:[0-9]{0,${SIGNIFICANT - 2}}[1-9])?`,
  ];
  const positive = `\\+(?:2[1-9]|[3-9][0-9]|[12][0-9]{2}|30[0-7])`;
  const negative = `-(?:[7-9]|[1-9][0-9]|[12][0-9]{2}|30[0-9])`;
  const exponent = [
    `${significand(SIGNIFICANT)}e(?:${positive}|${negative})`,
    // e+308: up to 1.7976931348623157e308, the largest number (15 digits: 1.79769313486231).
    `1(?:\\.${fractionAtMost("79769313486231")})?e\\+308`,
  ];
  for (let e = 310; e <= 323; e++) exponent.push(`${significand(324 - e)}e-${e}`);
  exponent.push("5e-324");
  const number = [...integer, ...fraction, ...exponent].join("|");
  return `^(?:0|-?(?:${number})|NaN|-?Infinity)$`;
}

export const NUMERIC_KEY = numericKey();

/** A template literal type's placeholder kinds that have an exact pattern. */
export type Placeholder = "string" | "number" | "bigint";

/**
 * The pattern a placeholder matches. `next` is the text after it: TypeScript splits a
 * string at the first occurrence of the text between two placeholders, so a `${string}`
 * there cannot contain it; with no text between two placeholders, the first one takes
 * exactly one character.
 */
function placeholder(kind: Placeholder, next: string | undefined): string {
  const single = next === "";
  if (kind === "string") {
    if (single) return "[\\s\\S]";
    return next ? `(?:(?!${escape(next)})[\\s\\S])*` : "[\\s\\S]*";
  }
  if (kind === "number") return single ? "(?:[0-9]|\\s)" : numberPattern(next);
  return single ? "[0-9]" : BIGINT;
}

/**
 * The anchored regular expression of a template literal's texts and placeholders (`texts` has
 * one more entry): every pattern typemcp writes for a template literal type is one of these.
 */
export function placeholdersPattern(texts: readonly string[], kinds: readonly Placeholder[]): string {
  let pattern = `^${escape(texts[0])}`;
  for (let i = 0; i < kinds.length; i++) {
    const last = i === kinds.length - 1;
    pattern += placeholder(kinds[i], last ? undefined : texts[i + 1]) + escape(texts[i + 1]);
  }
  return `${pattern}$`;
}

/** The anchored regular expression of a template literal type, or undefined when it has none that is exact. */
export function templatePattern(type: Type, checker: TypeChecker): string | undefined {
  if (!(checker.flags(type) & TypeFlags.TemplateLiteral)) return undefined;
  const { texts, types } = checker.templateLiteral(type);
  const kinds: Placeholder[] = [];
  for (const t of types) {
    const flags = checker.flags(t);
    if (flags & TypeFlags.String) kinds.push("string");
    else if (flags & TypeFlags.Number) kinds.push("number");
    else if (flags & TypeFlags.BigInt) kinds.push("bigint");
    else return undefined;
  }
  return placeholdersPattern(texts, kinds);
}

/** Template literal types (`` `user_${number}` ``): strings with the pattern TypeScript matches them by. */
export const templateLiteralParser: TypeParser = {
  construct: "template literal types",
  supports: (type, ctx) => (ctx.checker.flags(type) & (TypeFlags.TemplateLiteral | TypeFlags.StringMapping)) !== 0,
  parse: (type, ctx) => {
    const pattern = templatePattern(type, ctx.checker);
    if (pattern === undefined)
      return ctx.unsupported(
        type,
        "has no exact JSON Schema pattern (only string, number and bigint placeholders have one)",
      );
    return { kind: "string", keywords: { pattern } };
  },
};
