import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const packageNameOfDirectory = new Map<string, string | undefined>();

/** The name in the nearest package.json above a file (cached per directory). */
function packageNameOf(fileName: string): string | undefined {
  const directory = path.dirname(fileName);
  if (packageNameOfDirectory.has(directory)) return packageNameOfDirectory.get(directory);
  let name: string | undefined;
  const manifest = path.join(directory, "package.json");
  if (fs.existsSync(manifest)) {
    try {
      name = JSON.parse(fs.readFileSync(manifest, "utf8")).name;
    } catch {
      name = undefined;
    }
  } else if (path.dirname(directory) !== directory) {
    name = packageNameOf(directory);
  }
  packageNameOfDirectory.set(directory, name);
  return name;
}

/**
 * A fast pass before the checker decides: can this callee be something called `tool` at
 * all? Resolving a call's signature type-checks it, and the transformer sees every call of
 * the program; names cost nothing. `mcp.tool`, `mcp["tool"]`, `tool` (the decorator, even
 * imported under another name) and `const { tool: register } = mcp` pass; `register` bound
 * any other way (`mcp.tool.bind(mcp)`) loses the method's declaration anyway.
 */
function mayBeTool(callee: ts.Expression, checker: ts.TypeChecker): boolean {
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text === "tool";
  if (ts.isElementAccessExpression(callee)) return ts.isStringLiteralLike(callee.argumentExpression) && callee.argumentExpression.text === "tool";
  if (!ts.isIdentifier(callee)) return false;
  if (callee.text === "tool") return true;
  let symbol = checker.getSymbolAtLocation(callee);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  if (!symbol) return false;
  if (symbol.name === "tool") return true;
  return (symbol.getDeclarations() ?? []).some((d) => ts.isBindingElement(d) && d.propertyName !== undefined && ts.isIdentifier(d.propertyName) && d.propertyName.text === "tool");
}

/** The two ways to register a tool: `mcp.tool(fn, options?)`, and `@tool(options?)` on a method. */
export type Registration = { kind: "call" } | { kind: "decorator"; method: ts.MethodDeclaration };

/**
 * Whether a call registers a tool: the checker resolves its callee to the `tool` method of
 * typemcp's own `MCPServer` class, or to typemcp's `tool` decorator function on a method
 * (declared in a file of the `typemcp` package). Names in the text play no part:
 * `server.tool(...)` on an alias, a subclass or a destructured method is found; a user's own
 * `tool()` function is not.
 */
export function registrationOf(call: ts.CallExpression, checker: ts.TypeChecker): Registration | undefined {
  if (!mayBeTool(call.expression, checker)) return undefined;
  const declaration = checker.getResolvedSignature(call)?.getDeclaration();
  if (!declaration || !isTypemcpDeclaration(declaration)) return undefined;
  const name = declaration.name && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  if (name !== "tool") return undefined;
  if (ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration)) {
    const owner = declaration.parent;
    return ts.isClassLike(owner) && owner.name?.text === "MCPServer" ? { kind: "call" } : undefined;
  }
  if (ts.isFunctionDeclaration(declaration) && ts.isDecorator(call.parent) && ts.isMethodDeclaration(call.parent.parent)) {
    return { kind: "decorator", method: call.parent.parent };
  }
  return undefined;
}

const declaredByTypemcp = new WeakMap<ts.SourceFile, boolean>();

function isTypemcpDeclaration(declaration: ts.Node): boolean {
  const file = declaration.getSourceFile();
  let typemcp = declaredByTypemcp.get(file);
  if (typemcp === undefined) declaredByTypemcp.set(file, (typemcp = packageNameOf(file.fileName) === "typemcp"));
  return typemcp;
}

const CONTENT_BLOCKS = new Set(["TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource", "ContentBlock"]);

/** An MCP content block type, as typemcp declares them. */
function isContentBlockType(type: ts.Type): boolean {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  return !!symbol && CONTENT_BLOCKS.has(symbol.name) && (symbol.getDeclarations() ?? []).some(isTypemcpDeclaration);
}

/**
 * Whether a return type is MCP content: content blocks, or arrays and unions of them and
 * strings (`(string | ImageContent)[]`). Such a tool answers with its blocks as they are,
 * and has no output schema: content is for the model, not data for the application.
 */
export function returnsContent(type: ts.Type, checker: ts.TypeChecker): boolean {
  const seen = new Set<ts.Type>();
  const shape = (t: ts.Type): "content" | "text" | "other" => {
    if (isContentBlockType(t)) return "content";
    if (t.flags & ts.TypeFlags.StringLike) return "text";
    if (seen.has(t)) return "text"; // a recursive type (`type Json = ... | Json[]`) adds nothing the first visit did not
    seen.add(t);
    const parts = t.isUnion() ? t.types : checker.isArrayType(t) ? [checker.getTypeArguments(t as ts.TypeReference)[0]] : undefined;
    if (!parts) return "other";
    const shapes = parts.map(shape);
    return shapes.includes("other") ? "other" : shapes.includes("content") ? "content" : "text";
  };
  return shape(type) === "content";
}

/** Whether a parameter's type is typemcp's `ToolContext` (the runtime passes it; it is not an argument). */
export function isToolContext(type: ts.Type): boolean {
  const symbol = type.aliasSymbol ?? type.getSymbol();
  return symbol?.name === "ToolContext" && (symbol.getDeclarations() ?? []).some(isTypemcpDeclaration);
}
