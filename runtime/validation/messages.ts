import type { Found, Issue } from "./check";
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

function oneOfList(values: unknown[]): string {
  const texts = values.map((v) => JSON.stringify(v));
  return texts.length === 1 ? texts[0] : `${texts.slice(0, -1).join(", ")} or ${texts[texts.length - 1]}`;
}

const BOUNDS: Record<string, string> = {
  minimum: "greater than or equal to",
  maximum: "less than or equal to",
  exclusiveMinimum: "greater than",
  exclusiveMaximum: "less than",
};

/** One issue as a sentence, in the style of pydantic (which the Python SDK's users know). */
function sentence({ keyword, expected, value }: Issue): string {
  const input = () => ` [input_value=${shortText(value)}]`;
  switch (keyword) {
    case "required":
      return "Field required";
    case "additionalProperties":
      return "Extra inputs are not permitted";
    case "type":
      return `Input should be a ${typeof value === "number" && !Number.isFinite(value) ? "finite number" : `valid ${expected as string}`}${input()}`;
    case "safeInteger":
      return `Input should be a safe integer, from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}${input()}`;
    case "const":
      return `Input should be ${JSON.stringify(expected)}${input()}`;
    case "enum":
      return `Input should be ${oneOfList(expected as unknown[])}${input()}`;
    case "anyOf":
      return `Input matches none of the allowed types${input()}`;
    case "format":
      return `Input should be a valid ${expected as string}${input()}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `Input should be ${BOUNDS[keyword]} ${expected as number}${input()}`;
    case "multipleOf":
      return `Input should be a multiple of ${expected as number}${input()}`;
    case "minLength":
    case "maxLength":
      return `String should have at ${keyword === "minLength" ? "least" : "most"} ${expected as number} characters${input()}`;
    case "minItems":
    case "maxItems":
      return `List should have at ${keyword === "minItems" ? "least" : "most"} ${expected as number} items${input()}`;
    case "uniqueItems": {
      const [i, j] = expected as [number, number];
      return `List items should be unique (items ${i} and ${j} are equal)${input()}`;
    }
    case "pattern":
      return `String should match pattern ${JSON.stringify(expected)}${input()}`;
    case "patternTooSlow": {
      // A pattern the linear engine does not run, which V8 could not decide in time (docs/rules.md, "Patterns").
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
