import * as fs from "node:fs";
import * as path from "node:path";
import type * as ts from "typescript";
import type { Type, TypeChecker } from "./checker/checker";
import { SymbolFlags, TypeFlags } from "./checker/flags";

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

/** Whether a file is one of the `typemcp` package's. */
export function isTypemcpFile(fileName: string): boolean {
  return packageNameOf(fileName) === "typemcp";
}

/** What a registration registers: `MCPServer`'s `tool`, `prompt` and `resource` methods (and `@tool()`). */
export type RegistrationKind = "tool" | "prompt" | "resource";

/** The names a registration is called by (`mcp.tool`, `@tool()`): a call by another name is none. */
export const METHODS: ReadonlySet<string> = new Set<RegistrationKind>(["tool", "prompt", "resource"]);

/**
 * A fast pass before the checker decides: can this callee be a method named one of `names`
 * at all? Resolving a call's signature type-checks it, and the transformer sees every call of
 * the program; names cost nothing. `mcp.tool`, `mcp["prompt"]`, `tool` (even imported under
 * another name, when `alsoImported`) and `const { resource: register } = mcp` pass; a name
 * bound any other way (`mcp.tool.bind(mcp)`) loses the method's declaration anyway.
 */
export function mayCall(
  callee: ts.Expression,
  checker: TypeChecker,
  names: ReadonlySet<string>,
  alsoImported?: string,
): boolean {
  const { syntax } = checker;
  if (syntax.isPropertyAccessExpression(callee)) return names.has(callee.name.text);
  if (syntax.isElementAccessExpression(callee))
    return syntax.isStringLiteralLike(callee.argumentExpression) && names.has(callee.argumentExpression.text);
  if (!syntax.isIdentifier(callee)) return false;
  if (names.has(callee.text)) return true;
  let symbol = checker.symbolAt(callee);
  if (symbol && checker.symbolFlags(symbol) & SymbolFlags.Alias) symbol = checker.aliasedSymbol(symbol);
  if (!symbol) return false;
  if (alsoImported !== undefined && checker.symbolName(symbol) === alsoImported) return true;
  return checker
    .declarations(symbol)
    .some(
      (d) =>
        syntax.isBindingElement(d) &&
        d.propertyName !== undefined &&
        syntax.isIdentifier(d.propertyName) &&
        names.has(d.propertyName.text),
    );
}

/**
 * The ways to register: `mcp.tool(fn, options?)`, `mcp.prompt(fn, options?)`,
 * `mcp.resource(uri, fn, options?)`, and `@tool(options?)` on a method.
 */
export type Registration =
  | { kind: "call"; registers: RegistrationKind }
  | { kind: "decorator"; registers: "tool"; method: ts.MethodDeclaration };

/** Where a registration's options go, among the call's arguments: the contract is added right after them. */
export function optionsIndex(registration: Registration): number {
  if (registration.kind === "decorator") return 0;
  return registration.registers === "resource" ? 2 : 1;
}

/** Where the registered function is among a call's arguments (none for `@tool()`, whose method it is). */
export function functionIndex(registration: Registration): number | undefined {
  if (registration.kind === "decorator") return undefined;
  return registration.registers === "resource" ? 1 : 0;
}

/**
 * Whether a call registers something: the checker resolves its callee to the `tool`, `prompt`
 * or `resource` method of typemcp's own `MCPServer` class, or to typemcp's `tool` decorator
 * function on a method (declared in a file of the `typemcp` package). Names in the text play
 * no part: `server.tool(...)` on an alias, a subclass or a destructured method is found; a
 * user's own `tool()` function, or `prompt()` of another library, is not.
 */
export function registrationOf(call: ts.CallExpression, checker: TypeChecker): Registration | undefined {
  const { syntax } = checker;
  if (!mayCall(call.expression, checker, METHODS, "tool")) return undefined;
  const declaration = checker.resolvedDeclaration(call);
  if (!declaration || !isTypemcpFile(declaration.getSourceFile().fileName)) return undefined;
  const name = (declaration as ts.NamedDeclaration).name;
  if (!name || !syntax.isIdentifier(name) || !METHODS.has(name.text)) return undefined;
  if (syntax.isMethodDeclaration(declaration) || syntax.isMethodSignature(declaration)) {
    const owner = declaration.parent;
    return syntax.isClassLike(owner) && owner.name?.text === "MCPServer"
      ? { kind: "call", registers: name.text as RegistrationKind }
      : undefined;
  }
  if (
    name.text === "tool" &&
    syntax.isFunctionDeclaration(declaration) &&
    syntax.isDecorator(call.parent) &&
    syntax.isMethodDeclaration(call.parent.parent)
  ) {
    return { kind: "decorator", registers: "tool", method: call.parent.parent };
  }
  return undefined;
}

const CONTENT_BLOCKS = new Set([
  "TextContent",
  "ImageContent",
  "AudioContent",
  "ResourceLink",
  "EmbeddedResource",
  "ContentBlock",
]);

/** A typemcp type of one of these names (an alias's name, else its symbol's). */
export function isTypemcpType(type: Type, names: ReadonlySet<string>, checker: TypeChecker): boolean {
  const symbol = checker.aliasSymbolOf(type) ?? checker.symbolOf(type);
  return !!symbol && names.has(checker.symbolName(symbol)) && checker.declarationFiles(symbol).some(isTypemcpFile);
}

/**
 * Whether a return type is MCP content: content blocks, or arrays and unions of them and
 * strings (`(string | ImageContent)[]`). Such a tool answers with its blocks as they are,
 * and has no output schema: content is for the model, not data for the application.
 */
export function returnsContent(type: Type, checker: TypeChecker): boolean {
  const seen = new Set<Type>();
  const shape = (t: Type): "content" | "text" | "other" => {
    if (isTypemcpType(t, CONTENT_BLOCKS, checker)) return "content";
    const flags = checker.flags(t);
    if (flags & TypeFlags.StringLike) return "text";
    if (seen.has(t)) return "text"; // a recursive type (`type Json = ... | Json[]`) adds nothing the first visit did not
    seen.add(t);
    const parts =
      flags & TypeFlags.Union
        ? checker.constituents(t)
        : checker.isArrayType(t)
          ? [checker.typeArguments(t)[0]]
          : undefined;
    if (!parts) return "other";
    const shapes = parts.map(shape);
    return shapes.includes("other") ? "other" : shapes.includes("content") ? "content" : "text";
  };
  return shape(type) === "content";
}

const TOOL_CONTEXT = new Set(["ToolContext"]);

/** Whether a parameter's type is typemcp's `ToolContext` (the runtime passes it; it is not an argument). */
export function isToolContext(type: Type, checker: TypeChecker): boolean {
  return isTypemcpType(type, TOOL_CONTEXT, checker);
}
