import { ProtocolError, ProtocolErrorCode, type CompleteResult } from "@modelcontextprotocol/server";
import type { PromptContract } from "../contract/contract";
import type { Who } from "./faults";
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

/** An argument's completion, from the contract's values and the author's functions (which take precedence). */
export function completionsOf(
  contract: Pick<PromptContract, "arguments" | "completions">,
  functions: Record<string, unknown> | undefined,
  name: string,
): Map<string, Completion> {
  const completions = new Map<string, Completion>();
  for (const [argument, values] of Object.entries(contract.completions ?? {})) completions.set(argument, { values });
  for (const [argument, completer] of Object.entries(functions ?? {})) {
    if (!contract.arguments.some((a) => a.name === argument))
      throw new Error(
        `typemcp: ${name}: complete.${argument} names no argument (${contract.arguments.map((a) => a.name).join(", ") || "it takes none"})`,
      );
    if (typeof completer !== "function")
      throw new TypeError(`typemcp: ${name}: complete.${argument} is not a function`);
    completions.set(argument, { completer: completer as Extract<Completion, { completer: unknown }>["completer"] });
  }
  return completions;
}

/** Completes one argument: an unknown argument is the client's error; a failing function the server's, logged as a fault. */
export async function completeArgument(
  completions: Map<string, Completion>,
  known: readonly { name: string }[],
  who: Who,
  argument: string,
  value: string,
  context: { arguments: Record<string, string> },
): Promise<CompleteResult> {
  if (!known.some((a) => a.name === argument)) {
    const names = known.map((a) => a.name).join(", ");
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${who.kind === "prompt" ? "Prompt" : "Resource template"} ${who.name} has no argument ${JSON.stringify(argument)}${names ? ` (its arguments: ${names})` : ""}`,
    );
  }
  const completion = completions.get(argument);
  if (!completion) return NO_COMPLETION;
  try {
    return await complete(completion, value, context);
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      `Error completing ${argument} of ${who.kind} ${who.name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
