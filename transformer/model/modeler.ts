import type { Type, TypeChecker } from "../checker/checker";
import { SymbolFlags } from "../checker/flags";
import type { Definition, Model } from "./model";
import type { ParseContext, TypeParser } from "./parser";
import { ModelSizes } from "./size";

/** Types described inside one another at once, at most: deeper is reported, and the stack stays bounded. */
export const MAX_DEPTH = 100;
/** Types one root type (a parameter's, the result's) may need newly converted: beyond, it is reported as too large. */
export const MAX_TYPES = 20_000;
/** Schema nodes one type's model may be written as (anonymous parts are inlined): beyond, it is reported as too large. */
export const MAX_SCHEMA_NODES = 20_000;

/** Thrown inside the modeler when a root type exceeds MAX_DEPTH or MAX_TYPES; caught where that root began. */
class TooComplex extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Turns the checker's resolved types into models. One per program: every distinct type is
 * converted once, however many tools use it, and named types get one definition each.
 */
export class TypeModeler implements ParseContext {
  private readonly cache = new Map<Type, Model>();
  private readonly inProgress = new Set<Type>();
  private readonly definitions = new Map<Type, Definition>();
  private readonly sizes = new ModelSizes();
  /** While a root type is being converted: the types cached or defined since it began (undone if it is too complex). */
  private journal: Type[] = [];
  /** Types converted since the current root type began. */
  private rootConverted = 0;
  /** How many types were converted (each at most once per program): the cache's measure. */
  converted = 0;

  /**
   * @param parsers one per TypeScript construct, in the order they are tried: the list
   * transformer/model/parsers/index.ts holds, handed in by whoever makes the modeler (the
   * compiler), so that the parsers, which take a ParseContext, import nothing of this file.
   */
  constructor(
    readonly checker: TypeChecker,
    private readonly parsers: readonly TypeParser[],
  ) {}

  modelOf(type: Type): Model {
    const cached = this.cache.get(type);
    if (cached) return cached;
    // A type met again while its own model is being built is recursive: it becomes a
    // definition, and the inner use a reference to it.
    if (this.inProgress.has(type)) return { kind: "ref", definition: this.definitionFor(type) };
    if (this.inProgress.size === 0) return this.rootModelOf(type);
    // Bounds on the work one root type may cause: types that expand without end
    // (`interface Box<T> { inner: Box<Box<T>> }`) or to very many distinct types.
    if (this.inProgress.size >= MAX_DEPTH)
      throw new TooComplex(`is nested too deeply to describe (more than ${MAX_DEPTH} levels)`);
    if (++this.rootConverted > MAX_TYPES)
      throw new TooComplex(`is too large to describe (more than ${MAX_TYPES} distinct types inside)`);
    return this.build(type);
  }

  /**
   * A type that is not inside another one being converted. If it turns out too complex,
   * everything converted on its behalf is undone (no model refers to half a conversion)
   * and the type itself is reported, once: its model is cached like any other.
   */
  private rootModelOf(type: Type): Model {
    this.journal = [];
    this.rootConverted = 0;
    try {
      return this.build(type);
    } catch (error) {
      if (!(error instanceof TooComplex)) throw error;
      for (const undone of this.journal) {
        this.cache.delete(undone);
        this.definitions.delete(undone);
      }
      const model: Model = { kind: "unsupported", message: `${this.shortText(type)} ${error.reason}` };
      this.cache.set(type, model);
      return model;
    } finally {
      this.journal = [];
    }
  }

  private build(type: Type): Model {
    this.inProgress.add(type);
    let model: Model;
    try {
      model = this.parse(type);
    } finally {
      this.inProgress.delete(type);
    }
    if (model.kind !== "unsupported" && this.sizes.of(model) > MAX_SCHEMA_NODES) {
      model = {
        kind: "unsupported",
        message: `${this.shortText(type)} is too large to describe (its schema would have more than ${MAX_SCHEMA_NODES} parts)`,
      };
    }
    const definition = this.definitions.get(type);
    if (definition) {
      definition.model = model;
      model = { kind: "ref", definition };
    }
    this.cache.set(type, model);
    this.journal.push(type);
    return model;
  }

  define(type: Type): void {
    this.definitionFor(type);
  }

  private readonly names = new Map<Type, string | undefined>();

  nameOf(type: Type): string | undefined {
    if (this.names.has(type)) return this.names.get(type);
    let name: string | undefined;
    const { checker } = this;
    const alias = checker.aliasSymbolOf(type);
    const symbol = checker.symbolOf(type);
    if (alias && !checker.isLibrarySymbol(alias)) {
      // Printing a type is costly; a name without type arguments is just the symbol's.
      name = checker.aliasTypeArgumentCount(type) > 0 ? this.typeText(type) : checker.symbolName(alias);
    } else if (
      symbol &&
      checker.symbolFlags(symbol) & (SymbolFlags.Interface | SymbolFlags.Class) &&
      !checker.isLibrarySymbol(symbol)
    ) {
      const generic = checker.isReference(type) && checker.typeArguments(type).length > 0;
      name = generic ? this.typeText(type) : checker.symbolName(symbol);
    }
    this.names.set(type, name);
    return name;
  }

  unsupported(type: Type, reason: string, flag?: "lost" | "uninhabited"): Model {
    const message = `${this.typeText(type)} ${reason}`;
    return flag ? { kind: "unsupported", message, [flag]: true } : { kind: "unsupported", message };
  }

  typeText(type: Type): string {
    return this.checker.typeToString(type, true);
  }

  /** The type as TypeScript prints it in its own messages: long types cut short. */
  private shortText(type: Type): string {
    return this.checker.typeToString(type);
  }

  private parse(type: Type): Model {
    this.converted++;
    for (const parser of this.parsers) {
      if (parser.supports(type, this)) return parser.parse(type, this);
    }
    return this.unsupported(type, "has no JSON form typemcp knows");
  }

  private definitionFor(type: Type): Definition {
    let definition = this.definitions.get(type);
    if (!definition) {
      const title = this.nameOf(type) ?? this.typeText(type);
      definition = { name: definitionName(title), title, model: { kind: "any" } };
      this.definitions.set(type, definition);
      this.journal.push(type);
    }
    return definition;
  }
}

/** A readable `$defs` key that needs no URI escaping: `Page<User>` becomes `Page_User`. */
function definitionName(title: string): string {
  const name = title.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "");
  return name && name.length <= 64 ? name : "Type";
}
