import ts from "typescript";
import { parseSkippedJSDoc, parseSkippedJSDocOf } from "./model/skipped-jsdoc";

/** What the transformer reads off the function passed to `mcp.tool`. */
export interface ToolFunction {
  signature: ts.Signature;
  /** The function's own name (declaration, or the variable it is assigned to), if it has one. */
  name?: string;
  description?: string;
  /** The declared return type with `Promise` unwrapped, or undefined when the return type is not annotated. */
  returnType?: ts.Type;
  /** Where return type problems are reported. */
  returnTypeNode: ts.Node;
}

function declaredName(declaration: ts.Node | undefined): string | undefined {
  if (!declaration) return undefined;
  if ((ts.isFunctionDeclaration(declaration) || ts.isFunctionExpression(declaration) || ts.isMethodDeclaration(declaration)) && declaration.name && ts.isIdentifier(declaration.name)) {
    return declaration.name.text;
  }
  const parent = declaration.parent;
  if ((ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration)) && parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  return undefined;
}

function expressionName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

function documentation(parts: ts.SymbolDisplayPart[]): string | undefined {
  return ts.displayPartsToString(parts).trim() || undefined;
}

/** A tool's description: its signature's JSDoc, else its symbol's (the variable holding it, say). */
function description(signature: ts.Signature, symbol: ts.Symbol | undefined, checker: ts.TypeChecker): string | undefined {
  parseSkippedJSDocOf(signature.getDeclaration(), checker);
  const own = documentation(signature.getDocumentationComment(checker));
  if (own !== undefined || !symbol) return own;
  parseSkippedJSDoc(symbol, checker);
  return documentation(symbol.getDocumentationComment(checker));
}

/** What a signature says of a tool: its return type (Promise unwrapped), if annotated, and where to report it. */
function fromSignature(signature: ts.Signature, checker: ts.TypeChecker, fallback: ts.Node): Pick<ToolFunction, "signature" | "returnType" | "returnTypeNode"> {
  const declaration = signature.getDeclaration() as ts.SignatureDeclaration | undefined;
  const annotated = declaration?.type !== undefined;
  return {
    signature,
    returnType: annotated ? awaited(signature.getReturnType(), checker) : undefined,
    returnTypeNode: declaration?.type ?? fallback,
  };
}

/** Types that have no `then`: asking would resolve every member of their apparent type (`String`, `Array<T>`). */
const NEVER_THENABLE = ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike | ts.TypeFlags.BigIntLike | ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void;

/** The type a call's result settles to: `Promise<T>` (and any thenable) unwrapped. */
function awaited(type: ts.Type, checker: ts.TypeChecker): ts.Type {
  // getAwaitedType looks for `then` the long way; most tools return no promise at all.
  const mayBeThenable = (t: ts.Type) => !(t.flags & NEVER_THENABLE) && !checker.isArrayType(t) && !checker.isTupleType(t);
  const thenable = (type.isUnion() ? type.types : [type]).some((t) => mayBeThenable(t) && t.getProperty("then") !== undefined);
  return thenable ? (checker.getAwaitedType(type) ?? type) : type;
}

const OVERLOADED = "overloaded functions cannot be tools (which signature would the schema describe?): register a function with one signature";

/** Reads the registered function; returns a message instead when it cannot be a tool. */
export function readToolFunction(expression: ts.Expression, checker: ts.TypeChecker): ToolFunction | string {
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  // A function declaration's type is its symbol's (no narrowing applies to it): asking at the
  // location would check the expression again.
  const type = symbol && symbol.flags & ts.SymbolFlags.Function ? checker.getTypeOfSymbol(symbol) : checker.getTypeAtLocation(expression);
  const signatures = type.getCallSignatures();
  if (signatures.length === 0) return "the first argument of mcp.tool is not a function";
  if (signatures.length > 1) return OVERLOADED;
  const signature = signatures[0];
  const declaration = signature.getDeclaration() as ts.SignatureDeclaration | undefined;

  return {
    ...fromSignature(signature, checker, expression),
    name: declaredName(declaration) ?? declaredName(symbol?.valueDeclaration) ?? expressionName(expression),
    description: description(signature, symbol, checker),
  };
}

/** Reads a method decorated with `@tool()`; a message instead when it cannot be a tool. */
export function readToolMethod(method: ts.MethodDeclaration, checker: ts.TypeChecker): ToolFunction | string {
  const symbol = checker.getSymbolAtLocation(method.name);
  const implementations = (symbol?.getDeclarations() ?? []).filter(ts.isMethodDeclaration);
  if (implementations.length > 1) return OVERLOADED;
  const signature = checker.getSignatureFromDeclaration(method);
  if (!signature) return "this method has no signature typemcp can read";
  return {
    ...fromSignature(signature, checker, method.name),
    name: ts.isIdentifier(method.name) || ts.isStringLiteral(method.name) ? method.name.text : undefined,
    description: description(signature, undefined, checker),
  };
}
