import * as ts from "typescript";
import type { Definition, Model } from "./model";
import { parsers } from "./parsers";

/**
 * What a parser may ask of the modeler: the model of another type (cached, recursion-safe),
 * a definition for a named type, and the JSDoc of a symbol.
 */
export interface ParseContext {
  readonly checker: ts.TypeChecker;
  modelOf(type: ts.Type): Model;
  /** Makes `type` a named definition: its model becomes a `$ref` wherever it is used. */
  define(type: ts.Type): void;
  /** The declared name of a named type (interface, class, alias), or undefined for anonymous ones. */
  nameOf(type: ts.Type): string | undefined;
  describe(symbol: ts.Symbol | undefined): string | undefined;
  /** The model of a type with no JSON form: "<the type> <reason>". */
  unsupported(type: ts.Type, reason: string): Model;
  typeText(type: ts.Type): string;
  isLibraryDeclaration(declaration: ts.Declaration): boolean;
}

/** One TypeScript construct: which resolved types it handles, and their model. */
export interface TypeParser {
  /** The construct, as a reader would search for it ("Date", "tuple", ...). */
  readonly construct: string;
  supports(type: ts.Type, ctx: ParseContext): boolean;
  parse(type: ts.Type, ctx: ParseContext): Model;
}

/**
 * Turns the checker's resolved types into models. One per program: every distinct type is
 * converted once, however many tools use it, and named types get one definition each.
 */
export class TypeModeler implements ParseContext {
  private readonly cache = new Map<ts.Type, Model>();
  private readonly inProgress = new Set<ts.Type>();
  private readonly definitions = new Map<ts.Type, Definition>();
  /** How many types were converted (each at most once per program): the cache's measure. */
  converted = 0;

  constructor(
    readonly checker: ts.TypeChecker,
    private readonly program: ts.Program,
  ) {}

  modelOf(type: ts.Type): Model {
    const cached = this.cache.get(type);
    if (cached) return cached;
    // A type met again while its own model is being built is recursive: it becomes a
    // definition, and the inner use a reference to it.
    if (this.inProgress.has(type)) return { kind: "ref", definition: this.definitionFor(type) };

    this.inProgress.add(type);
    let model: Model;
    try {
      model = this.parse(type);
    } finally {
      this.inProgress.delete(type);
    }
    const definition = this.definitions.get(type);
    if (definition) {
      definition.model = model;
      model = { kind: "ref", definition };
    }
    this.cache.set(type, model);
    return model;
  }

  define(type: ts.Type): void {
    this.definitionFor(type);
  }

  nameOf(type: ts.Type): string | undefined {
    const alias = type.aliasSymbol;
    if (alias && !this.isLibrarySymbol(alias)) return this.typeText(type);
    const symbol = type.getSymbol();
    if (symbol && symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.Class) && !this.isLibrarySymbol(symbol)) {
      return this.typeText(type);
    }
    return undefined;
  }

  describe(symbol: ts.Symbol | undefined): string | undefined {
    if (!symbol) return undefined;
    const text = ts.displayPartsToString(symbol.getDocumentationComment(this.checker)).trim();
    return text || undefined;
  }

  unsupported(type: ts.Type, reason: string): Model {
    return { kind: "unsupported", message: `${this.typeText(type)} ${reason}` };
  }

  typeText(type: ts.Type): string {
    return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  isLibraryDeclaration(declaration: ts.Declaration): boolean {
    return this.program.isSourceFileDefaultLibrary(declaration.getSourceFile());
  }

  private isLibrarySymbol(symbol: ts.Symbol): boolean {
    const declarations = symbol.getDeclarations() ?? [];
    return declarations.length > 0 && declarations.every((d) => this.isLibraryDeclaration(d));
  }

  private parse(type: ts.Type): Model {
    this.converted++;
    for (const parser of parsers) {
      if (parser.supports(type, this)) return parser.parse(type, this);
    }
    return this.unsupported(type, "has no JSON form typemcp knows");
  }

  private definitionFor(type: ts.Type): Definition {
    let definition = this.definitions.get(type);
    if (!definition) {
      const title = this.nameOf(type) ?? this.typeText(type);
      definition = { name: definitionName(title), title, model: { kind: "any" } };
      this.definitions.set(type, definition);
    }
    return definition;
  }
}

/** A readable `$defs` key that needs no URI escaping: `Page<User>` becomes `Page_User`. */
function definitionName(title: string): string {
  const name = title.replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "");
  return name && name.length <= 64 ? name : "Type";
}
