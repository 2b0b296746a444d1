import type * as ts from "typescript";
import { CONTRACT_VERSION, type ResourceContract } from "../contract/contract";
import type { Compilation, CompiledRegistration } from "./compilation";
import { DiagnosticCode } from "./diagnostic-codes";
import { argumentPassing, readParameters } from "./input-schema";
import { readStaticOptions } from "./options";
import { resourceContents } from "./resource-contents";
import { checkCompleteKeys, stringArguments, textInputs, type TextInput } from "./string-arguments";
import type { ToolFunction } from "./tool-function";
import { parseUriTemplate, variableText, type TemplateVariable } from "./uri-template";

/** The URI argument's value, when its type is a string literal type (a literal, or a `const` of one). */
function literalUri(c: Compilation, uriNode: ts.Expression): string | undefined {
  const value = c.checker.literalValue(c.checker.typeAt(uriNode));
  return typeof value === "string" ? value : undefined;
}

/**
 * One resource: a fixed URI, or an RFC 6570 template whose variables are the function's
 * parameters (checked both ways, each typed as a prompt argument is), and the contents its
 * declared return type gives.
 */
export function compileResource(
  c: Compilation,
  uriNode: ts.Expression,
  fn: ToolFunction | string,
  optionsArgument: ts.Expression | undefined,
  fnNode: ts.Node,
): CompiledRegistration {
  const uri = literalUri(c, uriNode);
  if (uri === undefined) {
    c.error(
      uriNode,
      DiagnosticCode.InvalidRegistration,
      `The URI must be known at build time, so that its template can be checked against the function's parameters: pass a string literal, or a const holding one (this URI is a ${c.checker.typeToString(c.checker.typeAt(uriNode))})`,
    );
    return c.fail("resource");
  }
  const template = parseUriTemplate(uri);
  if ("problem" in template) {
    c.error(
      uriNode,
      DiagnosticCode.InvalidRegistration,
      `Resource URI ${JSON.stringify(uri)} is not a URI template typemcp can serve: ${template.problem}`,
    );
    return c.fail("resource");
  }
  if (typeof fn === "string") {
    c.error(fnNode, DiagnosticCode.InvalidRegistration, fn);
    return c.fail("resource");
  }
  const options = readStaticOptions(optionsArgument, c.checker);
  // A resource at a fixed URI may be an anonymous function (`mcp.resource("config://app", () => ...)`): its URI names it.
  const name = options.name ?? fn.name ?? uri;
  if (name === "") {
    c.error(
      optionsArgument ?? fnNode,
      DiagnosticCode.InvalidRegistration,
      "A resource's name cannot be empty: give it one character at least, or leave it out to use the function's name",
    );
    return c.fail("resource");
  }
  const label = fn.name ?? name;
  const parameters = readParameters(fn.signature, c.modeler, "resource");
  if (typeof parameters === "string") {
    c.error(fnNode, DiagnosticCode.InvalidRegistration, `Function ${label}: ${parameters}`);
    return c.fail("resource");
  }
  const inputs = textInputs(parameters, c.checker);
  const { variables } = template;
  matchVariables(c, label, uri, uriNode, variables, inputs);
  if (c.failed) return c.fail("resource");

  const byName = new Map(variables.map((v) => [v.name, v]));
  const strings = stringArguments(c, name, label, parameters, inputs, (input) => {
    const variable = byName.get(input.name);
    return variable?.explode
      ? { role: `the exploded variable ${variableText(variable)} of the URI template`, list: true }
      : { role: `the variable {${input.name}} of the URI template` };
  });
  const contents = resourceContents(c, label, fn);
  checkCompleteKeys(
    c,
    optionsArgument,
    inputs.map((i) => i.name),
    `a variable of resource template ${uri}`,
    "variables",
  );
  if (c.failed) return c.fail("resource");

  const contract: ResourceContract = {
    v: CONTRACT_VERSION,
    kind: "resource",
    name,
    ...(fn.description && { description: fn.description }),
    uri,
    ...(variables.length > 0 && { template: true }),
    ...argumentPassing(parameters),
    ...strings,
    ...contents,
  };
  return { contract, diagnostics: c.diagnostics };
}

/**
 * The template's variables against the function's arguments, both ways: a variable must name
 * an argument (TS93003 at the URI); an argument with no variable never gets a value, which is
 * an error when it is required or the URI has no variables at all, and a warning when it is
 * optional.
 */
function matchVariables(
  c: Compilation,
  label: string,
  uri: string,
  uriNode: ts.Node,
  variables: TemplateVariable[],
  inputs: TextInput[],
): void {
  const names = inputs.map((i) => i.name);
  for (const variable of variables) {
    if (names.includes(variable.name)) continue;
    c.error(
      uriNode,
      DiagnosticCode.InvalidRegistration,
      `Resource template ${JSON.stringify(uri)}: the variable ${variableText(variable)} names no parameter of function ${label} (${names.length ? `its parameters: ${names.join(", ")}` : "it takes none"}): each variable is passed to the parameter of its name`,
    );
  }
  for (const input of inputs) {
    if (variables.some((v) => v.name === input.name)) continue;
    if (!variables.length)
      c.error(
        input.node,
        DiagnosticCode.InvalidRegistration,
        `Function ${label}: ${input.label} never gets a value: the resource's URI ${JSON.stringify(uri)} has no variables, so its function takes no arguments (a ToolContext only)`,
      );
    else if (input.required)
      c.error(
        input.node,
        DiagnosticCode.InvalidRegistration,
        `Function ${label}: ${input.label} is required, but the URI template ${JSON.stringify(uri)} has no variable {${input.name}} to give it a value: add one, or make the parameter optional`,
      );
    else
      c.warning(
        input.node,
        DiagnosticCode.InvalidRegistration,
        `Function ${label}: ${input.label} never gets a value: the URI template ${JSON.stringify(uri)} has no variable {${input.name}}`,
      );
  }
}
