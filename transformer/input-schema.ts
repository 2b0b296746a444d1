import type * as ts from "typescript";
import type { JsonSchema } from "../contract/contract";
import type { TypeChecker } from "./checker/checker";
import { TypeFlags } from "./checker/flags";
import { setOwn } from "../contract/own";
import { annotate } from "./schema/annotate";
import type { JsonValue, Keywords, Model } from "./model/model";
import type { TypeModeler } from "./model/modeler";
import {
  hasNoJsonValue,
  holdsOnlyFunctions,
  includesUndefined,
  modelWithoutUndefined,
  requiredFunctionModel,
} from "./model/optional";
import { argumentTags, ParameterTagReader } from "./parameter-tags";
import { isToolContext, type RegistrationKind } from "./registration";
import type { Signature, Type } from "./checker/checker";
import { rootObject, writeRoot } from "./schema/root";

/** One tool argument: a parameter of the function, or a property of its one destructured parameter. */
export interface Argument {
  name: string;
  /** The parameter's declared type (with `undefined`, where it admits it). */
  type: Type;
  model: Model;
  required: boolean;
  description?: string;
  /** From its JSDoc tags: on the parameter itself, or in its function's comment. */
  keywords?: Keywords;
  /** Its JSDoc tags typemcp cannot use, and why. */
  tagProblems?: string[];
  default?: JsonValue;
  /** Where problems with this argument are reported. */
  node: ts.Node;
  /** Typed `undefined` or `void` only, or optional and a function: no JSON value stands for it, so the schema leaves it out (the tool gets undefined). */
  absent?: true;
}

/** How the function takes its arguments. */
export type Parameters =
  /** Positional parameters, one argument each. */
  | { kind: "positional"; args: Argument[]; context?: number }
  /** One destructured object parameter (`({ city, days }: ForecastArgs)`): its properties are the arguments. */
  | {
      kind: "object";
      /** The parameter's type, without `undefined`: its properties are the arguments. */
      type: Type;
      model: Model;
      defaults: Record<string, JsonValue>;
      node: ts.Node;
      context?: number;
    };

/** A numeric literal's value, if JSON has it: `1e400` is Infinity, which it has not. */
function jsonNumber(text: string): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

const LITERAL_TYPE = TypeFlags.StringLiteral | TypeFlags.NumberLiteral | TypeFlags.BooleanLiteral;

/**
 * The value of a name whose type is one literal: an enum member (`Priority.Medium`, whose type
 * is the member) or a constant (`DEFAULT_DAYS`, declared `const DEFAULT_DAYS = 3`). Undefined
 * for anything else (a `let`, a member computed at run time, whose type is the wider one).
 */
function constantValue(expression: ts.Expression, checker: TypeChecker): JsonValue | undefined {
  const type = checker.typeAt(expression);
  if (!(checker.flags(type) & LITERAL_TYPE)) return undefined;
  const value = checker.literalValue(type);
  return typeof value === "number" && !Number.isFinite(value) ? undefined : value;
}

/**
 * The JSON value of a default like `= 3`, `= "metric"`, `= -1`, `= ["a"]`, `= Priority.Medium`;
 * undefined when it is neither a literal nor a name of one.
 */
export function literalValue(expression: ts.Expression, checker: TypeChecker): JsonValue | undefined {
  const { syntax } = checker;
  if (syntax.isStringLiteralLike(expression)) return expression.text;
  if (syntax.isNumericLiteral(expression)) return jsonNumber(expression.text);
  if (expression.kind === syntax.SyntaxKind.TrueKeyword) return true;
  if (expression.kind === syntax.SyntaxKind.FalseKeyword) return false;
  if (expression.kind === syntax.SyntaxKind.NullKeyword) return null;
  if (
    syntax.isPrefixUnaryExpression(expression) &&
    expression.operator === syntax.SyntaxKind.MinusToken &&
    syntax.isNumericLiteral(expression.operand)
  ) {
    const value = jsonNumber(expression.operand.text);
    return value === undefined ? undefined : -value;
  }
  if (
    syntax.isParenthesizedExpression(expression) ||
    syntax.isAsExpression(expression) ||
    syntax.isSatisfiesExpression(expression)
  )
    return literalValue(expression.expression, checker);
  if (syntax.isArrayLiteralExpression(expression)) {
    const items = expression.elements.map((e) => (syntax.isSpreadElement(e) ? undefined : literalValue(e, checker)));
    return items.every((i) => i !== undefined) ? (items as JsonValue[]) : undefined;
  }
  if (syntax.isObjectLiteralExpression(expression)) {
    const result: { [key: string]: JsonValue } = {};
    for (const property of expression.properties) {
      if (
        !syntax.isPropertyAssignment(property) ||
        !(syntax.isIdentifier(property.name) || syntax.isStringLiteral(property.name))
      )
        return undefined;
      const value = literalValue(property.initializer, checker);
      if (value === undefined) return undefined;
      setOwn(result, property.name.text, value);
    }
    return result;
  }
  if (
    syntax.isIdentifier(expression) ||
    syntax.isPropertyAccessExpression(expression) ||
    syntax.isElementAccessExpression(expression)
  )
    return constantValue(expression, checker);
  return undefined;
}

/** Literal defaults of a destructuring pattern's elements: `({ days = 3 })` → `{ days: 3 }`. */
function bindingDefaults(pattern: ts.ObjectBindingPattern, checker: TypeChecker): Record<string, JsonValue> | string {
  const { syntax } = checker;
  const defaults: Record<string, JsonValue> = {};
  for (const element of pattern.elements) {
    if (element.dotDotDotToken) return "a rest element (...rest) in the destructured parameter cannot be described";
    const name = element.propertyName ?? element.name;
    if (!(syntax.isIdentifier(name) || syntax.isStringLiteral(name)))
      return "computed property names in the destructured parameter cannot be described";
    const value = element.initializer && literalValue(element.initializer, checker);
    if (value !== undefined) setOwn(defaults, name.text, value);
  }
  return defaults;
}

/**
 * The parameters of a tool, prompt or resource function (`registers` says which, for the messages);
 * a message when one cannot be an argument.
 */
export function readParameters(
  signature: Signature,
  modeler: TypeModeler,
  registers: RegistrationKind = "tool",
): Parameters | string {
  const { checker } = modeler;
  const { syntax } = checker;
  const args: Argument[] = [];
  let context: number | undefined;
  let object: Extract<Parameters, { kind: "object" }> | undefined;
  const parameters = checker.parameters(signature);
  const tags = new ParameterTagReader(
    checker,
    checker.signatureDeclaration(signature),
    parameters.map((p) => checker.symbolName(p)),
  );
  for (const [index, symbol] of parameters.entries()) {
    const declaration = checker.valueDeclaration(symbol) as ts.ParameterDeclaration | undefined;
    const type = checker.typeOfSymbol(symbol);
    const name = checker.symbolName(symbol);
    if (isToolContext(checker.nonNullable(type), checker)) {
      context = index;
      tags.notAnArgument(name, declaration);
      continue;
    }
    if (declaration?.dotDotDotToken)
      return `rest parameter ...${name} cannot be a ${registers} argument: arguments are named`;
    if (declaration && syntax.isObjectBindingPattern(declaration.name)) {
      const defaults = bindingDefaults(declaration.name, checker);
      if (typeof defaults === "string") return defaults;
      object = {
        kind: "object",
        type: checker.nonNullable(type),
        model: modelWithoutUndefined(type, modeler),
        defaults,
        node: declaration.type ?? declaration,
      };
      tags.destructured(declaration);
      continue;
    }
    if (declaration && !syntax.isIdentifier(declaration.name))
      return `array destructuring cannot be a ${registers}'s parameters: name the parameter`;
    const optional =
      !!declaration && (declaration.questionToken !== undefined || declaration.initializer !== undefined);
    const required = !optional && !includesUndefined(type, checker);
    const node = declaration?.type ?? declaration ?? checker.signatureDeclaration(signature)!;
    // As a property: no JSON value stands for it, or it may be left out and holds only functions.
    const functions = holdsOnlyFunctions(type, modeler);
    if (hasNoJsonValue(type, checker, declaration?.questionToken !== undefined) || (functions && !required)) {
      args.push({ name, type, model: { kind: "null" }, required: false, node, absent: true });
      tags.notAnArgument(name, declaration);
      continue;
    }
    const argument: Argument = {
      name,
      type,
      model: functions ? requiredFunctionModel(type, modeler) : modelWithoutUndefined(type, modeler),
      required,
      node,
    };
    // A parameter's documentation is its `@param` text (and the comment on it, as the language service reads them).
    const description = checker.documentation(symbol)?.comment.trim();
    if (description) argument.description = description;
    const defaultValue = declaration?.initializer && literalValue(declaration.initializer, checker);
    if (defaultValue !== undefined) argument.default = defaultValue;
    Object.assign(argument, argumentTags(tags.of(name, declaration), argument.model, argument.default));
    args.push(argument);
  }
  const problem = tags.problem();
  if (problem) return problem;
  if (object) {
    if (args.length)
      return `a destructured object parameter must be the ${registers}'s only argument (its properties are the arguments)`;
    if (!rootObject(object.model))
      return "a destructured parameter must be an object type with string keys (its properties are the arguments)";
    return { ...object, context };
  }
  return { kind: "positional", args, context };
}

/** How the runtime passes the arguments: `params`, `argumentsObject` and `context` (the contract's fields). */
export function argumentPassing(parameters: Parameters): {
  params: string[];
  argumentsObject?: true;
  context?: number;
} {
  return {
    params: parameters.kind === "positional" ? parameters.args.map((a) => a.name) : [],
    ...(parameters.kind === "object" && { argumentsObject: true as const }),
    ...(parameters.context !== undefined && { context: parameters.context }),
  };
}

/**
 * The input schema, titled `<tool>Arguments`: one property per argument (or the destructured
 * parameter's object type itself), `required` for the non-optional ones. Unknown arguments
 * are rejected (`additionalProperties: false`): a model that sends one learns so from a clear
 * error, instead of being silently ignored.
 */
export function inputSchema(toolName: string, parameters: Parameters): JsonSchema {
  const head = { type: "object", title: `${toolName}Arguments` };
  if (parameters.kind === "object") {
    const { object, definition } = rootObject(parameters.model)!;
    return writeRoot(
      head,
      (writer) => {
        const schema = writer.format(object);
        const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
        for (const [name, value] of Object.entries(parameters.defaults))
          if (Object.hasOwn(properties, name)) properties[name].default = value;
        // A property the destructuring gives a default need not be sent.
        const required = ((schema.required ?? []) as string[]).filter((name) => !(name in parameters.defaults));
        if (required.length) schema.required = required;
        else delete schema.required;
        return { ...schema, title: head.title };
      },
      definition,
    );
  }
  return writeRoot(head, (writer) => {
    const properties: Record<string, JsonSchema> = {};
    for (const argument of parameters.args) {
      if (argument.absent) continue;
      setOwn(properties, argument.name, annotate({ ...writer.format(argument.model) }, argument));
      if (argument.default !== undefined) properties[argument.name].default = argument.default;
    }
    const required = parameters.args.filter((a) => a.required).map((a) => a.name);
    return { properties, ...(required.length ? { required } : {}), additionalProperties: false };
  });
}
