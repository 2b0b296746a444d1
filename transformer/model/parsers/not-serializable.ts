import ts from "typescript";
import type { TypeParser } from "../modeler";

/** Library types whose values JSON.stringify turns into `{}` or drops: they carry no data over the wire. */
const LIBRARY_TYPES = new Set(["Map", "ReadonlyMap", "Set", "ReadonlySet", "WeakMap", "WeakSet", "WeakRef", "Promise", "RegExp", "Symbol"]);

function isLibraryType(type: ts.Type, ctx: Parameters<TypeParser["parse"]>[1]): boolean {
  const symbol = type.getSymbol();
  return !!symbol && LIBRARY_TYPES.has(symbol.name) && (symbol.getDeclarations() ?? []).some((d) => ctx.isLibraryDeclaration(d));
}

function isFunction(type: ts.Type): boolean {
  return type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0;
}

/** `Map`, `Set`, `Promise` inside a value, functions as values: reported with where they are. */
export const notSerializableParser: TypeParser = {
  construct: "Map / Set / Promise / functions",
  supports: (type, ctx) => (type.flags & ts.TypeFlags.Object) !== 0 && (isLibraryType(type, ctx) || isFunction(type)),
  parse: (type, ctx) => ctx.unsupported(type, isFunction(type) && !isLibraryType(type, ctx) ? "is a function, which JSON drops" : "is not JSON-serializable"),
};
