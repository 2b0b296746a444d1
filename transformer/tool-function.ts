import type * as ts from "typescript";
import type { Signature, Symbol, Type, TypeChecker } from "./checker/checker";
import { SymbolFlags, TypeFlags } from "./checker/flags";
import type { RegistrationKind } from "./registration";

/** What the transformer reads off the function passed to `mcp.tool`, `mcp.prompt` or `mcp.resource`. */
export interface ToolFunction {
  signature: Signature;
  /** The function's own name (declaration, or the variable it is assigned to), if it has one. */
  name?: string;
  description?: string;
  /** The declared return type with `Promise` unwrapped, or undefined when the return type is not annotated. */
  returnType?: Type;
  /** Where return type problems are reported. */
  returnTypeNode: ts.Node;
  /** The declared return type is a union of promises whose awaited union this TypeScript cannot give. */
  unawaitable?: true;
}

function declaredName(declaration: ts.Node | undefined, { syntax }: TypeChecker): string | undefined {
  if (!declaration) return undefined;
  if (
    (syntax.isFunctionDeclaration(declaration) ||
      syntax.isFunctionExpression(declaration) ||
      syntax.isMethodDeclaration(declaration)) &&
    declaration.name &&
    syntax.isIdentifier(declaration.name)
  ) {
    return declaration.name.text;
  }
  const parent = declaration.parent;
  if (
    (syntax.isArrowFunction(declaration) || syntax.isFunctionExpression(declaration)) &&
    parent &&
    syntax.isVariableDeclaration(parent) &&
    syntax.isIdentifier(parent.name)
  ) {
    return parent.name.text;
  }
  return undefined;
}

function expressionName(expression: ts.Expression, { syntax }: TypeChecker): string | undefined {
  if (syntax.isIdentifier(expression)) return expression.text;
  if (syntax.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** A tool's description: its signature's JSDoc, else its symbol's (the variable holding it, say). */
function description(signature: Signature, symbol: Symbol | undefined, checker: TypeChecker): string | undefined {
  const own = checker.signatureDocumentation(signature).trim() || undefined;
  if (own !== undefined || !symbol) return own;
  return checker.documentation(symbol)?.comment.trim() || undefined;
}

/** What a signature says of a tool: its return type (Promise unwrapped), if annotated, and where to report it. */
function fromSignature(
  signature: Signature,
  checker: TypeChecker,
  fallback: ts.Node,
): Pick<ToolFunction, "signature" | "returnType" | "returnTypeNode" | "unawaitable"> {
  const declaration = checker.signatureDeclaration(signature);
  const annotated = declaration?.type !== undefined;
  const returnType = annotated ? awaited(checker.returnType(signature), checker) : undefined;
  return {
    signature,
    returnType,
    returnTypeNode: declaration?.type ?? fallback,
    ...(annotated && returnType === undefined && { unawaitable: true as const }),
  };
}

/** Types that have no `then`: asking would resolve every member of their apparent type (`String`, `Array<T>`). */
const NEVER_THENABLE =
  TypeFlags.StringLike |
  TypeFlags.NumberLike |
  TypeFlags.BooleanLike |
  TypeFlags.BigIntLike |
  TypeFlags.Null |
  TypeFlags.Undefined |
  TypeFlags.Void;

/** The type a call's result settles to: `Promise<T>` (and any thenable) unwrapped. */
function awaited(type: Type, checker: TypeChecker): Type | undefined {
  // Awaiting looks for `then` the long way; most tools return no promise at all.
  const mayBeThenable = (t: Type) =>
    !(checker.flags(t) & NEVER_THENABLE) && !checker.isArrayType(t) && !checker.isTupleType(t);
  const members = checker.flags(type) & TypeFlags.Union ? checker.constituents(type) : [type];
  const thenable = members.some((t) => mayBeThenable(t) && checker.property(t, "then") !== undefined);
  return thenable ? checker.awaited(type) : type;
}

/** The error for a declared return type that is a union of promises this TypeScript cannot await (see `unawaitable`). */
export function unawaitableMessage(name: string, typeText: string): string {
  return `Function ${name}: return type ${typeText} is a union of promises of different types, whose awaited union TypeScript 7's checker API cannot give: declare it as one promise of the union (Promise<A | B>)`;
}

const overloaded = (registers: RegistrationKind) =>
  `overloaded functions cannot be ${registers}s (which signature would the schema describe?): register a function with one signature`;

/** Reads the registered function; returns a message instead when it cannot be one (`registers` says what it would be). */
export function readToolFunction(
  expression: ts.Expression,
  checker: TypeChecker,
  registers: RegistrationKind = "tool",
): ToolFunction | string {
  let symbol = checker.symbolAt(expression);
  if (symbol && checker.symbolFlags(symbol) & SymbolFlags.Alias) symbol = checker.aliasedSymbol(symbol);
  // A function declaration's type is its symbol's (no narrowing applies to it): asking at the
  // location would check the expression again.
  const type =
    symbol && checker.symbolFlags(symbol) & SymbolFlags.Function
      ? checker.typeOfSymbol(symbol)
      : checker.typeAt(expression);
  const signatures = checker.callSignatures(type);
  if (signatures.length === 0)
    return `the ${registers === "resource" ? "second" : "first"} argument of mcp.${registers} is not a function`;
  if (signatures.length > 1) return overloaded(registers);
  const signature = signatures[0];
  const declaration = checker.signatureDeclaration(signature);

  return {
    ...fromSignature(signature, checker, expression),
    name:
      declaredName(declaration, checker) ??
      declaredName(symbol && checker.valueDeclaration(symbol), checker) ??
      expressionName(expression, checker),
    description: description(signature, symbol, checker),
  };
}

/** Reads a method decorated with `@tool()`; a message instead when it cannot be a tool. */
export function readToolMethod(method: ts.MethodDeclaration, checker: TypeChecker): ToolFunction | string {
  const { syntax } = checker;
  const symbol = checker.symbolAt(method.name);
  const implementations = (symbol ? checker.declarations(symbol) : []).filter((d) => syntax.isMethodDeclaration(d));
  if (implementations.length > 1) return overloaded("tool");
  const signature = checker.signatureOfDeclaration(method);
  if (!signature) return "this method has no signature typemcp can read";
  return {
    ...fromSignature(signature, checker, method.name),
    name: syntax.isIdentifier(method.name) || syntax.isStringLiteral(method.name) ? method.name.text : undefined,
    description: description(signature, undefined, checker),
  };
}
