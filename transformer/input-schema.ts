import * as ts from "typescript";
import type { JsonSchema } from "../runtime/contract";
import type { JsonValue, Model } from "./model/model";
import type { TypeModeler } from "./model/modeler";
import { includesUndefined, modelWithoutUndefined } from "./model/optional";
import { SchemaWriter } from "./schema/writer";

/** One tool argument: a parameter of the function. */
export interface Argument {
  name: string;
  model: Model;
  required: boolean;
  description?: string;
  default?: JsonValue;
  /** Where problems with this argument are reported. */
  node: ts.Node;
}

/** The JSON value of a default like `= 3`, `= "metric"`, `= -1`, `= ["a"]`; undefined when it is not a literal. */
export function literalValue(expression: ts.Expression): JsonValue | undefined {
  if (ts.isStringLiteralLike(expression)) return expression.text;
  if (ts.isNumericLiteral(expression)) return Number(expression.text);
  if (expression.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (expression.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (expression.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isPrefixUnaryExpression(expression) && expression.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(expression.operand)) {
    return -Number(expression.operand.text);
  }
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)) return literalValue(expression.expression);
  if (ts.isArrayLiteralExpression(expression)) {
    const items = expression.elements.map((e) => (ts.isSpreadElement(e) ? undefined : literalValue(e)));
    return items.every((i) => i !== undefined) ? (items as JsonValue[]) : undefined;
  }
  if (ts.isObjectLiteralExpression(expression)) {
    const result: { [key: string]: JsonValue } = {};
    for (const property of expression.properties) {
      if (!ts.isPropertyAssignment(property) || !(ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) return undefined;
      const value = literalValue(property.initializer);
      if (value === undefined) return undefined;
      result[property.name.text] = value;
    }
    return result;
  }
  return undefined;
}

/** The parameters of a tool function as arguments; a message when a parameter cannot be one. */
export function readArguments(signature: ts.Signature, modeler: TypeModeler): Argument[] | string {
  const args: Argument[] = [];
  for (const symbol of signature.getParameters()) {
    const declaration = symbol.valueDeclaration as ts.ParameterDeclaration | undefined;
    if (declaration && declaration.dotDotDotToken) return `rest parameter ...${symbol.name} cannot be a tool argument: arguments are named`;
    if (declaration && !ts.isIdentifier(declaration.name)) {
      return "destructured parameters are not supported: name the parameter (the argument is published under that name)";
    }
    const type = modeler.checker.getTypeOfSymbol(symbol);
    const optional = !!declaration && (declaration.questionToken !== undefined || declaration.initializer !== undefined);
    const argument: Argument = {
      name: symbol.name,
      model: modelWithoutUndefined(type, modeler),
      required: !optional && !includesUndefined(type),
      node: declaration?.type ?? declaration ?? signature.getDeclaration(),
    };
    const description = modeler.describe(symbol);
    if (description) argument.description = description;
    const defaultValue = declaration?.initializer && literalValue(declaration.initializer);
    if (defaultValue !== undefined) argument.default = defaultValue;
    args.push(argument);
  }
  return args;
}

/**
 * The input schema: one property per argument, `required` for the non-optional ones,
 * `<tool>Arguments` as title. Unknown arguments are rejected (`additionalProperties: false`):
 * a model that sends one learns so from a clear error, instead of being silently ignored.
 */
export function inputSchema(toolName: string, args: Argument[]): JsonSchema {
  const writer = new SchemaWriter();
  const properties: Record<string, JsonSchema> = {};
  for (const argument of args) {
    const schema = writer.format(argument.model);
    if (argument.description !== undefined) schema.description = argument.description;
    if (argument.default !== undefined) schema.default = argument.default;
    properties[argument.name] = schema;
  }
  const schema: JsonSchema = { type: "object", title: `${toolName}Arguments`, properties };
  const required = args.filter((a) => a.required).map((a) => a.name);
  if (required.length) schema.required = required;
  schema.additionalProperties = false;
  const defs = writer.definitions();
  if (defs) schema.$defs = defs;
  return schema;
}
