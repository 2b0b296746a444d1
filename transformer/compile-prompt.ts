import type * as ts from "typescript";
import { CONTRACT_VERSION, type PromptContract } from "../contract/contract";
import type { Compilation, CompiledRegistration } from "./compilation";
import { DiagnosticCode } from "./diagnostic-codes";
import { argumentPassing, readParameters } from "./input-schema";
import { checkCompleteKeys, stringArguments, textInputs } from "./string-arguments";
import type { ToolFunction } from "./tool-function";

/**
 * One prompt: its name, its parameters as text arguments (prompts/get sends strings), and
 * the completions its literal types offer. TypeScript itself checks what the function
 * returns against `PromptResult` (runtime/kinds.ts), so its return type is not read.
 */
export function compilePrompt(
  c: Compilation,
  read: ToolFunction | string,
  optionsArgument: ts.Expression | undefined,
  fnNode: ts.Node,
): CompiledRegistration {
  const named = c.named("prompt", read, optionsArgument, fnNode);
  if (!named) return c.fail("prompt");
  const { fn, name } = named;
  if (name === "") {
    c.error(
      optionsArgument ?? fnNode,
      DiagnosticCode.InvalidRegistration,
      "A prompt's name cannot be empty: give it one character at least, or leave it out to use the function's name",
    );
    return c.fail("prompt");
  }
  const parameters = readParameters(fn.signature, c.modeler, "prompt");
  if (typeof parameters === "string") {
    c.error(fnNode, DiagnosticCode.InvalidRegistration, `Function ${name}: ${parameters}`);
    return c.fail("prompt");
  }
  const inputs = textInputs(parameters, c.checker);
  const strings = stringArguments(c, name, name, parameters, inputs, () => ({ role: "a prompt argument" }));
  checkCompleteKeys(
    c,
    optionsArgument,
    inputs.map((i) => i.name),
    `an argument of prompt ${name}`,
    "arguments",
  );
  if (c.failed) return c.fail("prompt");

  const contract: PromptContract = {
    v: CONTRACT_VERSION,
    kind: "prompt",
    name,
    ...(fn.description && { description: fn.description }),
    ...argumentPassing(parameters),
    ...strings,
  };
  return { contract, diagnostics: c.diagnostics };
}
