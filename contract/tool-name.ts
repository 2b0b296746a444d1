/**
 * MCP's rule for tool names, the one the SDK checks (its validateToolName, not exported): 1 to
 * 128 characters of A-Z a-z 0-9 _ . -. One rule for every entry point: the transformer checks a
 * name written as a literal, `typemcp check` and `typemcp manifest` report what the transformer
 * reports, and `mcp.tool` checks the name it is given at run time.
 */
export const TOOL_NAME_RULE = "use 1 to 128 characters of A-Z a-z 0-9 _ . -";

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Why `name` is not a valid MCP tool name, or undefined when it is. */
export function toolNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string") return "a tool name is a string";
  return TOOL_NAME.test(name) ? undefined : TOOL_NAME_RULE;
}
