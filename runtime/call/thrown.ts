import { shortText } from "../validation/messages";

/**
 * What a function threw, as a message. Never throws itself: a function may throw anything (a
 * revoked Proxy, an Error whose message is a Symbol or whose getter throws), and the request
 * must still be answered.
 */
export function errorMessage(error: unknown, noun = "function"): string {
  const UNREADABLE = `the ${noun} threw an exception that cannot be read`;
  try {
    if (typeof error === "string") return error;
    if (!(error instanceof Error)) return shortText(error, UNREADABLE);
    let message: unknown;
    try {
      message = error.message;
    } catch {
      const name = error.name;
      return typeof name === "string" && name ? `${name} (its message cannot be read)` : UNREADABLE;
    }
    if (typeof message === "string") return message || String(error.name);
    return shortText(message, UNREADABLE);
  } catch {
    return UNREADABLE;
  }
}

/** Whether a value may be a promise (a thenable): the answer then waits for it. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof (value as { then?: unknown })?.then === "function";
}
