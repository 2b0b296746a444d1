/**
 * The checker interface on TypeScript 7: the native compiler's checker, asked through its API
 * (api.ts), one round trip to the compiler process per question. Four parts: this adapter,
 * which answers the interface's questions from the API's; answers.ts, which asks each question
 * once and what compiling will ask of many nodes at once; parity.ts, the rules that give
 * TypeScript 5's answers where 7's differ (a union's order, inherited properties' order, the
 * awaited type); jsdoc.ts, the JSDoc read off the syntax trees.
 *
 * Where the API has no question for what the TypeScript 5 checker answers, the answer is built
 * from the ones it has (see `awaited`, `signatureDocumentation`, `isNonPublicOrStaticMember`),
 * or read off the declarations where they say it for certain, with no round trip (see
 * `declaredShape`, `declaredProperties`, jsdoc.ts).
 */
import type * as ts from "typescript";
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
import { ElementFlags, flagTranslator, SymbolFlag, TypeFlag, TypeFlags } from "../checker/flags";
import {
  OBJECT_CLASS_OR_INTERFACE,
  OBJECT_INSTANTIATED,
  OBJECT_MAPPED,
  OBJECT_REFERENCE,
  OBJECT_TUPLE,
  symbolId,
  ts7Syntax,
  type ApiBatch,
  type ApiChecker,
  type ApiProgram,
  type ApiSignature,
  type ApiSymbol,
  type ApiType,
} from "./api";
import { Answers, memo } from "./answers";
import { mayBeDocumented, writtenComment, writtenDocumentation, writtenTags } from "./jsdoc";
import type { Ts7Modules } from "./modules";
import { awaited, inheritedInTs5Order, inTs5UnionOrder } from "./parity";

const NULLISH = TypeFlags.Null | TypeFlags.Undefined | TypeFlags.Void;
/** Types whose non-nullable form is another type (`T & {}`, `{}`): the checker is asked. */
const STANDS_FOR_OTHERS =
  TypeFlags.Intersection |
  TypeFlags.Union |
  TypeFlags.Any |
  TypeFlags.Unknown |
  TypeFlags.TypeParameter |
  TypeFlags.Index |
  TypeFlags.IndexedAccess |
  TypeFlags.Conditional |
  TypeFlags.Substitution |
  TypeFlags.NonPrimitive;

const T = (type: Type) => type as unknown as ApiType;
const S = (symbol: Symbol) => symbol as unknown as ApiSymbol;
const G = (signature: Signature) => signature as unknown as ApiSignature;
const asType = (type: ApiType | undefined) => type as unknown as Type;

export class Ts7Checker implements TypeChecker {
  readonly syntax: Syntax;
  private readonly answers: Answers;
  private readonly typeFlags: (flags: number) => number;
  private readonly symbolFlagsOf: (flags: number) => number;
  private readonly kind: Ts7Modules["SyntaxKind"];
  private readonly unionFlag: number;
  private readonly objectFlag: number;

  // The answers this checker builds from the API's (which answers.ts keeps), each built once.
  private readonly constituentsOf = new Map<ApiType, readonly ApiType[]>();
  private readonly propertiesOf = new Map<ApiType, readonly ApiSymbol[]>();
  private readonly documentationOf = new Map<ApiSymbol, Documentation | undefined>();
  private readonly shapes = new Map<ApiSymbol, { call: boolean; construct: boolean; index: boolean } | undefined>();

  constructor(
    api: ApiChecker,
    program: ApiProgram,
    modules: Ts7Modules,
    /** The project's strictNullChecks: without it, a type's non-nullable type is itself. */
    private readonly strictNullChecks = true,
    /** 7.1's `api.batch` (answers.ts). */
    batch?: ApiBatch,
  ) {
    this.answers = new Answers(api, program, modules.SyntaxKind, modules.TypeFlags.Union as number, batch);
    this.syntax = ts7Syntax(modules);
    this.kind = modules.SyntaxKind;
    this.typeFlags = flagTranslator(TypeFlag, modules.TypeFlags);
    this.symbolFlagsOf = flagTranslator(SymbolFlag, modules.SymbolFlags);
    this.unionFlag = modules.TypeFlags.Union as number;
    this.objectFlag = modules.TypeFlags.Object as number;
  }

  /** The API, through which a panic of the compiler process is remembered (answers.ts). */
  get api(): ApiChecker {
    return this.answers.api;
  }
  /** The first failure of the compiler process (it panicked, and stopped), if any: callers that swallow errors check it. */
  get stoppedBy(): Error | undefined {
    return this.answers.stoppedBy;
  }

  flags(type: Type): number {
    return this.typeFlags(T(type).flags);
  }
  isReference(type: Type): boolean {
    return ((T(type).objectFlags ?? 0) & OBJECT_REFERENCE) !== 0;
  }
  symbolOf(type: Type): Symbol | undefined {
    return T(type).getSymbol() as unknown as Symbol | undefined;
  }
  aliasSymbolOf(type: Type): Symbol | undefined {
    return T(type).getAliasSymbol() as unknown as Symbol | undefined;
  }
  aliasTypeArgumentCount(type: Type): number {
    return T(type).aliasTypeArguments?.length ?? 0;
  }
  /** A union's members in TypeScript 5's order (parity.ts). */
  constituents(type: Type): readonly Type[] {
    return memo(this.constituentsOf, T(type), () => {
      const members = T(type).getTypes() ?? [];
      return T(type).flags & this.unionFlag ? inTs5UnionOrder(members) : members;
    }) as unknown as readonly Type[];
  }
  literalValue(type: Type): string | number | boolean | undefined {
    const t = T(type);
    const flags = this.flags(type);
    if (flags & (TypeFlags.StringLiteral | TypeFlags.NumberLiteral)) return t.value as string | number;
    if (flags & TypeFlags.BooleanLiteral) return t.value === true || t.intrinsicName === "true";
    return undefined;
  }
  templateLiteral(type: Type): { texts: readonly string[]; types: readonly Type[] } {
    return { texts: T(type).texts, types: this.constituents(type) };
  }
  tupleShape(type: Type): { elementFlags: readonly number[]; minLength: number } {
    const elementFlags = T(type).getTarget().elementFlags ?? [];
    return {
      elementFlags,
      minLength: elementFlags.filter((flags) => flags & (ElementFlags.Required | ElementFlags.Variadic)).length,
    };
  }
  isArrayType(type: Type): boolean {
    const t = T(type);
    if (!(t.objectFlags & OBJECT_REFERENCE)) return false;
    return this.answers.isArrayReference(t, t.getTarget());
  }
  isTupleType(type: Type): boolean {
    const t = T(type);
    return (t.objectFlags & OBJECT_REFERENCE) !== 0 && (t.getTarget().objectFlags & OBJECT_TUPLE) !== 0;
  }
  baseTypes(type: Type): readonly Type[] {
    const t = T(type);
    if (!(t.flags & this.objectFlag)) return [];
    const target = t.objectFlags & OBJECT_REFERENCE ? t.getTarget() : t;
    // Declared in the project without heritage clauses: no bases, no round trip.
    if (!(target.objectFlags & OBJECT_CLASS_OR_INTERFACE) || this.declaredShape(target)) return [];
    return this.answers.baseTypes(target) as unknown as readonly Type[];
  }
  typeArguments(type: Type): readonly Type[] {
    return this.answers.typeArguments(T(type)) as unknown as readonly Type[];
  }
  properties(type: Type): readonly Symbol[] {
    return memo(this.propertiesOf, T(type), () => {
      const declared = this.declaredProperties(T(type));
      if (declared) return declared;
      const properties = this.inTs5Order(T(type), this.api.getPropertiesOfType(T(type)));
      // Their types are asked next, all of them: in one round trip.
      this.answers.prefetchTypes(properties);
      return properties;
    }) as unknown as readonly Symbol[];
  }
  /**
   * The properties of a non-generic interface or object literal type declared in the project
   * with no base types, read off its declarations: their members' symbols, in declaration
   * order, as the checker lists them (asked for all such declarations at once, see
   * prefetchDeclarations). Undefined where only the checker can tell.
   */
  private declaredProperties(type: ApiType): ApiSymbol[] | undefined {
    const kind = this.kind;
    const generic = OBJECT_REFERENCE | OBJECT_INSTANTIATED | OBJECT_MAPPED;
    if (!(type.flags & this.objectFlag) || type.objectFlags & generic || !this.declaredShape(type)) return undefined;
    const symbol = type.getSymbol()!;
    if (this.symbolFlags(symbol as unknown as Symbol) & SymbolFlag.Class) return undefined;
    const found = new Map<number, ApiSymbol>();
    for (const declaration of this.declarations(symbol as unknown as Symbol)) {
      for (const member of (declaration as unknown as ts.InterfaceDeclaration).members ?? []) {
        if (
          member.kind === kind.CallSignature ||
          member.kind === kind.ConstructSignature ||
          member.kind === kind.IndexSignature
        )
          continue;
        const name = member.name;
        if (
          (member.kind !== kind.PropertySignature && member.kind !== kind.MethodSignature) ||
          !name ||
          ![kind.Identifier, kind.StringLiteral, kind.NumericLiteral].includes(name.kind) ||
          !this.answers.knownSymbolAt(name).has
        )
          return undefined;
        const property = this.answers.knownSymbolAt(name).symbol;
        if (!property) return undefined;
        if (!found.has(property.id)) found.set(property.id, property);
      }
    }
    return [...found.values()];
  }

  /** A class's or interface's properties in TypeScript 5's order (parity.ts), where it has base types. */
  private inTs5Order(type: ApiType, properties: readonly ApiSymbol[]): readonly ApiSymbol[] {
    if (!(type.flags & this.objectFlag)) return properties;
    const target = type.objectFlags & OBJECT_REFERENCE ? type.getTarget() : type;
    if (!(target.objectFlags & OBJECT_CLASS_OR_INTERFACE)) return properties;
    if (this.declaredShape(target)) return properties; // declared without bases
    const bases = this.answers.baseTypes(target);
    if (!bases.length) return properties;
    return inheritedInTs5Order(
      properties,
      symbolId(target.symbol),
      bases.map((base) => this.properties(asType(base)).map(S)),
    );
  }
  /**
   * A property by name, from the type's property list: what getPropertyOfType answers for
   * the names typemcp asks (`then`, `toJSON`, an option's), which are on no type's apparent
   * `Object` or `Function` members.
   */
  property(type: Type, name: string): Symbol | undefined {
    return this.properties(type).find((symbol) => this.symbolName(symbol) === name);
  }
  /**
   * What an interface's, class's or object literal type's declarations say for certain: with no
   * base types, it has call, construct and index signatures only where its members declare
   * them. Undefined where only the checker can tell (bases, mapped types, library types).
   */
  private declaredShape(type: ApiType): { call: boolean; construct: boolean; index: boolean } | undefined {
    if (!(type.flags & this.objectFlag)) return undefined;
    const target = type.objectFlags & OBJECT_REFERENCE ? type.getTarget() : type;
    const symbol = target.getSymbol();
    if (!symbol) return undefined;
    // A class's symbol is its constructor's too: only its instance type is a class type.
    const classOrInterface = (target.objectFlags & OBJECT_CLASS_OR_INTERFACE) !== 0;
    if (
      classOrInterface !==
      ((this.symbolFlags(symbol as unknown as Symbol) & (SymbolFlag.Class | SymbolFlag.Interface)) !== 0)
    )
      return undefined;
    return memo(this.shapes, symbol, () => {
      const kind = this.kind;
      const handles = symbol.declarations ?? [];
      if (
        !handles.length ||
        handles.some(
          (h) =>
            /\.d\.[cm]?ts$/.test(h.path) ||
            ![kind.InterfaceDeclaration, kind.ClassDeclaration, kind.TypeLiteral].includes(h.kind),
        )
      )
        return undefined;
      const shape = { call: false, construct: false, index: false };
      for (const declaration of this.declarations(symbol as unknown as Symbol)) {
        if ((declaration as unknown as ts.InterfaceDeclaration).heritageClauses?.length) return undefined;
        for (const member of (declaration as unknown as ts.InterfaceDeclaration).members ?? []) {
          if (member.kind === kind.CallSignature) shape.call = true;
          else if (member.kind === kind.ConstructSignature) shape.construct = true;
          else if (member.kind === kind.IndexSignature) shape.index = true;
        }
      }
      return shape;
    });
  }

  indexInfos(type: Type): readonly IndexInfo[] {
    if (this.declaredShape(T(type))?.index === false) return [];
    return this.answers.indexInfos(T(type));
  }
  callSignatures(type: Type): readonly Signature[] {
    // Arrays and tuples are never callable.
    if (this.declaredShape(T(type))?.call === false || this.isArrayType(type) || this.isTupleType(type)) return [];
    return this.answers.callSignatures(T(type)) as unknown as readonly Signature[];
  }
  hasConstructSignatures(type: Type): boolean {
    // Arrays and tuples are never constructable (asked of every array property: 254 round trips at 500 tools).
    if (this.declaredShape(T(type))?.construct === false || this.isArrayType(type) || this.isTupleType(type))
      return false;
    return this.answers.hasConstructSignatures(T(type));
  }
  typeOfSymbol(symbol: Symbol): Type {
    return asType(this.answers.typeOfSymbol(S(symbol)));
  }
  nonNullable(type: Type): Type {
    // A type that admits neither null nor undefined, and stands for no other type, is its own non-nullable type.
    const flags = this.flags(type);
    if (flags & TypeFlags.Union && this.strictNullChecks) {
      // A union of such types and null, undefined or void: what remains, if it is one member.
      const members = this.constituents(type);
      const kept = members.filter((member) => !(this.flags(member) & NULLISH));
      if (kept.length === 1 && !(this.flags(kept[0]) & STANDS_FOR_OTHERS)) return kept[0];
      // A union of such types alone is its own (`"m" | "km"`): asked once per union, a file's own each time.
      if (kept.length === members.length && kept.every((member) => !(this.flags(member) & STANDS_FOR_OTHERS)))
        return type;
    }
    if (!(flags & (TypeFlags.Union | NULLISH | STANDS_FOR_OTHERS))) return type;
    return asType(this.answers.nonNullable(T(type)));
  }
  /** The awaited type, as TypeScript 5 gives it (parity.ts): the API has no getAwaitedType. */
  awaited(type: Type): Type | undefined {
    return awaited(this, (signature, index) => asType(this.api.getParameterType(G(signature), index)), type);
  }
  typeToString(type: Type, full?: boolean): string {
    return this.answers.typeToString(T(type), full);
  }

  symbolName(symbol: Symbol): string {
    return S(symbol).name;
  }
  symbolFlags(symbol: Symbol): number {
    return this.symbolFlagsOf(S(symbol).flags);
  }
  declarations(symbol: Symbol): readonly ts.Declaration[] {
    return this.answers.declarations(S(symbol));
  }
  valueDeclaration(symbol: Symbol): ts.Declaration | undefined {
    return S(symbol).valueDeclaration?.resolve() as ts.Declaration | undefined;
  }
  isNonPublicOrStaticMember(symbol: Symbol): boolean {
    const s = S(symbol);
    if (s.escapedName.startsWith("__@") || s.escapedName.startsWith("__#")) return true;
    const kind = this.kind;
    const members = [
      kind.PropertyDeclaration,
      kind.GetAccessor,
      kind.SetAccessor,
      kind.Parameter,
      kind.MethodDeclaration,
    ];
    // Only class members carry these modifiers: other declarations are not resolved.
    if (!(s.declarations ?? []).some((handle) => members.includes(handle.kind))) return false;
    const accessor = (this.symbolFlags(symbol) & (SymbolFlag.GetAccessor | SymbolFlag.SetAccessor)) !== 0;
    for (const declaration of this.declarations(symbol)) {
      const name = (declaration as ts.NamedDeclaration).name;
      if (name && name.kind === kind.PrivateIdentifier) return true;
      const modifiers = (declaration as { modifiers?: readonly ts.Node[] }).modifiers ?? [];
      if (
        modifiers.some(
          (m) => m.kind === kind.PrivateKeyword || m.kind === kind.ProtectedKeyword || m.kind === kind.StaticKeyword,
        )
      )
        return true;
      if (accessor && this.syntax.isClassLike(declaration.parent)) return true;
    }
    return false;
  }
  isLibrarySymbol(symbol: Symbol): boolean {
    const declarations = S(symbol).declarations ?? [];
    return declarations.length > 0 && declarations.every((d) => this.answers.isLibraryFile(d.path));
  }
  hasLibraryDeclaration(symbol: Symbol): boolean {
    return (S(symbol).declarations ?? []).some((d) => this.answers.isLibraryFile(d.path));
  }
  declarationFiles(symbol: Symbol): readonly string[] {
    return (S(symbol).declarations ?? []).map((d) => d.path);
  }
  documentation(symbol: Symbol): Documentation | undefined {
    return memo(this.documentationOf, S(symbol), () => {
      const declarations = this.declarations(symbol);
      if (!mayBeDocumented(declarations, this.kind)) return undefined;
      const read = declarations.length === 1 ? writtenDocumentation(declarations[0], this.kind) : undefined;
      if (read) return read;
      const s = S(symbol);
      return {
        comment: this.api.getDocumentationCommentOfSymbol(s),
        tags: this.api.getJsDocTagsOfSymbol(s).map((tag) => ({ name: tag.name, text: tag.text ?? "" })),
      };
    });
  }
  writtenTags(declaration: ts.Node): readonly WrittenTag[] {
    return writtenTags(declaration, this.kind);
  }

  signatureDeclaration(signature: Signature): ts.SignatureDeclaration | undefined {
    return G(signature).declaration?.resolve() as ts.SignatureDeclaration | undefined;
  }
  parameters(signature: Signature): readonly Symbol[] {
    // The declaration's parameters (`this` is none).
    const declared = () =>
      this.signatureDeclaration(signature)?.parameters.filter(
        (p) => !(p.name.kind === this.kind.Identifier && (p.name as ts.Identifier).text === "this"),
      );
    return this.answers.parameters(G(signature), declared) as unknown as readonly Symbol[];
  }
  returnType(signature: Signature): Type {
    return asType(this.answers.returnType(G(signature), () => this.signatureDeclaration(signature)?.type));
  }
  /**
   * The API documents symbols, not signatures: a signature's comment is its declaration's
   * symbol's (a function's, a method's; for a function expression, the variable's it is
   * assigned to, where TypeScript 5 finds it too).
   */
  signatureDocumentation(signature: Signature): string {
    const declaration = this.signatureDeclaration(signature);
    if (!declaration) return "";
    // Its comment alone: a function documented with `@param`s is read here too.
    const written = writtenComment(declaration, this.kind);
    if (written !== undefined) return written;
    const kind = this.kind;
    let named: ts.Node | undefined = (declaration as ts.NamedDeclaration).name;
    if (!named && (declaration.kind === kind.ArrowFunction || declaration.kind === kind.FunctionExpression)) {
      const holder = declaration.parent;
      if (holder?.kind === kind.VariableDeclaration) named = (holder as ts.VariableDeclaration).name;
    }
    const symbol = named && this.symbolAt(named);
    return symbol ? (this.documentation(symbol)?.comment ?? "") : "";
  }

  symbolAt(node: ts.Node): Symbol | undefined {
    return this.answers.symbolAt(node) as unknown as Symbol | undefined;
  }
  /** What compiling will ask, asked at once (answers.ts): the symbols at these nodes. */
  prefetchSymbolsAt(nodes: readonly ts.Node[]): void {
    this.answers.prefetchSymbolsAt(nodes);
  }
  /** The types of these symbols. */
  prefetchTypesOf(symbols: readonly Symbol[]): void {
    this.answers.prefetchTypes(symbols.map(S));
  }
  /** The declarations at the top of these files, their members' symbols and types. */
  prefetchDeclarations(files: readonly ts.SourceFile[]): void {
    this.answers.prefetchDeclarations(files);
  }
  /** The call signatures of these functions' types (7.1; 7.0 asks them one by one). */
  prefetchCallSignatures(functions: readonly Symbol[]): void {
    this.answers.prefetchCallSignatures(
      functions
        .filter((symbol) => this.symbolFlags(symbol) & SymbolFlag.Function)
        .map((symbol) => this.answers.typeOfSymbol(S(symbol))),
    );
  }
  /** These signatures' parameters and the types their return types name. */
  prefetchSignatures(declarations: readonly ts.SignatureDeclaration[]): void {
    this.answers.prefetchSignatures(declarations);
  }
  typeAt(node: ts.Node): Type {
    return asType(this.api.getTypeAtLocation(node));
  }
  aliasedSymbol(symbol: Symbol): Symbol {
    return this.answers.aliasedSymbol(S(symbol)) as unknown as Symbol;
  }
  /**
   * When the callee names a function or method declared once, the call can resolve to no other
   * signature: its declaration is the answer, from the callee's symbol (asked for all calls at
   * once, see prefetchSymbolsAt) instead of resolving the call.
   */
  resolvedDeclaration(call: ts.CallExpression): ts.Declaration | undefined {
    const { syntax } = this;
    const callee = call.expression;
    const name = syntax.isPropertyAccessExpression(callee)
      ? callee.name
      : syntax.isIdentifier(callee)
        ? callee
        : undefined;
    let symbol = name && this.symbolAt(name);
    if (symbol && this.symbolFlags(symbol) & SymbolFlag.Alias) symbol = this.aliasedSymbol(symbol);
    if (symbol && this.symbolFlags(symbol) & (SymbolFlag.Method | SymbolFlag.Function)) {
      const handles = S(symbol).declarations ?? [];
      const kind = this.kind;
      if (
        handles.length === 1 &&
        [kind.MethodDeclaration, kind.MethodSignature, kind.FunctionDeclaration].includes(handles[0].kind)
      )
        return this.declarations(symbol)[0];
    }
    return this.api.getResolvedSignature(call)?.declaration?.resolve() as ts.Declaration | undefined;
  }
  signatureOfDeclaration(declaration: ts.SignatureDeclaration): Signature | undefined {
    return this.api.getSignatureFromDeclaration(declaration) as unknown as Signature | undefined;
  }
}
