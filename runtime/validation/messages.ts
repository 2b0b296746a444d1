import { keywordRow } from "../../contract/keywords";
import type { Found, Issue } from "./issues";
import { BACKTRACKING_CHECK_MS, BACKTRACKING_RUN_MS } from "../linear-regexp";

const MAX_INPUT_TEXT = 120;

/**
 * A value as it may appear in an error message: JSON, cut short when long (a message never
 * carries a large value whole). Never throws: a value JSON cannot write (a bigint, a symbol, a
 * cycle, Infinity) is written as String() writes it; one neither can write (nested deeper than
 * the stack, a revoked Proxy, a throwing toString) is described instead, or given `unshowable`.
 */
export function shortText(value: unknown, unshowable?: string): string {
  let text: string;
  try {
    text =
      typeof value === "number" && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
  } catch (error) {
    try {
      text = String(value);
    } catch {
      return (
        unshowable ??
        (error instanceof RangeError ? "(a value nested too deeply to show)" : "(a value that cannot be shown)")
      );
    }
  }
  return text.length > MAX_INPUT_TEXT ? `${text.slice(0, MAX_INPUT_TEXT)}… (${text.length} characters)` : text;
}

/** One issue as a sentence: its keyword's (contract/keywords.ts), or one of the issues no keyword names. */
function sentence({ keyword, expected, value }: Issue): string {
  const input = () => ` [input_value=${shortText(value)}]`;
  const row = keywordRow(keyword);
  if (row?.sentence) return row.sentence(expected, value, input);
  switch (keyword) {
    case "safeInteger":
      return `Input should be a safe integer, from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}${input()}`;
    case "patternTooSlow": {
      // A pattern the linear engine does not run, which V8 could not decide in time (docs/rules.md, "Patterns the linear engine does not run").
      const { pattern, reason } = expected as { pattern: string; reason: string };
      return `String could not be checked against pattern ${JSON.stringify(pattern)} in time: the pattern holds ${reason}, so it runs on a backtracking engine, stopped after ${BACKTRACKING_RUN_MS} ms a value and ${BACKTRACKING_CHECK_MS} ms a check${input()}`;
    }
    default:
      return `Input is invalid (${keyword})${input()}`;
  }
}

/**
 * Issues as one message that names the failing fields first:
 *
 *     1 validation error for WeatherData
 *     humidity
 *       Field required
 */
export function validationMessage(title: string, { issues, total }: Found): string {
  const lines = issues.flatMap((issue) => [issue.path.join(".") || "(root)", `  ${sentence(issue)}`]);
  const count = total === 1 ? "1 validation error" : `${total} validation errors`;
  const listed = issues.length < total ? ` (the first ${issues.length} listed)` : "";
  return [`${count} for ${title}${listed}`, ...lines].join("\n");
}
