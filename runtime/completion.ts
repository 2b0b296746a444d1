import type { CompleteResult } from "@modelcontextprotocol/server";
import type { Completer, CompletionValues } from "./kinds";

/** The spec's cap on the values of one `completion/complete` answer. */
export const MAX_COMPLETIONS = 100;

/** An argument's completion: the values of its type (from the contract), or the author's function. */
export type Completion = { values: readonly string[] } | { completer: Completer };

/** The answer to `completion/complete`: at most 100 values, with how many there are in all. */
function answer(values: readonly unknown[], total = values.length, hasMore = total > MAX_COMPLETIONS): CompleteResult {
  return { completion: { values: values.slice(0, MAX_COMPLETIONS).map(String), total, hasMore } };
}

/** Nothing to offer: an argument with neither a finite type nor a function. */
export const NO_COMPLETION: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

/**
 * Completes `value` (what the user has typed) for one argument. The values of a finite type
 * are filtered by prefix, ignoring case (`py` offers `Python`), in the type's order; a
 * function gets the text and the other arguments, and what it returns is sent as it is.
 */
export async function complete(
  completion: Completion,
  value: string,
  context: { arguments: Record<string, string> },
): Promise<CompleteResult> {
  if ("values" in completion) {
    const prefix = value.toLowerCase();
    return answer(completion.values.filter((candidate) => candidate.toLowerCase().startsWith(prefix)));
  }
  const given: CompletionValues = await completion.completer(value, context);
  if (Array.isArray(given)) return answer(given);
  const { values, total, hasMore } = given as Exclude<CompletionValues, readonly unknown[]>;
  if (!Array.isArray(values))
    throw new TypeError("a completion function must return an array of values, or { values }");
  return answer(values, total ?? values.length, hasMore ?? (total ?? values.length) > MAX_COMPLETIONS);
}
