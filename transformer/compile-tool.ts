import type * as ts from "typescript";
import { CONTRACT_VERSION, type ToolContract } from "../contract/contract";
import { toolNameProblem } from "../contract/tool-name";
import { DiagnosticCategory } from "./checker/flags";
import type { Compilation, CompiledRegistration } from "./compilation";
import { datesOf, type DateInput } from "./dates";
import { DiagnosticCode } from "./diagnostic-codes";
import { diagnosticAt } from "./diagnostics";
import { argumentPassing, inputSchema, readParameters } from "./input-schema";
import { outputSchema, type OutputSchema } from "./output-schema";
import type { Keywords, Model } from "./model/model";
import { describeProblem, findBacktrackingPatterns, findProblems, lostData, type Problem } from "./problems";
import { returnsContent } from "./registration";
import { unawaitableMessage, type ToolFunction } from "./tool-function";

/** One tool, from what was read of its function (or why it cannot be one) and its options. */
export function compileTool(
  c: Compilation,
  read: ToolFunction | string,
  optionsArgument: ts.Expression | undefined,
  fnNode: ts.Node,
): CompiledRegistration {
  const named = c.named("tool", read, optionsArgument, fnNode);
  if (!named) return c.fail("tool");
  const { fn, options, name } = named;
  const nameProblem = toolNameProblem(name);
  if (nameProblem) {
    c.error(
      optionsArgument ?? fnNode,
      DiagnosticCode.InvalidRegistration,
      `Tool name ${JSON.stringify(name)} is not a valid MCP tool name: ${nameProblem}`,
    );
    return c.fail("tool");
  }

  const parameters = readParameters(fn.signature, c.modeler);
  if (typeof parameters === "string") {
    c.error(fnNode, DiagnosticCode.InvalidRegistration, `Function ${name}: ${parameters}`);
    return c.fail("tool");
  }
  const inputs: (DateInput & { tagProblems?: string[] })[] =
    parameters.kind === "object"
      ? [{ name: "arguments", model: parameters.model, node: parameters.node }]
      : parameters.args;
  for (const input of inputs) {
    const tags = (input.tagProblems ?? []).map((message) => ({ path: input.name, message, tag: true as const }));
    const problems = [...tags, ...findProblems(input.model, input.name)];
    if (problems.length) {
      c.error(
        input.node,
        DiagnosticCode.InputNotSerializable,
        `Function ${name}: parameter ${input.name} cannot be described as JSON Schema`,
        problems.map((p) => describeProblem(name, p)),
      );
    }
  }

  // Only once every parameter can be described: the plan reads the models the schema is written from.
  const dates = c.failed ? undefined : datesOf(inputs, parameters.kind === "object");
  for (const { input, problems } of dates?.problems ?? []) {
    c.error(
      input.node,
      DiagnosticCode.InputNotSerializable,
      `Function ${name}: parameter ${input.name} cannot reach the tool as the type it declares`,
      problems.map((p) => describeProblem(name, p)),
    );
  }

  const output = toolOutput(c, name, fn, options.structuredOutput);
  if (c.failed) return c.fail("tool");
  backtrackingWarnings(
    c,
    name,
    inputs,
    output && fn.returnType && { node: fn.returnTypeNode, model: c.modeler.modelOf(fn.returnType) },
  );

  const { params, ...passing } = argumentPassing(parameters);
  const contract: ToolContract = {
    v: CONTRACT_VERSION,
    name,
    params,
    inputSchema: inputSchema(name, parameters),
    ...passing,
  };
  if (fn.description) contract.description = fn.description;
  if (output) {
    contract.outputSchema = output.schema;
    if (output.wrapped) contract.wrapped = true;
  }
  if (dates?.plan) contract.dates = dates.plan;
  return { contract, diagnostics: c.diagnostics };
}

/**
 * The output schema, or undefined for a text-only tool. In auto mode a return type that
 * cannot be described is a warning (the tool answers with text only); with
 * `structuredOutput: true` it is an error. A JSDoc tag typemcp cannot use (`@minimum warm`) is
 * a warning in both, and the schema is kept without it. A return type holding a part no value of which
 * survives JSON.stringify (a Map, a getter-only class, a bigint, a function) is an error in
 * every mode, `structuredOutput: false` included: even the text would carry no data.
 */
function toolOutput(
  c: Compilation,
  name: string,
  fn: ToolFunction,
  structuredOutput: boolean | undefined,
): OutputSchema | undefined {
  const required = structuredOutput === true;
  const report = (category: DiagnosticCategory, message: string, details: string[]) =>
    c.diagnostics.push(
      diagnosticAt(fn.returnTypeNode, category, DiagnosticCode.OutputNotSerializable, message, details),
    );
  const notSerializable = (typeText: string, details: string[]) => {
    if (structuredOutput === false) return;
    const head = `Function ${name}: return type ${typeText} is not serializable for structured output`;
    const message = required
      ? head
      : `${head}, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)`;
    report(required ? DiagnosticCategory.Error : DiagnosticCategory.Warning, message, details);
  };

  if (fn.unawaitable) {
    report(
      DiagnosticCategory.Error,
      unawaitableMessage(name, c.checker.typeToString(c.checker.returnType(fn.signature))),
      [],
    );
    return undefined;
  }
  if (!fn.returnType) {
    if (required)
      notSerializable("(not annotated)", [
        `${name}: annotate the function's return type: the output schema is built from it`,
      ]);
    return undefined;
  }
  const returnType = fn.returnType;
  // Printing the type is costly and only diagnostics need it.
  const typeText = () => c.checker.typeToString(returnType);
  if (returnsContent(fn.returnType, c.checker)) {
    if (required)
      notSerializable(typeText(), [
        `${name}: result: ${typeText()} is MCP content (for the model), which has no structured output`,
      ]);
    return undefined;
  }
  const model = c.modeler.modelOf(fn.returnType);
  if (model.kind === "any") {
    if (required) notSerializable(typeText(), [`${name}: result: ${typeText()} says nothing about the value's shape`]);
    return undefined;
  }
  const problems = findProblems(model, "result");
  const lost = lostData(problems);
  if (lost.length) {
    const message = `Function ${name}: return type ${typeText()} loses data on the way out, as structured output and as text alike`;
    report(
      DiagnosticCategory.Error,
      message,
      lost.map((p) => describeProblem(name, p)),
    );
    return undefined;
  }
  if (problems.some((p) => !p.tag)) {
    notSerializable(
      typeText(),
      problems.map((p) => describeProblem(name, p)),
    );
    return undefined;
  }
  if (structuredOutput === false) return undefined;
  // A tag typemcp cannot use costs that tag, never the schema: the others still describe the result.
  if (problems.length) {
    const message = `Function ${name}: return type ${typeText()} keeps its output schema without the JSDoc tags typemcp cannot use`;
    report(
      DiagnosticCategory.Warning,
      message,
      problems.map((p) => describeProblem(name, p)),
    );
  }
  return outputSchema(name, model);
}

/** TS93007 per parameter and for the result: the patterns V8 runs with a time bound, at the node whose type holds them. */
function backtrackingWarnings(
  c: Compilation,
  name: string,
  inputs: readonly (DateInput & { keywords?: Keywords })[],
  result: { node: ts.Node; model: Model } | undefined,
): void {
  const warn = (node: ts.Node, what: string, found: Problem[]) => {
    if (found.length)
      c.warning(
        node,
        DiagnosticCode.BacktrackingPattern,
        `Function ${name}: ${what} has a pattern that may backtrack: a value that takes it too long is refused`,
        found.map((p) => describeProblem(name, p)),
      );
  };
  for (const input of inputs)
    warn(input.node, `parameter ${input.name}`, findBacktrackingPatterns(input.model, input.name, input.keywords));
  if (result) warn(result.node, "the return type", findBacktrackingPatterns(result.model, "result"));
}
