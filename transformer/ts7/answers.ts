/**
 * What typemcp asks TypeScript 7's compiler process, each question once, and, where compiling
 * would ask the same question of many nodes one by one, of all of them at once: one round trip
 * instead of one per node (docs/typescript-7.md#speed). Every answer of the API is kept here,
 * by the node, type, symbol or signature it is about; the checker (checker.ts) asks through
 * here, and keeps only the answers it builds from these.
 */
import type * as ts from "typescript";
import type { IndexInfo, Type } from "../checker/checker";
import {
  isApiStopFailure,
  NO_TRUNCATION,
  OBJECT_REFERENCE,
  SIGNATURE_CALL,
  SIGNATURE_CONSTRUCT,
  type ApiBatch,
  type ApiBatchForms,
  type ApiChecker,
  type ApiProgram,
  type ApiRequest,
  type ApiSignature,
  type ApiSymbol,
  type ApiType,
} from "./api";
import type { Ts7Modules } from "./modules";

/** A cache per key: the value is computed once. */
export function memo<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  if (map.has(key)) return map.get(key)!;
  const value = compute();
  map.set(key, value);
  return value;
}

const asType = (type: ApiType | undefined) => type as unknown as Type;

export class Answers {
  /** The first failure of the compiler process (it panicked, and stopped), if any: callers that swallow errors check it. */
  stoppedBy?: Error;
  /** The API: every question goes through here, and a panic of the compiler process is remembered. */
  readonly api: ApiChecker;

  private readonly symbolsAt = new Map<ts.Node, ApiSymbol | undefined>();
  private readonly typesAt = new Map<ts.Node, ApiType | undefined>();
  private readonly typeOf = new Map<ApiSymbol, ApiType>();
  private readonly aliasedOf = new Map<ApiSymbol, ApiSymbol>();
  private readonly declarationsOf = new Map<ApiSymbol, readonly ts.Declaration[]>();
  private readonly baseTypesOf = new Map<ApiType, readonly ApiType[]>();
  private readonly typeArgumentsOf = new Map<ApiType, readonly ApiType[]>();
  private readonly indexInfosOf = new Map<ApiType, readonly IndexInfo[]>();
  private readonly callSignaturesOf = new Map<ApiType, readonly ApiSignature[]>();
  private readonly constructSignaturesOf = new Map<ApiType, boolean>();
  private readonly nonNullableOf = new Map<ApiType, ApiType>();
  private readonly arrayTargets = new Map<ApiType, boolean>();
  private readonly texts = new Map<ApiType, string>();
  private readonly fullTexts = new Map<ApiType, string>();
  private readonly libraryFiles = new Map<string, boolean>();
  private readonly parametersOf = new Map<ApiSignature, readonly ApiSymbol[]>();
  private readonly returnTypeOf = new Map<ApiSignature, ApiType>();

  /** The types whose constituents were asked in a batch. */
  private readonly partsAsked = new Set<ApiType>();

  constructor(
    private readonly rawApi: ApiChecker,
    private readonly program: ApiProgram,
    private readonly kind: Ts7Modules["SyntaxKind"],
    private readonly unionFlag: number,
    /** 7.1's `api.batch`: many per-type questions in one round trip. Undefined on 7.0, which asks them one by one. */
    private readonly batch?: ApiBatch,
  ) {
    this.api = new Proxy(rawApi, {
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
  }

  symbolAt(node: ts.Node): ApiSymbol | undefined {
    return memo(this.symbolsAt, node, () => this.api.getSymbolAtLocation(node));
  }
  /** The symbol at a node if it was asked already (prefetched): `has` tells an answer of none from no answer. */
  knownSymbolAt(node: ts.Node): { has: boolean; symbol: ApiSymbol | undefined } {
    return { has: this.symbolsAt.has(node), symbol: this.symbolsAt.get(node) };
  }
  typeOfSymbol(symbol: ApiSymbol): ApiType {
    return memo(this.typeOf, symbol, () => this.api.getTypeOfSymbol(symbol)!);
  }
  aliasedSymbol(symbol: ApiSymbol): ApiSymbol {
    return memo(this.aliasedOf, symbol, () => this.api.getAliasedSymbol(symbol));
  }
  declarations(symbol: ApiSymbol): readonly ts.Declaration[] {
    return memo(this.declarationsOf, symbol, () =>
      (symbol.declarations ?? [])
        .map((handle) => handle.resolve() as ts.Declaration)
        .filter((node) => node !== undefined),
    );
  }
  baseTypes(target: ApiType): readonly ApiType[] {
    return memo(this.baseTypesOf, target, () => this.api.getBaseTypes(target) ?? []);
  }
  typeArguments(type: ApiType): readonly ApiType[] {
    return memo(this.typeArgumentsOf, type, () => this.api.getTypeArguments(type));
  }
  indexInfos(type: ApiType): readonly IndexInfo[] {
    return memo(this.indexInfosOf, type, () =>
      this.api
        .getIndexInfosOfType(type)
        .map((info) => ({ keyType: asType(info.keyType), type: asType(info.valueType) })),
    );
  }
  callSignatures(type: ApiType): readonly ApiSignature[] {
    return memo(this.callSignaturesOf, type, () => this.api.getSignaturesOfType(type, SIGNATURE_CALL));
  }
  hasConstructSignatures(type: ApiType): boolean {
    return memo(
      this.constructSignaturesOf,
      type,
      () => this.api.getSignaturesOfType(type, SIGNATURE_CONSTRUCT).length > 0,
    );
  }
  nonNullable(type: ApiType): ApiType {
    return memo(this.nonNullableOf, type, () => this.api.getNonNullableType(type) ?? type);
  }
  /** Whether `type`, a reference to `target`, is an array: Array<T> and ReadonlyArray<T> are references to two targets, asked once per target. */
  isArrayReference(type: ApiType, target: ApiType): boolean {
    return memo(this.arrayTargets, target, () => this.api.isArrayType(type));
  }
  typeToString(type: ApiType, full?: boolean): string {
    const cache = full ? this.fullTexts : this.texts;
    return memo(cache, type, () =>
      full ? this.api.typeToString(type, undefined, NO_TRUNCATION) : this.api.typeToString(type),
    );
  }
  isLibraryFile(path: string): boolean {
    // A default library is a declaration file (lib.*.d.ts): no other file is asked about.
    if (!/\.d\.[cm]?ts$/.test(path)) return false;
    return memo(
      this.libraryFiles,
      path,
      () => this.program.getSourceFileMetadataByPath(path)?.isDefaultLibrary ?? false,
    );
  }
  /** A signature's parameters: those of its declaration (`declared`, `this` left out), where their symbols were asked already (prefetchSignatures). */
  parameters(
    signature: ApiSignature,
    declaration: () => readonly ts.ParameterDeclaration[] | undefined,
  ): readonly ApiSymbol[] {
    return memo(this.parametersOf, signature, () => {
      const declared = declaration();
      if (declared?.every((p) => this.symbolsAt.get(p.name) !== undefined))
        return declared.map((p) => this.symbolsAt.get(p.name)!);
      const parameters = signature.getParameters();
      this.prefetchTypes(parameters);
      return parameters;
    });
  }
  /** A signature's return type: a declared one is the type its annotation names (asked already, see prefetchSignatures). */
  returnType(signature: ApiSignature, annotationOf: () => ts.TypeNode | undefined): ApiType {
    return memo(this.returnTypeOf, signature, () => {
      const annotation = annotationOf();
      return (annotation && this.typesAt.get(annotation)) || this.api.getReturnTypeOfSignature(signature)!;
    });
  }

  /** Runs a batch (7.1), remembering a panic of the compiler process as a lone question does. */
  private inBatch(requests: readonly ApiRequest<unknown>[]): unknown[] {
    try {
      return this.batch!(requests);
    } catch (error) {
      if (error instanceof Error && isApiStopFailure(error)) this.stoppedBy ??= error;
      throw error;
    }
  }

  /**
   * 7.1: asks at once for the call signatures of these types (the registered functions'), which
   * reading each function asks: one round trip instead of one per function.
   */
  prefetchCallSignatures(types: readonly ApiType[]): void {
    const gen = (this.rawApi as unknown as ApiBatchForms).getSignaturesOfType.gen;
    if (!this.batch || !gen) return;
    const missing = [...new Set(types)].filter((type) => !this.callSignaturesOf.has(type));
    if (missing.length < 2) return;
    const answers = this.inBatch(missing.map((type) => gen.call(this.rawApi, type, SIGNATURE_CALL)));
    missing.forEach((type, i) => this.callSignaturesOf.set(type, answers[i] as readonly ApiSignature[]));
  }

  /**
   * 7.1: asks at once for what modeling these types (properties', parameters', return types)
   * asks of each: a union's members, then a reference's (an array's, a tuple's) type
   * arguments, those of the unions' members too. Two round trips instead of one per type.
   */
  prefetchTypeParts(types: readonly ApiType[]): void {
    const typeArguments = (this.rawApi as unknown as ApiBatchForms).getTypeArguments.gen;
    if (!this.batch || !typeArguments) return;
    const unions = [...new Set(types)].filter(
      (type) => type.flags & this.unionFlag && !this.partsAsked.has(type) && type.getTypes.gen,
    );
    for (const union of unions) this.partsAsked.add(union);
    const members = unions.length
      ? (this.inBatch(unions.map((union) => union.getTypes.gen!.call(union))) as (readonly ApiType[] | undefined)[])
      : [];
    const references = [...new Set([...types, ...members.flatMap((list) => list ?? [])])].filter(
      (type) => type.objectFlags & OBJECT_REFERENCE && !this.typeArgumentsOf.has(type),
    );
    if (references.length < 2) return;
    const answers = this.inBatch(references.map((type) => typeArguments.call(this.rawApi, type)));
    references.forEach((type, i) => this.typeArgumentsOf.set(type, answers[i] as readonly ApiType[]));
  }

  /** Asks at once for the symbols at these nodes, which compiling will ask one by one. */
  prefetchSymbolsAt(nodes: readonly ts.Node[]): void {
    const missing = [...new Set(nodes)].filter((node) => !this.symbolsAt.has(node));
    if (!missing.length) return;
    const symbols = this.api.getSymbolAtLocation(missing);
    missing.forEach((node, i) => this.symbolsAt.set(node, symbols[i]));
  }
  /** Asks at once for the types of these symbols. */
  prefetchTypes(symbols: readonly ApiSymbol[]): void {
    const missing = symbols.filter((symbol) => !this.typeOf.has(symbol));
    if (missing.length < 2) return;
    const types = this.api.getTypeOfSymbol(missing);
    missing.forEach((symbol, i) => {
      const type = types[i];
      if (type) this.typeOf.set(symbol, type);
    });
  }
  /**
   * Asks at once, for every interface, class, alias and enum declared at the top of these files,
   * for its symbol, and for the symbols and types of the members of its interfaces and object
   * literal types (and the parts of those types, prefetchTypeParts): what modeling any of them
   * would ask one by one.
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
        // Their symbols are not asked by node, but by their types (`getSymbol()`): 7.1 answers
        // that from the symbols it sent already, else asks (1,064 round trips at 500 tools).
        names.push(declaration.name);
        if (statement.kind === kind.InterfaceDeclaration) addMembers(declaration.members);
        if (statement.kind === kind.TypeAliasDeclaration && declaration.type?.kind === kind.TypeLiteral)
          addMembers((declaration.type as ts.TypeLiteralNode).members);
      }
    }
    this.prefetchSymbolsAt([...names, ...members]);
    const symbols = members
      .map((name) => this.symbolsAt.get(name))
      .filter((symbol): symbol is ApiSymbol => symbol !== undefined);
    this.prefetchTypes(symbols);
    this.prefetchTypeParts(symbols.map((symbol) => this.typeOf.get(symbol)).filter((type) => type !== undefined));
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
    const symbols = parameters
      .map((name) => this.symbolsAt.get(name))
      .filter((symbol): symbol is ApiSymbol => symbol !== undefined);
    this.prefetchTypes(symbols);
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
    this.prefetchTypeParts(
      [...symbols.map((symbol) => this.typeOf.get(symbol)), ...returns.map((node) => this.typesAt.get(node))].filter(
        (type) => type !== undefined,
      ),
    );
  }
}
