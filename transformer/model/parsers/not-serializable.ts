import type { Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import type { ParseContext, TypeParser } from "../modeler";

/** Library types whose values JSON.stringify turns into `{}` or drops: they carry no data over the wire. */
const LIBRARY_TYPES = new Set(["Map", "ReadonlyMap", "Set", "ReadonlySet", "WeakMap", "WeakSet", "WeakRef", "Promise", "RegExp", "Symbol"]);

function isLibraryType(type: Type, { checker }: ParseContext): boolean {
  const symbol = checker.symbolOf(type);
  return !!symbol && LIBRARY_TYPES.has(checker.symbolName(symbol)) && checker.hasLibraryDeclaration(symbol);
}

function isFunction(type: Type, { checker }: ParseContext): boolean {
  return checker.callSignatures(type).length > 0 || checker.hasConstructSignatures(type);
}

/** `Map`, `Set`, `Promise` inside a value, functions as values: reported with where they are. */
export const notSerializableParser: TypeParser = {
  construct: "Map / Set / Promise / functions",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.Object) !== 0 && (isLibraryType(type, ctx) || isFunction(type, ctx)),
  parse: (type, ctx) => ctx.unsupported(type, isFunction(type, ctx) && !isLibraryType(type, ctx) ? "is a function, which JSON drops" : "is not JSON-serializable"),
};
