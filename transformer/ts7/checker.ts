/**
 * The checker interface on TypeScript 7: the native compiler's checker, asked through its API
 * (`typescript/unstable/sync`), one round trip to the compiler process per question. The
 * answers are kept per type and per symbol (each is asked once), and what several questions
 * share is asked at once: the types of all properties of an object together, in one batch.
 *
 * Where the API has no question for what the TypeScript 5 checker answers, the answer is built
 * from the ones it has (see `awaited`, `signatureDocumentation`, `isNonPublicOrStaticMember`).
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
import type { Ts7Modules } from "./modules";

/** What typemcp reads of the API's objects (typescript/unstable/sync). */
interface ApiNodeHandle {
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
  getTypes(): readonly ApiType[] | undefined;
  getTarget(): ApiType;
}
/** How the API's raw data names a symbol: by id on 7.0, by `{ id, file }` on 7.1. */
type SymbolReference = number | { readonly id: number } | null | undefined;
const symbolId = (reference: SymbolReference) => (typeof reference === "object" ? reference?.id : reference);

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
export interface ApiProgram {
  getSourceFileMetadataByPath(path: string): { isDefaultLibrary: boolean; isFromExternalLibrary: boolean } | undefined;
}

/** TypeScript 7's SignatureKind, and its TypeFormatFlags.NoTruncation (numbered as in TypeScript 5). */
const SIGNATURE_CALL = 0;
const SIGNATURE_CONSTRUCT = 1;
const NO_TRUNCATION = 1;
const OBJECT_REFERENCE = 4;
const OBJECT_TUPLE = 8;
const OBJECT_CLASS_OR_INTERFACE = 3;
const OBJECT_MAPPED = 32;
const OBJECT_INSTANTIATED = 64;

const NULLISH = TypeFlags.Null | TypeFlags.Undefined | TypeFlags.Void;
const PRIMITIVE_OR_NEVER =
  TypeFlags.StringLike |
  TypeFlags.NumberLike |
  TypeFlags.BooleanLike |
  TypeFlags.BigIntLike |
  TypeFlags.ESSymbol |
  TypeFlags.UniqueESSymbol |
  NULLISH |
  TypeFlags.Never;
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

/** `typeof x`'s answers, in the order TypeScript 5 creates their literal types. */
const TYPEOF_NAMES = ["string", "number", "bigint", "boolean", "symbol", "undefined", "object", "function"];

const T = (type: Type) => type as unknown as ApiType;
const S = (symbol: Symbol) => symbol as unknown as ApiSymbol;
const G = (signature: Signature) => signature as unknown as ApiSignature;
const asType = (type: ApiType | undefined) => type as unknown as Type;

/** A cache per key: the value is computed once. */
function memo<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  if (map.has(key)) return map.get(key)!;
  const value = compute();
  map.set(key, value);
  return value;
}

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
 * and the session's (transformer/ts7/project.ts) must agree on what stopped the process.
 */
export function isApiStopFailure(failure: unknown): boolean {
  const text = failure instanceof Error ? failure.message : typeof failure === "string" ? failure : "";
  return /\bpanic: |SyncRpcChannel|EPIPE|EOF/.test(text);
}

type Documented = ts.Node & { jsDoc?: readonly unknown[] };

export class Ts7Checker implements TypeChecker {
  readonly syntax: Syntax;
  private readonly typeFlags: (flags: number) => number;
  private readonly symbolFlagsOf: (flags: number) => number;
  private readonly aliasedOf = new Map<ApiSymbol, ApiSymbol>();
  private readonly kind: Ts7Modules["SyntaxKind"];
  private readonly unionFlag: number;
  private readonly objectFlag: number;

  private readonly constituentsOf = new Map<ApiType, readonly ApiType[]>();
  private readonly propertiesOf = new Map<ApiType, readonly ApiSymbol[]>();
  private readonly typeOf = new Map<ApiSymbol, ApiType>();
  private readonly indexInfosOf = new Map<ApiType, readonly IndexInfo[]>();
  private readonly callSignaturesOf = new Map<ApiType, readonly ApiSignature[]>();
  private readonly constructSignaturesOf = new Map<ApiType, boolean>();
  private readonly typeArgumentsOf = new Map<ApiType, readonly ApiType[]>();
  private readonly nonNullableOf = new Map<ApiType, ApiType>();
  private readonly arrayTargets = new Map<ApiType, boolean>();
  private readonly texts = new Map<ApiType, string>();
  private readonly fullTexts = new Map<ApiType, string>();
  private readonly declarationsOf = new Map<ApiSymbol, readonly ts.Declaration[]>();
  private readonly documentationOf = new Map<ApiSymbol, Documentation | undefined>();
  private readonly libraryFiles = new Map<string, boolean>();
  private readonly parametersOf = new Map<ApiSignature, readonly ApiSymbol[]>();
  private readonly returnTypeOf = new Map<ApiSignature, ApiType>();

  /** The first failure of the compiler process (it panicked, and stopped), if any: callers that swallow errors check it. */
  stoppedBy?: Error;
  readonly api: ApiChecker;

  constructor(
    api: ApiChecker,
    private readonly program: ApiProgram,
    modules: Ts7Modules,
    /** The project's strictNullChecks: without it, a type's non-nullable type is itself. */
    private readonly strictNullChecks = true,
  ) {
    // Every question goes through here: a panic of the compiler process is remembered.
    this.api = new Proxy(api, {
      get: (target, key) => {
        const member = Reflect.get(target, key) as unknown;
        if (typeof member !== "function") return member;
        return (...args: unknown[]) => {
          try {
            return (member as (...a: unknown[]) => unknown).apply(target, args);
          } catch (error) {
            if (error instanceof Error && isApiStopFailure(error)) this.stoppedBy ??= error;
            throw error;
          }
        };
      },
    });
    this.syntax = ts7Syntax(modules);
    this.kind = modules.SyntaxKind;
    this.typeFlags = flagTranslator(TypeFlag, modules.TypeFlags);
    this.symbolFlagsOf = flagTranslator(SymbolFlag, modules.SymbolFlags);
    this.unionFlag = modules.TypeFlags.Union as number;
    this.objectFlag = modules.TypeFlags.Object as number;
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
  /**
   * A union's members in TypeScript 5's order, which is the order the checker created them in
   * (their ids): TypeScript 7 keeps unions sorted its own way, but numbers its types as it
   * creates them, as 5 does.
   */
  constituents(type: Type): readonly Type[] {
    return memo(this.constituentsOf, T(type), () => {
      const members = T(type).getTypes() ?? [];
      return T(type).flags & this.unionFlag ? [...members].sort((a, b) => this.creationOrder(a, b)) : members;
    }) as unknown as readonly Type[];
  }
  /**
   * Which of two types TypeScript 5 would have created first: the one with the lower id, but
   * for the literal types of `typeof`'s answers, which both checkers create as they start, in
   * a different order.
   */
  private creationOrder(a: ApiType, b: ApiType): number {
    const typeofA = typeof a.value === "string" ? TYPEOF_NAMES.indexOf(a.value) : -1;
    const typeofB = typeof b.value === "string" ? TYPEOF_NAMES.indexOf(b.value) : -1;
    if (typeofA >= 0 && typeofB >= 0 && a.flags === b.flags) return typeofA - typeofB;
    return a.id - b.id;
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
    // Array<T> and ReadonlyArray<T> are references to two targets: asked once per target.
    return memo(this.arrayTargets, t.getTarget(), () => this.api.isArrayType(t));
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
    return memo(this.baseTypesOf, target, () => this.api.getBaseTypes(target) ?? []) as unknown as readonly Type[];
  }
  typeArguments(type: Type): readonly Type[] {
    return memo(this.typeArgumentsOf, T(type), () => this.api.getTypeArguments(T(type))) as unknown as readonly Type[];
  }
  properties(type: Type): readonly Symbol[] {
    return memo(this.propertiesOf, T(type), () => {
      const declared = this.declaredProperties(T(type));
      if (declared) return declared;
      const properties = this.inheritedInTs5Order(T(type), this.api.getPropertiesOfType(T(type)));
      // Their types are asked next, all of them: in one round trip.
      this.prefetchTypes(properties);
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
          !this.symbolsAt.has(name)
        )
          return undefined;
        const property = this.symbolsAt.get(name);
        if (!property) return undefined;
        if (!found.has(property.id)) found.set(property.id, property);
      }
    }
    return [...found.values()];
  }

  /**
   * Asks at once, for every interface, class, alias and enum declared at the top of these files,
   * for its symbol, and for the symbols and types of the members of its interfaces and object
   * literal types: what modeling any of them would ask one by one.
   */
  prefetchDeclarations(files: readonly ts.SourceFile[]): void {
    const kind = this.kind;
    const names: ts.Node[] = [];
    const members: ts.Node[] = [];
    const addMembers = (list: readonly ts.TypeElement[] | undefined) => {
      for (const member of list ?? [])
        if (
          (member.kind === kind.PropertySignature || member.kind === kind.MethodSignature) &&
          member.name &&
          member.name.kind !== kind.ComputedPropertyName
        )
          members.push(member.name);
    };
    for (const file of files) {
      for (const statement of file.statements) {
        const declaration = statement as ts.DeclarationStatement & {
          members?: readonly ts.TypeElement[];
          type?: ts.TypeNode;
        };
        if (
          ![kind.InterfaceDeclaration, kind.ClassDeclaration, kind.TypeAliasDeclaration, kind.EnumDeclaration].includes(
            statement.kind,
          ) ||
          !declaration.name
        )
          continue;
        names.push(declaration.name);
        if (statement.kind === kind.InterfaceDeclaration) addMembers(declaration.members);
        if (statement.kind === kind.TypeAliasDeclaration && declaration.type?.kind === kind.TypeLiteral)
          addMembers((declaration.type as ts.TypeLiteralNode).members);
      }
    }
    this.prefetchSymbolsAt([...names, ...members]);
    this.prefetchTypes(
      members.map((name) => this.symbolsAt.get(name)).filter((symbol): symbol is ApiSymbol => symbol !== undefined),
    );
  }

  /**
   * Asks at once, for the declarations of these signatures (the registered functions), for the
   * symbols of their parameters and their types, and the types their return types name.
   */
  prefetchSignatures(declarations: readonly ts.SignatureDeclaration[]): void {
    const kind = this.kind;
    const parameters = declarations.flatMap((d) =>
      d.parameters.map((p) => p.name).filter((name) => name.kind === kind.Identifier),
    );
    this.prefetchSymbolsAt(parameters);
    this.prefetchTypes(
      parameters.map((name) => this.symbolsAt.get(name)).filter((symbol): symbol is ApiSymbol => symbol !== undefined),
    );
    const returns = declarations
      .map((d) => d.type)
      .filter(
        (type): type is ts.TypeNode =>
          type !== undefined && type.kind !== kind.TypePredicate && !this.typesAt.has(type),
      );
    if (returns.length) {
      const types = this.api.getTypeAtLocation(returns);
      returns.forEach((node, i) => this.typesAt.set(node, types[i]));
    }
  }
  private readonly typesAt = new Map<ts.Node, ApiType | undefined>();

  private readonly baseTypesOf = new Map<ApiType, readonly ApiType[]>();
  /**
   * A class's or interface's properties in TypeScript 5's order: its own, then each base
   * type's in that base's order (TypeScript 7 lists the inherited ones in another order).
   * The order of a generic type's reference is its target's.
   */
  private inheritedInTs5Order(type: ApiType, properties: readonly ApiSymbol[]): readonly ApiSymbol[] {
    if (!(type.flags & this.objectFlag)) return properties;
    const target = type.objectFlags & OBJECT_REFERENCE ? type.getTarget() : type;
    if (!(target.objectFlags & OBJECT_CLASS_OR_INTERFACE)) return properties;
    if (this.declaredShape(target)) return properties; // declared without bases
    const bases = memo(this.baseTypesOf, target, () => this.api.getBaseTypes(target) ?? []);
    if (!bases.length) return properties;
    const own = symbolId(target.symbol);
    const names = properties.filter((p) => symbolId(p.parent) === own).map((p) => p.name);
    for (const base of bases)
      for (const symbol of this.properties(asType(base)))
        if (!names.includes(S(symbol).name)) names.push(S(symbol).name);
    const rank = new Map(names.map((name, i) => [name, i]));
    return [...properties].sort((a, b) => (rank.get(a.name) ?? names.length) - (rank.get(b.name) ?? names.length));
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
  private readonly shapes = new Map<ApiSymbol, { call: boolean; construct: boolean; index: boolean } | undefined>();

  indexInfos(type: Type): readonly IndexInfo[] {
    if (this.declaredShape(T(type))?.index === false) return [];
    return memo(this.indexInfosOf, T(type), () =>
      this.api
        .getIndexInfosOfType(T(type))
        .map((info) => ({ keyType: asType(info.keyType), type: asType(info.valueType) })),
    );
  }
  callSignatures(type: Type): readonly Signature[] {
    // Arrays and tuples are never callable.
    if (this.declaredShape(T(type))?.call === false || this.isArrayType(type) || this.isTupleType(type)) return [];
    return memo(this.callSignaturesOf, T(type), () =>
      this.api.getSignaturesOfType(T(type), SIGNATURE_CALL),
    ) as unknown as readonly Signature[];
  }
  hasConstructSignatures(type: Type): boolean {
    if (this.declaredShape(T(type))?.construct === false) return false;
    return memo(
      this.constructSignaturesOf,
      T(type),
      () => this.api.getSignaturesOfType(T(type), SIGNATURE_CONSTRUCT).length > 0,
    );
  }
  private prefetchTypes(symbols: readonly ApiSymbol[]): void {
    const missing = symbols.filter((symbol) => !this.typeOf.has(symbol));
    if (missing.length < 2) return;
    const types = this.api.getTypeOfSymbol(missing);
    missing.forEach((symbol, i) => {
      const type = types[i];
      if (type) this.typeOf.set(symbol, type);
    });
  }
  typeOfSymbol(symbol: Symbol): Type {
    return asType(memo(this.typeOf, S(symbol), () => this.api.getTypeOfSymbol(S(symbol))!));
  }
  nonNullable(type: Type): Type {
    // A type that admits neither null nor undefined, and stands for no other type, is its own non-nullable type.
    const flags = this.flags(type);
    if (flags & TypeFlags.Union && this.strictNullChecks) {
      // A union of such types and null, undefined or void: what remains, if it is one member.
      const members = this.constituents(type);
      const kept = members.filter((member) => !(this.flags(member) & NULLISH));
      if (kept.length === 1 && !(this.flags(kept[0]) & STANDS_FOR_OTHERS)) return kept[0];
    }
    if (!(flags & (TypeFlags.Union | NULLISH | STANDS_FOR_OTHERS))) return type;
    return asType(memo(this.nonNullableOf, T(type), () => this.api.getNonNullableType(T(type)) ?? T(type)));
  }
  /**
   * The API has no getAwaitedType: the value type is what `then`'s callback receives, as the
   * checker finds it (getPromisedTypeOfPromise), awaited again until it is no thenable.
   */
  awaited(type: Type): Type | undefined {
    const flags = this.flags(type);
    if (flags & TypeFlags.Any) return type;
    // A primitive is no promise, even intersected with a thenable (`string & PromiseLike<T>`), as the checker decides.
    if (
      flags & TypeFlags.Intersection &&
      this.constituents(type).some((member) => this.flags(member) & PRIMITIVE_OR_NEVER)
    )
      return type;
    if (flags & TypeFlags.Union) {
      const members = this.constituents(type).map((member) => this.awaited(member));
      // A union's members awaited to one type are that type; to several, their union, for which
      // the API has no handle: undefined (the caller says so, rather than describe the promises).
      if (members.some((member) => member === undefined)) return undefined;
      return members.every((member) => member === members[0])
        ? members[0]
        : members.every((member, i) => member === this.constituents(type)[i])
          ? type
          : undefined;
    }
    const then = this.property(type, "then");
    if (!then) return type;
    // An optional `then` (`Partial<Promise<T>>`) has no call signatures, as the checker finds: no promise.
    const thenSignatures = this.callSignatures(this.typeOfSymbol(then));
    const fulfilled = thenSignatures.map((signature) => this.api.getParameterType(G(signature), 0));
    if (fulfilled.length !== 1 || !fulfilled[0]) return type;
    const callbacks = this.callSignatures(this.nonNullable(asType(fulfilled[0])));
    const values = callbacks.map((signature) => this.api.getParameterType(G(signature), 0));
    if (values.length !== 1 || !values[0]) return type;
    const value = asType(values[0]);
    return value === type ? type : this.awaited(value);
  }
  typeToString(type: Type, full?: boolean): string {
    const cache = full ? this.fullTexts : this.texts;
    return memo(cache, T(type), () =>
      full ? this.api.typeToString(T(type), undefined, NO_TRUNCATION) : this.api.typeToString(T(type)),
    );
  }

  symbolName(symbol: Symbol): string {
    return S(symbol).name;
  }
  symbolFlags(symbol: Symbol): number {
    return this.symbolFlagsOf(S(symbol).flags);
  }
  declarations(symbol: Symbol): readonly ts.Declaration[] {
    return memo(this.declarationsOf, S(symbol), () =>
      (S(symbol).declarations ?? [])
        .map((handle) => handle.resolve() as ts.Declaration)
        .filter((node) => node !== undefined),
    );
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
  private isLibraryFile(path: string): boolean {
    // A default library is a declaration file (lib.*.d.ts): no other file is asked about.
    if (!/\.d\.[cm]?ts$/.test(path)) return false;
    return memo(
      this.libraryFiles,
      path,
      () => this.program.getSourceFileMetadataByPath(path)?.isDefaultLibrary ?? false,
    );
  }
  isLibrarySymbol(symbol: Symbol): boolean {
    const declarations = S(symbol).declarations ?? [];
    return declarations.length > 0 && declarations.every((d) => this.isLibraryFile(d.path));
  }
  hasLibraryDeclaration(symbol: Symbol): boolean {
    return (S(symbol).declarations ?? []).some((d) => this.isLibraryFile(d.path));
  }
  declarationFiles(symbol: Symbol): readonly string[] {
    return (S(symbol).declarations ?? []).map((d) => d.path);
  }
  documentation(symbol: Symbol): Documentation | undefined {
    return memo(this.documentationOf, S(symbol), () => {
      if (!this.mayBeDocumented(symbol)) return undefined;
      const declarations = this.declarations(symbol);
      const read = declarations.length === 1 ? this.writtenDocumentation(declarations[0]) : undefined;
      if (read) return read;
      const s = S(symbol);
      return {
        comment: this.api.getDocumentationCommentOfSymbol(s),
        tags: this.api.getJsDocTagsOfSymbol(s).map((tag) => ({ name: tag.name, text: tag.text ?? "" })),
      };
    });
  }
  /**
   * False when the symbol can have no documentation (most properties): no round trips for it.
   * A comment is on a declaration, on the statement of a variable, on the function whose
   * `@param` a parameter's is, or inherited by a member of a class or interface that extends
   * or implements another. A symbol without declarations is asked.
   */
  private mayBeDocumented(symbol: Symbol): boolean {
    const declarations = this.declarations(symbol);
    if (!declarations.length) return true;
    const kind = this.kind;
    return declarations.some((declaration) => {
      if (hasJsDoc(declaration)) return true;
      const owner = declaration.parent;
      if (!owner) return false;
      if (declaration.kind === kind.Parameter) return this.functionComments(owner).length > 0;
      if (declaration.kind === kind.VariableDeclaration) return hasJsDoc(owner.parent);
      if (
        owner.kind === kind.ClassDeclaration ||
        owner.kind === kind.ClassExpression ||
        owner.kind === kind.InterfaceDeclaration
      ) {
        return ((owner as ts.ClassLikeDeclaration).heritageClauses?.length ?? 0) > 0;
      }
      return false;
    });
  }

  /**
   * A declaration's JSDoc as its syntax tree holds it, where that is what the checker would
   * answer: a comment and tags of plain text (the API renders links), on the declaration
   * itself, not inherited. Undefined where only the checker can tell (the API is asked then).
   */
  private writtenDocumentation(declaration: ts.Node): Documentation | undefined {
    const kind = this.kind;
    if (declaration.kind === kind.Parameter) {
      // A parameter's documentation is its function's `@param`; its tags are those `@param`s, no keyword.
      const name = (declaration as ts.ParameterDeclaration).name;
      if (hasJsDoc(declaration) || name.kind !== kind.Identifier) return undefined;
      const tags = this.functionComments(declaration.parent)
        .flatMap((doc) => doc.tags ?? [])
        .filter(
          (tag) =>
            tag.kind === kind.JSDocParameterTag &&
            tag.name?.kind === kind.Identifier &&
            tag.name.text === (name as ts.Identifier).text,
        );
      if (tags.length > 1) return undefined;
      const comment = tags.length ? plainText(tags[0].comment, kind) : "";
      return comment === undefined ? undefined : { comment, tags: [] };
    }
    const owned = [
      kind.PropertySignature,
      kind.PropertyDeclaration,
      kind.FunctionDeclaration,
      kind.MethodDeclaration,
      kind.MethodSignature,
      kind.InterfaceDeclaration,
      kind.ClassDeclaration,
      kind.TypeAliasDeclaration,
    ];
    if (!owned.includes(declaration.kind)) return undefined;
    const docs = jsDocsOf(declaration);
    if (docs.length > 1) return undefined;
    // A member whose own comment or tags are missing shows its base's, where it has one.
    const owner = declaration.parent;
    const inherits =
      !!owner &&
      [kind.ClassDeclaration, kind.ClassExpression, kind.InterfaceDeclaration].includes(owner.kind) &&
      ((owner as ts.ClassLikeDeclaration).heritageClauses?.length ?? 0) > 0;
    if (!docs.length) return inherits ? undefined : { comment: "", tags: [] };
    const comment = plainText(docs[0].comment, kind);
    if (comment === undefined) return undefined;
    const tags: Documentation["tags"] = [];
    for (const tag of docs[0].tags ?? []) {
      const name = tag.tagName.text;
      const text = plainText(tag.comment, kind);
      if (text === undefined || name === "inheritDoc" || name === "inheritdoc" || tag.kind === kind.JSDocParameterTag)
        return undefined;
      tags.push({ name, text });
    }
    if (inherits && (!comment || !tags.length)) return undefined;
    return { comment, tags };
  }

  /**
   * The comments that document a function, as the language service finds them: the last on the
   * function itself, then the last on what holds it, when it is a variable's, a property's or
   * an object literal property's value (`const f = (...) => ...`: the variable statement).
   */
  private functionComments(fn: ts.Node): readonly JsDocNode[] {
    const kind = this.kind;
    const last = (node: ts.Node | undefined) => jsDocsOf(node).slice(-1);
    const own = last(fn);
    if (fn.kind !== kind.ArrowFunction && fn.kind !== kind.FunctionExpression) return own;
    const holder = fn.parent;
    if (holder?.kind === kind.PropertyAssignment || holder?.kind === kind.PropertyDeclaration)
      return [...own, ...last(holder)];
    const statement = holder?.parent?.parent;
    if (
      holder?.kind === kind.VariableDeclaration &&
      (holder as ts.VariableDeclaration).initializer === fn &&
      statement?.kind === kind.VariableStatement &&
      (statement as ts.VariableStatement).declarationList.declarations.length === 1
    )
      return [...own, ...last(statement)];
    return own;
  }

  writtenTags(declaration: ts.Node): readonly WrittenTag[] {
    const kind = this.kind;
    const comments =
      declaration.kind === kind.Parameter ? jsDocsOf(declaration).slice(-1) : this.functionComments(declaration);
    return comments
      .flatMap((doc) => doc.tags ?? [])
      .map((tag) => ({
        name: tag.tagName.text,
        text: plainText(tag.comment, kind),
        ...(tag.kind === kind.JSDocParameterTag && tag.name?.kind === kind.Identifier && { parameter: tag.name.text }),
      }));
  }

  signatureDeclaration(signature: Signature): ts.SignatureDeclaration | undefined {
    return G(signature).declaration?.resolve() as ts.SignatureDeclaration | undefined;
  }
  parameters(signature: Signature): readonly Symbol[] {
    return memo(this.parametersOf, G(signature), () => {
      // The symbols of the declaration's parameters (`this` is none), where asked already (prefetchSignatures).
      const declared = this.signatureDeclaration(signature)?.parameters.filter(
        (p) => !(p.name.kind === this.kind.Identifier && (p.name as ts.Identifier).text === "this"),
      );
      if (declared?.every((p) => this.symbolsAt.get(p.name) !== undefined))
        return declared.map((p) => this.symbolsAt.get(p.name)!);
      const parameters = G(signature).getParameters();
      this.prefetchTypes(parameters);
      return parameters;
    }) as unknown as readonly Symbol[];
  }
  returnType(signature: Signature): Type {
    return asType(
      memo(this.returnTypeOf, G(signature), () => {
        // A declared return type is the type its annotation names (asked already, see prefetchSignatures).
        const annotation = this.signatureDeclaration(signature)?.type;
        return (annotation && this.typesAt.get(annotation)) || this.api.getReturnTypeOfSignature(G(signature))!;
      }),
    );
  }
  /**
   * The API documents symbols, not signatures: a signature's comment is its declaration's
   * symbol's (a function's, a method's; for a function expression, the variable's it is
   * assigned to, where TypeScript 5 finds it too).
   */
  signatureDocumentation(signature: Signature): string {
    const declaration = this.signatureDeclaration(signature);
    if (!declaration) return "";
    const written = this.writtenDocumentation(declaration);
    if (written) return written.comment;
    const kind = this.kind;
    let named: ts.Node | undefined = (declaration as ts.NamedDeclaration).name;
    if (!named && (declaration.kind === kind.ArrowFunction || declaration.kind === kind.FunctionExpression)) {
      const holder = declaration.parent;
      if (holder?.kind === kind.VariableDeclaration) named = (holder as ts.VariableDeclaration).name;
    }
    const symbol = named && this.symbolAt(named);
    return symbol ? (this.documentation(symbol)?.comment ?? "") : "";
  }

  private readonly symbolsAt = new Map<ts.Node, ApiSymbol | undefined>();
  symbolAt(node: ts.Node): Symbol | undefined {
    return memo(this.symbolsAt, node, () => this.api.getSymbolAtLocation(node)) as unknown as Symbol | undefined;
  }
  /** Asks at once for the symbols at these nodes, which compiling will ask one by one. */
  prefetchSymbolsAt(nodes: readonly ts.Node[]): void {
    const missing = [...new Set(nodes)].filter((node) => !this.symbolsAt.has(node));
    if (!missing.length) return;
    const symbols = this.api.getSymbolAtLocation(missing);
    missing.forEach((node, i) => this.symbolsAt.set(node, symbols[i]));
  }
  /** Asks at once for the types of these symbols. */
  prefetchTypesOf(symbols: readonly Symbol[]): void {
    this.prefetchTypes(symbols.map(S));
  }
  typeAt(node: ts.Node): Type {
    return asType(this.api.getTypeAtLocation(node));
  }
  aliasedSymbol(symbol: Symbol): Symbol {
    return memo(this.aliasedOf, S(symbol), () => this.api.getAliasedSymbol(S(symbol))) as unknown as Symbol;
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

function hasJsDoc(node: ts.Node | undefined): boolean {
  return ((node as Documented | undefined)?.jsDoc?.length ?? 0) > 0;
}

/** A JSDoc comment or tag, as TypeScript 7's syntax tree holds it. */
interface JsDocNode {
  readonly kind: number;
  readonly comment?: readonly { kind: number; text: string }[];
  readonly tags?: readonly (JsDocNode & { tagName: ts.Identifier; name?: ts.Identifier })[];
}

function jsDocsOf(node: ts.Node | undefined): readonly JsDocNode[] {
  return ((node as Documented | undefined)?.jsDoc ?? []) as readonly JsDocNode[];
}

/** A comment's text when it is text only; undefined when it holds links or other nodes. */
function plainText(comment: JsDocNode["comment"], kind: Ts7Modules["SyntaxKind"]): string | undefined {
  let text = "";
  for (const part of comment ?? []) {
    if (part.kind !== kind.JSDocText) return undefined;
    text += part.text;
  }
  return text;
}
