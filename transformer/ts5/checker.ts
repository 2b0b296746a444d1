/**
 * The checker interface on TypeScript 5 and 6: the program's own `ts.TypeChecker`, in-process.
 * Handles are TypeScript's own objects; flags are TypeScript 5's numbering, typemcp's own (see
 * flags.ts), passed through as they are, and 6's (renumbered as 7's) translated.
 */
import ts from "typescript";
import type {
  Documentation,
  IndexInfo,
  Signature,
  Symbol,
  Syntax,
  Type,
  TypeChecker,
  WrittenTag,
} from "../checker/checker";
import { flagTranslator, SymbolFlag, TypeFlag } from "../checker/flags";
import { parseSkippedJSDoc, parseSkippedJSDocOf } from "./skipped-jsdoc";

const NOT_DATA_MODIFIERS = ts.ModifierFlags.Private | ts.ModifierFlags.Protected | ts.ModifierFlags.Static;

/** This TypeScript's flags in typemcp's numbering: TypeScript 5's own (passed through), 6's renumbered. */
const typeFlags = flagTranslator(TypeFlag, ts.TypeFlags as unknown as Record<string, number>);
const symbolFlags = flagTranslator(SymbolFlag, ts.SymbolFlags as unknown as Record<string, number>);

/** TypeScript 5's own type guards are the interface's. */
export const ts5Syntax: Syntax = {
  isCallExpression: ts.isCallExpression,
  isPropertyAccessExpression: ts.isPropertyAccessExpression,
  isElementAccessExpression: ts.isElementAccessExpression,
  isIdentifier: ts.isIdentifier,
  isPrivateIdentifier: ts.isPrivateIdentifier,
  isStringLiteral: ts.isStringLiteral,
  isStringLiteralLike: ts.isStringLiteralLike,
  isNumericLiteral: ts.isNumericLiteral,
  isBindingElement: ts.isBindingElement,
  isObjectBindingPattern: ts.isObjectBindingPattern,
  isMethodDeclaration: ts.isMethodDeclaration,
  isMethodSignature: ts.isMethodSignature,
  isFunctionDeclaration: ts.isFunctionDeclaration,
  isFunctionExpression: ts.isFunctionExpression,
  isArrowFunction: ts.isArrowFunction,
  isVariableDeclaration: ts.isVariableDeclaration,
  isClassLike: ts.isClassLike,
  isDecorator: ts.isDecorator,
  isSpreadElement: ts.isSpreadElement,
  isPrefixUnaryExpression: ts.isPrefixUnaryExpression,
  isParenthesizedExpression: ts.isParenthesizedExpression,
  isAsExpression: ts.isAsExpression,
  isSatisfiesExpression: ts.isSatisfiesExpression,
  isArrayLiteralExpression: ts.isArrayLiteralExpression,
  isObjectLiteralExpression: ts.isObjectLiteralExpression,
  isPropertyAssignment: ts.isPropertyAssignment,
  isShorthandPropertyAssignment: ts.isShorthandPropertyAssignment,
  isTypeNode: ts.isTypeNode,
  isExpressionWithTypeArguments: ts.isExpressionWithTypeArguments,
  isFixedBinding: (declaration) =>
    (ts.isVariableDeclaration(declaration) &&
      ts.isVariableDeclarationList(declaration.parent) &&
      (declaration.parent.flags & ts.NodeFlags.Const) !== 0) ||
    ((ts.isPropertyDeclaration(declaration) || ts.isParameter(declaration)) &&
      (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0),
  forEachChild: (node, visit) => void ts.forEachChild(node, visit),
  SyntaxKind: ts.SyntaxKind,
};

const T = (type: Type) => type as unknown as ts.Type;
const S = (symbol: Symbol) => symbol as unknown as ts.Symbol;
const G = (signature: Signature) => signature as unknown as ts.Signature;
const types = (list: readonly ts.Type[]) => list as unknown as readonly Type[];
const asType = (type: ts.Type) => type as unknown as Type;
const asSymbol = (symbol: ts.Symbol | undefined) => symbol as unknown as Symbol | undefined;

/**
 * False when the symbol can have no documentation, which most properties have not: spares
 * the language service's search for it (it builds display parts, and looks for inherited
 * comments). A comment may be on a declaration (for a parameter, its function's `@param`,
 * which getJSDocCommentsAndTags includes) or inherited by a member of a class or interface
 * that extends or implements another; a symbol without declarations (a tuple label) is
 * left to the full search.
 */
function mayBeDocumented(symbol: ts.Symbol): boolean {
  const declarations = symbol.getDeclarations();
  if (!declarations?.length) return true;
  return declarations.some((declaration) => {
    if (ts.getJSDocCommentsAndTags(declaration).length > 0) return true;
    const owner = declaration.parent;
    return (ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner)) && (owner.heritageClauses?.length ?? 0) > 0;
  });
}

export class Ts5Checker implements TypeChecker {
  readonly syntax = ts5Syntax;

  constructor(
    readonly checker: ts.TypeChecker,
    private readonly program: ts.Program,
  ) {}

  flags(type: Type): number {
    return typeFlags(T(type).flags);
  }
  isReference(type: Type): boolean {
    return ((T(type) as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) !== 0;
  }
  symbolOf(type: Type): Symbol | undefined {
    return asSymbol(T(type).getSymbol());
  }
  aliasSymbolOf(type: Type): Symbol | undefined {
    return asSymbol(T(type).aliasSymbol);
  }
  aliasTypeArgumentCount(type: Type): number {
    return T(type).aliasTypeArguments?.length ?? 0;
  }
  constituents(type: Type): readonly Type[] {
    return types((T(type) as ts.UnionOrIntersectionType).types);
  }
  literalValue(type: Type): string | number | boolean | undefined {
    const t = T(type);
    if (t.isStringLiteral() || t.isNumberLiteral()) return t.value;
    if (t.flags & ts.TypeFlags.BooleanLiteral) return this.checker.typeToString(t) === "true";
    return undefined;
  }
  templateLiteral(type: Type): { texts: readonly string[]; types: readonly Type[] } {
    const t = T(type) as ts.TemplateLiteralType;
    return { texts: t.texts, types: types(t.types) };
  }
  tupleShape(type: Type): { elementFlags: readonly number[]; minLength: number } {
    const target = (T(type) as ts.TypeReference).target as ts.TupleType;
    return { elementFlags: target.elementFlags, minLength: target.minLength };
  }
  isArrayType(type: Type): boolean {
    return this.checker.isArrayType(T(type));
  }
  isTupleType(type: Type): boolean {
    return this.checker.isTupleType(T(type));
  }
  baseTypes(type: Type): readonly Type[] {
    const t = T(type) as ts.ObjectType;
    if (!(t.flags & ts.TypeFlags.Object)) return [];
    const target = t.objectFlags & ts.ObjectFlags.Reference ? (t as ts.TypeReference).target : t;
    if (!(target.objectFlags & ts.ObjectFlags.ClassOrInterface)) return [];
    return types(this.checker.getBaseTypes(target as ts.InterfaceType));
  }
  typeArguments(type: Type): readonly Type[] {
    return types(this.checker.getTypeArguments(T(type) as ts.TypeReference));
  }
  properties(type: Type): readonly Symbol[] {
    return this.checker.getPropertiesOfType(T(type)) as unknown as Symbol[];
  }
  property(type: Type, name: string): Symbol | undefined {
    return asSymbol(T(type).getProperty(name));
  }
  indexInfos(type: Type): readonly IndexInfo[] {
    return this.checker
      .getIndexInfosOfType(T(type))
      .map((info) => ({ keyType: asType(info.keyType), type: asType(info.type) }));
  }
  callSignatures(type: Type): readonly Signature[] {
    return T(type).getCallSignatures() as unknown as Signature[];
  }
  hasConstructSignatures(type: Type): boolean {
    return T(type).getConstructSignatures().length > 0;
  }
  typeOfSymbol(symbol: Symbol): Type {
    return asType(this.checker.getTypeOfSymbol(S(symbol)));
  }
  nonNullable(type: Type): Type {
    return asType(this.checker.getNonNullableType(T(type)));
  }
  awaited(type: Type): Type {
    return asType(this.checker.getAwaitedType(T(type)) ?? T(type));
  }
  typeToString(type: Type, full?: boolean): string {
    return full
      ? this.checker.typeToString(T(type), undefined, ts.TypeFormatFlags.NoTruncation)
      : this.checker.typeToString(T(type));
  }

  symbolName(symbol: Symbol): string {
    return S(symbol).name;
  }
  symbolFlags(symbol: Symbol): number {
    return symbolFlags(S(symbol).flags);
  }
  declarations(symbol: Symbol): readonly ts.Declaration[] {
    return S(symbol).getDeclarations() ?? [];
  }
  valueDeclaration(symbol: Symbol): ts.Declaration | undefined {
    return S(symbol).valueDeclaration;
  }
  isNonPublicOrStaticMember(symbol: Symbol): boolean {
    const s = S(symbol);
    if (s.escapedName.toString().startsWith("__@")) return true;
    for (const declaration of s.getDeclarations() ?? []) {
      const name = ts.getNameOfDeclaration(declaration);
      if (name && ts.isPrivateIdentifier(name)) return true;
      if (ts.getCombinedModifierFlags(declaration) & NOT_DATA_MODIFIERS) return true;
      if (s.flags & ts.SymbolFlags.Accessor && ts.isClassLike(declaration.parent)) return true;
    }
    return false;
  }
  private isLibraryDeclaration(declaration: ts.Declaration): boolean {
    return this.program.isSourceFileDefaultLibrary(declaration.getSourceFile());
  }
  isLibrarySymbol(symbol: Symbol): boolean {
    const declarations = S(symbol).getDeclarations() ?? [];
    return declarations.length > 0 && declarations.every((d) => this.isLibraryDeclaration(d));
  }
  hasLibraryDeclaration(symbol: Symbol): boolean {
    return (S(symbol).getDeclarations() ?? []).some((d) => this.isLibraryDeclaration(d));
  }
  declarationFiles(symbol: Symbol): readonly string[] {
    return (S(symbol).getDeclarations() ?? []).map((d) => d.getSourceFile().fileName);
  }
  documentation(symbol: Symbol): Documentation | undefined {
    const s = S(symbol);
    parseSkippedJSDoc(s, this.checker);
    if (!mayBeDocumented(s)) return undefined;
    return {
      comment: ts.displayPartsToString(s.getDocumentationComment(this.checker)),
      tags: s.getJsDocTags(this.checker).map((tag) => ({ name: tag.name, text: ts.displayPartsToString(tag.text) })),
    };
  }

  writtenTags(declaration: ts.Node): readonly WrittenTag[] {
    parseSkippedJSDocOf(declaration, this.checker);
    // The comments the language service reads for it: a parameter's own (then its `@param`
    // tags, which are not comments), a function's and its holder's, the last comment of each.
    return ts
      .getJSDocCommentsAndTags(declaration)
      .flatMap((found) => (ts.isJSDoc(found) ? (found.tags ?? []) : ts.isJSDocParameterTag(found) ? [] : [found]))
      .map((tag) => ({
        name: tag.tagName.text,
        text: plainText(tag.comment),
        ...(ts.isJSDocParameterTag(tag) && ts.isIdentifier(tag.name) && { parameter: tag.name.text }),
      }));
  }

  signatureDeclaration(signature: Signature): ts.SignatureDeclaration | undefined {
    return G(signature).getDeclaration() as ts.SignatureDeclaration | undefined;
  }
  parameters(signature: Signature): readonly Symbol[] {
    return G(signature).getParameters() as unknown as Symbol[];
  }
  returnType(signature: Signature): Type {
    return asType(G(signature).getReturnType());
  }
  signatureDocumentation(signature: Signature): string {
    parseSkippedJSDocOf(G(signature).getDeclaration(), this.checker);
    return ts.displayPartsToString(G(signature).getDocumentationComment(this.checker));
  }

  symbolAt(node: ts.Node): Symbol | undefined {
    return asSymbol(this.checker.getSymbolAtLocation(node));
  }
  typeAt(node: ts.Node): Type {
    return asType(this.checker.getTypeAtLocation(node));
  }
  aliasedSymbol(symbol: Symbol): Symbol {
    return this.checker.getAliasedSymbol(S(symbol)) as unknown as Symbol;
  }
  resolvedDeclaration(call: ts.CallExpression): ts.Declaration | undefined {
    return this.checker.getResolvedSignature(call)?.getDeclaration();
  }
  signatureOfDeclaration(declaration: ts.SignatureDeclaration): Signature | undefined {
    return this.checker.getSignatureFromDeclaration(declaration) as unknown as Signature | undefined;
  }
}

/** A JSDoc comment's text when it is text only; undefined when it holds links. */
function plainText(comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string | undefined {
  if (comment === undefined || typeof comment === "string") return comment ?? "";
  return comment.every((part) => part.kind === ts.SyntaxKind.JSDocText)
    ? comment.map((part) => part.text).join("")
    : undefined;
}
