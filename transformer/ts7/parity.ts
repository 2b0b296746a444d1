/**
 * Where TypeScript 7's checker answers otherwise than TypeScript 5's, or has no question for
 * what typemcp asks, the rules that give TypeScript 5's answer, so that the same program gets
 * the same schemas, byte for byte, from either (test/typescript7.test.ts compares them on every
 * fixture). Each rule is one function here; the checker (checker.ts) applies them.
 */
import type { Signature, Type, TypeChecker } from "../checker/checker";
import { TypeFlags } from "../checker/flags";
import { symbolId, type ApiSymbol, type ApiType } from "./api";

/** `typeof x`'s answers, in the order TypeScript 5 creates their literal types. */
const TYPEOF_NAMES = ["string", "number", "bigint", "boolean", "symbol", "undefined", "object", "function"];

/**
 * A union's members in TypeScript 5's order, which is the order the checker created them in
 * (their ids): TypeScript 7 keeps unions sorted its own way, but numbers its types as it
 * creates them, as 5 does.
 */
export function inTs5UnionOrder(members: readonly ApiType[]): readonly ApiType[] {
  return [...members].sort(creationOrder);
}

/**
 * Which of two types TypeScript 5 would have created first: the one with the lower id, but
 * for the literal types of `typeof`'s answers, which both checkers create as they start, in
 * a different order.
 */
function creationOrder(a: ApiType, b: ApiType): number {
  const typeofA = typeof a.value === "string" ? TYPEOF_NAMES.indexOf(a.value) : -1;
  const typeofB = typeof b.value === "string" ? TYPEOF_NAMES.indexOf(b.value) : -1;
  if (typeofA >= 0 && typeofB >= 0 && a.flags === b.flags) return typeofA - typeofB;
  return a.id - b.id;
}

/**
 * A class's or interface's properties in TypeScript 5's order: its own (those whose parent is
 * `own`, the type's symbol), then each base type's in that base's order (`inherited`, one list
 * per base). TypeScript 7 lists the inherited ones in another order.
 */
export function inheritedInTs5Order(
  properties: readonly ApiSymbol[],
  own: number | undefined,
  inherited: readonly (readonly ApiSymbol[])[],
): readonly ApiSymbol[] {
  const names = properties.filter((p) => symbolId(p.parent) === own).map((p) => p.name);
  for (const base of inherited) for (const symbol of base) if (!names.includes(symbol.name)) names.push(symbol.name);
  const rank = new Map(names.map((name, i) => [name, i]));
  return [...properties].sort((a, b) => (rank.get(a.name) ?? names.length) - (rank.get(b.name) ?? names.length));
}

const PRIMITIVE_OR_NEVER =
  TypeFlags.StringLike |
  TypeFlags.NumberLike |
  TypeFlags.BooleanLike |
  TypeFlags.BigIntLike |
  TypeFlags.ESSymbol |
  TypeFlags.UniqueESSymbol |
  TypeFlags.Null |
  TypeFlags.Undefined |
  TypeFlags.Void |
  TypeFlags.Never;

/**
 * The awaited type, as TypeScript 5's getAwaitedType gives it, which the API does not have: the
 * value type is what `then`'s callback receives, as the checker finds it
 * (getPromisedTypeOfPromise), awaited again until it is no thenable. `parameterType`: the
 * API's type of a signature's parameter.
 */
export function awaited(
  checker: TypeChecker,
  parameterType: (signature: Signature, index: number) => Type | undefined,
  type: Type,
): Type | undefined {
  const flags = checker.flags(type);
  if (flags & TypeFlags.Any) return type;
  // A primitive is no promise, even intersected with a thenable (`string & PromiseLike<T>`), as the checker decides.
  if (
    flags & TypeFlags.Intersection &&
    checker.constituents(type).some((member) => checker.flags(member) & PRIMITIVE_OR_NEVER)
  )
    return type;
  if (flags & TypeFlags.Union) {
    const members = checker.constituents(type).map((member) => awaited(checker, parameterType, member));
    // A union's members awaited to one type are that type; to several, their union, for which
    // the API has no handle: undefined (the caller says so, rather than describe the promises).
    if (members.some((member) => member === undefined)) return undefined;
    return members.every((member) => member === members[0])
      ? members[0]
      : members.every((member, i) => member === checker.constituents(type)[i])
        ? type
        : undefined;
  }
  const then = checker.property(type, "then");
  if (!then) return type;
  // An optional `then` (`Partial<Promise<T>>`) has no call signatures, as the checker finds: no promise.
  const thenSignatures = checker.callSignatures(checker.typeOfSymbol(then));
  const fulfilled = thenSignatures.map((signature) => parameterType(signature, 0));
  if (fulfilled.length !== 1 || !fulfilled[0]) return type;
  const callbacks = checker.callSignatures(checker.nonNullable(fulfilled[0]));
  const values = callbacks.map((signature) => parameterType(signature, 0));
  if (values.length !== 1 || !values[0]) return type;
  const value = values[0];
  return value === type ? type : awaited(checker, parameterType, value);
}
