/**
 * TypeScript 7's API as typemcp reads it: the objects its checker API answers with (what typemcp
 * reads of them), the numbers it answers in, its syntax trees' type guards under TypeScript 5's
 * names, and how a failure of its compiler process shows.
 */
import type * as ts from "typescript";
import type { Syntax } from "../checker/checker";
import type { Ts7Modules } from "./modules";

/** What typemcp reads of the API's objects (typescript/unstable/sync). */
export interface ApiNodeHandle {
  readonly kind: number;
  readonly path: string;
  resolve(): ts.Node | undefined;
}
export interface ApiSymbol {
  readonly id: number;
  /** The symbol it is a member of: its id (7.0), or `{ id, file }` (7.1). */
  readonly parent?: SymbolReference;
  readonly name: string;
  readonly escapedName: string;
  readonly flags: number;
  readonly declarations: readonly ApiNodeHandle[];
  readonly valueDeclaration: ApiNodeHandle | undefined;
}
export interface ApiType {
  readonly id: number;
  readonly flags: number;
  readonly objectFlags: number;
  readonly value: string | number | boolean | bigint;
  readonly intrinsicName: string;
  readonly texts: readonly string[];
  readonly aliasTypeArguments: readonly number[] | undefined;
  readonly elementFlags: readonly number[];
  readonly symbol: SymbolReference;
  getSymbol(): ApiSymbol | undefined;
  getAliasSymbol(): ApiSymbol | undefined;
  getTypes: { (): readonly ApiType[] | undefined; gen?(): ApiRequest<readonly ApiType[] | undefined> };
  getTarget(): ApiType;
}
/** How the API's raw data names a symbol: by id on 7.0, by `{ id, file }` on 7.1. */
export type SymbolReference = number | { readonly id: number } | null | undefined;
export const symbolId = (reference: SymbolReference) => (typeof reference === "object" ? reference?.id : reference);

export interface ApiSignature {
  readonly id: number;
  readonly declaration?: ApiNodeHandle;
  getParameters(): readonly ApiSymbol[];
}
export interface ApiChecker {
  getSymbolAtLocation(node: ts.Node): ApiSymbol | undefined;
  getSymbolAtLocation(nodes: readonly ts.Node[]): (ApiSymbol | undefined)[];
  getTypeOfSymbol(symbol: ApiSymbol): ApiType | undefined;
  getTypeOfSymbol(symbols: readonly ApiSymbol[]): (ApiType | undefined)[];
  getTypeAtLocation(node: ts.Node): ApiType | undefined;
  getTypeAtLocation(nodes: readonly ts.Node[]): (ApiType | undefined)[];
  getSignaturesOfType(type: ApiType, kind: number): readonly ApiSignature[];
  getResolvedSignature(node: ts.Node): ApiSignature | undefined;
  getNonNullableType(type: ApiType): ApiType | undefined;
  getParameterType(signature: ApiSignature, index: number): ApiType | undefined;
  typeToString(type: ApiType, enclosingDeclaration?: ts.Node, flags?: number): string;
  isArrayType(type: ApiType): boolean;
  isTupleType(type: ApiType): boolean;
  getReturnTypeOfSignature(signature: ApiSignature): ApiType | undefined;
  getPropertiesOfType(type: ApiType): readonly ApiSymbol[];
  getIndexInfosOfType(type: ApiType): readonly { keyType: ApiType; valueType: ApiType }[];
  getSignatureFromDeclaration(node: ts.Node): ApiSignature | undefined;
  getAliasedSymbol(symbol: ApiSymbol): ApiSymbol;
  getJsDocTagsOfSymbol(symbol: ApiSymbol): readonly { name: string; text?: string }[];
  getDocumentationCommentOfSymbol(symbol: ApiSymbol): string;
  getTypeArguments(type: ApiType): readonly ApiType[];
  getBaseTypes(type: ApiType): readonly ApiType[];
}
/**
 * One question in 7.1's batched form (a method's `gen`): `batch` asks many of them in one round
 * trip, and the answers land where the method's own would (a type's constituents on the type).
 */
export type ApiRequest<T> = Generator<unknown, T, unknown>;
/** 7.1's `api.batch`: the questions' answers, in order. 7.0 has none. */
export type ApiBatch = (requests: readonly ApiRequest<unknown>[]) => unknown[];
/** The methods typemcp asks in batches, with their batched forms (7.1). */
export interface ApiBatchForms {
  getSignaturesOfType: { gen?(type: ApiType, kind: number): ApiRequest<readonly ApiSignature[]> };
  getTypeArguments: { gen?(type: ApiType): ApiRequest<readonly ApiType[]> };
}

export interface ApiProgram {
  getSourceFileMetadataByPath(path: string): { isDefaultLibrary: boolean; isFromExternalLibrary: boolean } | undefined;
}

/** TypeScript 7's SignatureKind, its TypeFormatFlags.NoTruncation and the ObjectFlags typemcp reads (numbered as in TypeScript 5). */
export const SIGNATURE_CALL = 0;
export const SIGNATURE_CONSTRUCT = 1;
export const NO_TRUNCATION = 1;
export const OBJECT_REFERENCE = 4;
export const OBJECT_TUPLE = 8;
export const OBJECT_CLASS_OR_INTERFACE = 3;
export const OBJECT_MAPPED = 32;
export const OBJECT_INSTANTIATED = 64;

/** The type guards of TypeScript 7's syntax trees, under TypeScript 5's names. */
export function ts7Syntax(modules: Ts7Modules): Syntax {
  const { is, SyntaxKind: kind } = modules;
  const ofKind =
    (...kinds: number[]) =>
    (node: ts.Node) =>
      kinds.includes(node.kind);
  return {
    isCallExpression: is.isCallExpression,
    isPropertyAccessExpression: is.isPropertyAccessExpression,
    isElementAccessExpression: is.isElementAccessExpression,
    isIdentifier: is.isIdentifier,
    isPrivateIdentifier: is.isPrivateIdentifier,
    isStringLiteral: is.isStringLiteral,
    isStringLiteralLike: ofKind(kind.StringLiteral, kind.NoSubstitutionTemplateLiteral),
    isNumericLiteral: is.isNumericLiteral,
    isBindingElement: is.isBindingElement,
    isObjectBindingPattern: is.isObjectBindingPattern,
    isMethodDeclaration: is.isMethodDeclaration,
    isMethodSignature: ofKind(kind.MethodSignature),
    isFunctionDeclaration: is.isFunctionDeclaration,
    isFunctionExpression: is.isFunctionExpression,
    isArrowFunction: is.isArrowFunction,
    isVariableDeclaration: is.isVariableDeclaration,
    isClassLike: ofKind(kind.ClassDeclaration, kind.ClassExpression),
    isDecorator: is.isDecorator,
    isSpreadElement: is.isSpreadElement,
    isPrefixUnaryExpression: is.isPrefixUnaryExpression,
    isParenthesizedExpression: is.isParenthesizedExpression,
    isAsExpression: is.isAsExpression,
    isSatisfiesExpression: is.isSatisfiesExpression,
    isArrayLiteralExpression: is.isArrayLiteralExpression,
    isObjectLiteralExpression: is.isObjectLiteralExpression,
    isPropertyAssignment: is.isPropertyAssignment,
    isShorthandPropertyAssignment: is.isShorthandPropertyAssignment,
    isTypeNode: is.isTypeNode,
    isExpressionWithTypeArguments: is.isExpressionWithTypeArguments,
    isFixedBinding: (declaration: ts.Node) =>
      (is.isVariableDeclaration(declaration) &&
        is.isVariableDeclarationList(declaration.parent) &&
        (declaration.parent.flags & modules.NodeFlags.Const) !== 0) ||
      ((is.isPropertyDeclaration(declaration) || is.isParameterDeclaration(declaration)) &&
        ((declaration as ts.HasModifiers).modifiers ?? []).some((modifier) => modifier.kind === kind.ReadonlyKeyword)),
    forEachChild: (node, visit) =>
      void (node as unknown as { forEachChild(v: (n: ts.Node) => void): void }).forEachChild(visit),
    SyntaxKind: kind as unknown as Syntax["SyntaxKind"],
  } as Syntax;
}

/**
 * Whether a failure is the API's compiler process stopping: it answers the request it fails on
 * with its panic (`panic: ...`), then ends; a request after that fails on the closed channel
 * (`SyncRpcChannel`, `EPIPE`), or on its input's end (`EOF`). The one test of it: the checker's
 * answers (answers.ts) and the project (project.ts) must agree on what stopped the process.
 */
export function isApiStopFailure(failure: unknown): boolean {
  const text = failure instanceof Error ? failure.message : typeof failure === "string" ? failure : "";
  return /\bpanic: |SyncRpcChannel|EPIPE|EOF/.test(text);
}
