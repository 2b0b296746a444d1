/**
 * The one interface through which typemcp reads a program: types, symbols, signatures and the
 * syntax of the calls it compiles. Two TypeScripts implement it: 5 and 6 in-process, on their
 * `ts.TypeChecker` (transformer/ts5/checker.ts), and 7 through the checker API of its compiler
 * process (transformer/ts7/checker.ts).
 * Everything from here up (the type model, the schemas, the contracts, the diagnostics) is
 * shared, so the same program gets the same schemas, byte for byte, from either.
 *
 * Types, symbols and signatures are handles only the checker that made them can read. Nodes are
 * the syntax trees of the TypeScript in use: both have TypeScript 5's shapes (`call.arguments`,
 * `node.name.text`, ...), which the code reads through `Syntax` for everything that differs
 * (kind numbers, type guards).
 */
import type * as ts from "typescript";
import type { DiagnosticCategory } from "./flags";

declare const brand: unique symbol;
/** A type, as the checker that made it knows it. Same type, same handle (a map key). */
export interface Type {
  readonly [brand]: "type";
}
export interface Symbol {
  readonly [brand]: "symbol";
}
export interface Signature {
  readonly [brand]: "signature";
}

export interface IndexInfo {
  keyType: Type;
  type: Type;
}

/** A symbol's JSDoc: the comment, and its tags as name and text. */
export interface Documentation {
  comment: string;
  tags: { name: string; text: string }[];
}

/**
 * A JSDoc tag as written: its name, its text (undefined when it holds more than text, such as
 * a `{@link}`), and, for `@param`, the parameter it names.
 */
export interface WrittenTag {
  name: string;
  text: string | undefined;
  parameter?: string;
}

/** The type guards and kinds of the syntax tree in use. Named as TypeScript 5 names them. */
export interface Syntax {
  isCallExpression(node: ts.Node): node is ts.CallExpression;
  isPropertyAccessExpression(node: ts.Node): node is ts.PropertyAccessExpression;
  isElementAccessExpression(node: ts.Node): node is ts.ElementAccessExpression;
  isIdentifier(node: ts.Node): node is ts.Identifier;
  isPrivateIdentifier(node: ts.Node): node is ts.PrivateIdentifier;
  isStringLiteral(node: ts.Node): node is ts.StringLiteral;
  isStringLiteralLike(node: ts.Node): node is ts.StringLiteralLike;
  isNumericLiteral(node: ts.Node): node is ts.NumericLiteral;
  isBindingElement(node: ts.Node): node is ts.BindingElement;
  isObjectBindingPattern(node: ts.Node): node is ts.ObjectBindingPattern;
  isMethodDeclaration(node: ts.Node): node is ts.MethodDeclaration;
  isMethodSignature(node: ts.Node): node is ts.MethodSignature;
  isFunctionDeclaration(node: ts.Node): node is ts.FunctionDeclaration;
  isFunctionExpression(node: ts.Node): node is ts.FunctionExpression;
  isArrowFunction(node: ts.Node): node is ts.ArrowFunction;
  isVariableDeclaration(node: ts.Node): node is ts.VariableDeclaration;
  isClassLike(node: ts.Node): node is ts.ClassLikeDeclaration;
  isDecorator(node: ts.Node): node is ts.Decorator;
  isSpreadElement(node: ts.Node): node is ts.SpreadElement;
  isPrefixUnaryExpression(node: ts.Node): node is ts.PrefixUnaryExpression;
  isParenthesizedExpression(node: ts.Node): node is ts.ParenthesizedExpression;
  isAsExpression(node: ts.Node): node is ts.AsExpression;
  isSatisfiesExpression(node: ts.Node): node is ts.SatisfiesExpression;
  isArrayLiteralExpression(node: ts.Node): node is ts.ArrayLiteralExpression;
  isObjectLiteralExpression(node: ts.Node): node is ts.ObjectLiteralExpression;
  isPropertyAssignment(node: ts.Node): node is ts.PropertyAssignment;
  isShorthandPropertyAssignment(node: ts.Node): node is ts.ShorthandPropertyAssignment;
  isTypeNode(node: ts.Node): node is ts.TypeNode;
  isExpressionWithTypeArguments(node: ts.Node): node is ts.ExpressionWithTypeArguments;
  /** A binding that cannot be assigned again: a `const` variable, or a `readonly` property or constructor parameter. */
  isFixedBinding(declaration: ts.Node): boolean;
  /** Children, as ts.forEachChild visits them. */
  forEachChild(node: ts.Node, visit: (child: ts.Node) => void): void;
  readonly SyntaxKind: Pick<
    typeof ts.SyntaxKind,
    | "TrueKeyword"
    | "FalseKeyword"
    | "NullKeyword"
    | "MinusToken"
    | "InterfaceDeclaration"
    | "TypeAliasDeclaration"
    | "ImportDeclaration"
    | "ImportEqualsDeclaration"
    | "ExportDeclaration"
  >;
}

/** Where a diagnostic, or a place it speaks of, is: its span, category and code. */
interface DiagnosticSpan {
  file: ts.SourceFile;
  start: number;
  length: number;
  category: DiagnosticCategory;
  code: number;
}

/** A diagnostic as typemcp reports it: the shape of TypeScript's `ts.Diagnostic` (the TypeScript 5 path hands these to tsc). */
export interface Diagnostic extends DiagnosticSpan {
  messageText: string | MessageChain;
  source: "typemcp";
  /** Other places the message speaks of (the first registration of a name used twice). */
  relatedInformation?: (DiagnosticSpan & { messageText: string })[];
}
export interface MessageChain {
  messageText: string;
  category: DiagnosticCategory;
  code: number;
  next?: MessageChain[];
}

export interface TypeChecker {
  readonly syntax: Syntax;

  // Types.
  /** TypeFlag bits (flags.ts). */
  flags(type: Type): number;
  /** A reference to a generic type (`Array<T>`, `Page<User>`, a tuple). */
  isReference(type: Type): boolean;
  symbolOf(type: Type): Symbol | undefined;
  aliasSymbolOf(type: Type): Symbol | undefined;
  aliasTypeArgumentCount(type: Type): number;
  /** The constituents of a union or an intersection. */
  constituents(type: Type): readonly Type[];
  /** The value of a string, number or boolean literal type. */
  literalValue(type: Type): string | number | boolean | undefined;
  templateLiteral(type: Type): { texts: readonly string[]; types: readonly Type[] };
  tupleShape(type: Type): { elementFlags: readonly number[]; minLength: number };
  isArrayType(type: Type): boolean;
  isTupleType(type: Type): boolean;
  /** The base types a class or interface (or a reference to one) extends; none for other types. */
  baseTypes(type: Type): readonly Type[];
  typeArguments(type: Type): readonly Type[];
  properties(type: Type): readonly Symbol[];
  property(type: Type, name: string): Symbol | undefined;
  indexInfos(type: Type): readonly IndexInfo[];
  callSignatures(type: Type): readonly Signature[];
  hasConstructSignatures(type: Type): boolean;
  typeOfSymbol(symbol: Symbol): Type;
  nonNullable(type: Type): Type;
  /**
   * What awaiting a value of the type gives: `Promise<T>` (and any thenable) unwrapped.
   * Undefined when the checker cannot give it as one type (TypeScript 7: a union of thenables
   * that settle to different types).
   */
  awaited(type: Type): Type | undefined;
  /** As TypeScript prints it in its messages; `full`: never cut short. */
  typeToString(type: Type, full?: boolean): string;

  // Symbols.
  symbolName(symbol: Symbol): string;
  /** SymbolFlag bits (flags.ts). */
  symbolFlags(symbol: Symbol): number;
  declarations(symbol: Symbol): readonly ts.Declaration[];
  valueDeclaration(symbol: Symbol): ts.Declaration | undefined;
  /** Whether a symbol is a class member no value carries: private, protected, static, `#private`, a class accessor. */
  isNonPublicOrStaticMember(symbol: Symbol): boolean;
  /** Whether every declaration of the symbol is in a default library file (lib.*.d.ts). */
  isLibrarySymbol(symbol: Symbol): boolean;
  /** Whether some declaration of the symbol is in a default library file. */
  hasLibraryDeclaration(symbol: Symbol): boolean;
  /** The files declaring the symbol. */
  declarationFiles(symbol: Symbol): readonly string[];
  /** The symbol's JSDoc, undefined when it has none to read. */
  documentation(symbol: Symbol): Documentation | undefined;
  /**
   * The tags of the JSDoc comment written on a declaration, in order, not inherited: a
   * function's own comment, or the comment of what holds it (`const f = (...) => ...`'s
   * statement); a parameter's comment on itself (its `@param` is its function's).
   */
  writtenTags(declaration: ts.Node): readonly WrittenTag[];

  // Signatures.
  signatureDeclaration(signature: Signature): ts.SignatureDeclaration | undefined;
  parameters(signature: Signature): readonly Symbol[];
  returnType(signature: Signature): Type;
  /** The JSDoc comment of a signature's declaration. */
  signatureDocumentation(signature: Signature): string;

  // The program's syntax.
  symbolAt(node: ts.Node): Symbol | undefined;
  typeAt(node: ts.Node): Type;
  aliasedSymbol(symbol: Symbol): Symbol;
  /** The declaration of the signature a call resolves to. */
  resolvedDeclaration(call: ts.CallExpression): ts.Declaration | undefined;
  signatureOfDeclaration(declaration: ts.SignatureDeclaration): Signature | undefined;
}
