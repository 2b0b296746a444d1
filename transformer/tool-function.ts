import * as ts from "typescript";

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

/** Reads the registered function; returns a message instead when it cannot be a tool. */
export function readToolFunction(expression: ts.Expression, checker: ts.TypeChecker): ToolFunction | string {
  const signatures = checker.getTypeAtLocation(expression).getCallSignatures();
  if (signatures.length === 0) return "the first argument of mcp.tool is not a function";
  if (signatures.length > 1) return "overloaded functions cannot be tools (which signature would the schema describe?): register a function with one signature";
  const signature = signatures[0];
  const declaration = signature.getDeclaration() as ts.SignatureDeclaration | undefined;

  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);

  const annotated = declaration?.type !== undefined;
  return {
    signature,
    name: declaredName(declaration) ?? declaredName(symbol?.valueDeclaration) ?? expressionName(expression),
    description: documentation(signature.getDocumentationComment(checker)) ?? (symbol && documentation(symbol.getDocumentationComment(checker))),
    returnType: annotated ? checker.getAwaitedType(signature.getReturnType()) ?? signature.getReturnType() : undefined,
    returnTypeNode: declaration?.type ?? expression,
  };
}
