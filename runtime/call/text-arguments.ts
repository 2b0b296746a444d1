import type { StringArguments } from "../../contract/contract";

/** A JSON number, as text: what a number-typed argument's text must be to become a number. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function converted(text: unknown, to: "number" | "boolean"): unknown {
  if (typeof text !== "string") return text;
  if (to === "number") return NUMBER.test(text) ? Number(text) : text;
  return text === "true" ? true : text === "false" ? false : text;
}

/**
 * Prompt arguments and URI template variables arrive as text; a parameter typed as a number or
 * a boolean gets its value (`"3"` → 3, `"true"` → true), and a list of them (an exploded
 * template variable) each item's. Text that is neither is left as it is: the check that follows
 * refuses it with the reason (`Input should be a valid number [input_value="three"]`). The
 * arguments are copied only when one is converted, and not at all when they are the caller's
 * own (`owned`: a template's variables, decoded into a new object).
 */
export function convertText(
  args: Record<string, unknown>,
  convert: StringArguments["convert"],
  owned = false,
): Record<string, unknown> {
  if (!convert) return args;
  let copy: Record<string, unknown> | undefined = owned ? args : undefined;
  for (const name in convert) {
    if (!Object.prototype.hasOwnProperty.call(args, name)) continue;
    const value = args[name];
    const to = convert[name];
    const next = Array.isArray(value) ? value.map((item) => converted(item, to)) : converted(value, to);
    copy ??= { ...args };
    copy[name] = next;
  }
  return copy ?? args;
}
