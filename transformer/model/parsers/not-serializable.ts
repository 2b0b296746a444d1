import type { Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import type { ParseContext, TypeParser } from "../parser";

/** Library types whose values JSON.stringify turns into `{}`: they carry no data over the wire. */
const LIBRARY_TYPES = new Set([
  "Map",
  "ReadonlyMap",
  "Set",
  "ReadonlySet",
  "WeakMap",
  "WeakSet",
  "WeakRef",
  "Promise",
  "RegExp",
  "Symbol",
]);

function libraryTypeName(type: Type, { checker }: ParseContext): string | undefined {
  const symbol = checker.symbolOf(type);
  if (!symbol) return undefined;
  const name = checker.symbolName(symbol);
  return LIBRARY_TYPES.has(name) && checker.hasLibraryDeclaration(symbol) ? name : undefined;
}

/** The library's interfaces that only functions are values of: `Function`, and its two halves TypeScript checks `bind`, `call` and `apply` with. */
const FUNCTION_INTERFACES = new Set(["Function", "CallableFunction", "NewableFunction"]);

/** Whether the values of an object type are functions (or classes): JSON.stringify drops them. */
export function isFunction(type: Type, { checker }: ParseContext): boolean {
  if (!(checker.flags(type) & TypeFlags.Object)) return false;
  if (checker.callSignatures(type).length > 0 || checker.hasConstructSignatures(type)) return true;
  const symbol = checker.symbolOf(type);
  return (
    symbol !== undefined && FUNCTION_INTERFACES.has(checker.symbolName(symbol)) && checker.hasLibraryDeclaration(symbol)
  );
}

/** Why a library type's values arrive as `{}`, and what to declare and send instead. */
function libraryReason(name: string, type: Type, ctx: ParseContext): string {
  const args = ctx.checker.isReference(type) ? ctx.checker.typeArguments(type).map((t) => ctx.typeText(t)) : [];
  const empty = "is sent as {} (JSON.stringify";
  switch (name) {
    case "Map":
    case "ReadonlyMap": {
      const record =
        args.length === 2 ? `Record<${args[0] === "number" ? "number" : "string"}, ${args[1]}>` : "a Record";
      return `${empty} keeps none of a Map's entries): declare ${record} (Object.fromEntries(map) makes one of a Map)`;
    }
    case "Set":
    case "ReadonlySet":
      return `${empty} keeps none of a Set's values): declare ${args.length === 1 ? `${args[0]}[]` : "an array"} ([...set] makes one of a Set)`;
    case "Promise":
      return `${empty} does not wait for a promise): await it, and declare what it resolves to`;
    case "RegExp":
      return `${empty} keeps none of a RegExp): declare string (regex.source is one)`;
    default:
      return `${empty} keeps none of its contents): declare the data it holds instead`;
  }
}

/**
 * `Map`, `Set`, `Promise` inside a value, functions as values: reported with where they are.
 * No value of these survives JSON.stringify (`{}`, dropped), so the report says what to
 * declare instead.
 */
export const notSerializableParser: TypeParser = {
  construct: "Map / Set / Promise / functions",
  supports: (type, ctx) =>
    (ctx.checker.flags(type) & TypeFlags.Object) !== 0 &&
    (libraryTypeName(type, ctx) !== undefined || isFunction(type, ctx)),
  parse: (type, ctx) => {
    const name = libraryTypeName(type, ctx);
    if (name) return ctx.unsupported(type, libraryReason(name, type, ctx), "lost");
    return ctx.unsupported(
      type,
      "is a function, which JSON drops (undefined, or null in an array): declare data, not a function",
      "lost",
    );
  },
};
