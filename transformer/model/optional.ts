import type { Type, TypeChecker } from "../checker/checker";
import { TypeFlags } from "../checker/flags";
import type { Model } from "./model";
import type { ParseContext } from "./parser";
import { isFunction } from "./parsers/not-serializable";
import { unionModel } from "./parsers/union";

const UNDEFINED = TypeFlags.Undefined | TypeFlags.Void;

function membersOf(type: Type, checker: TypeChecker): readonly Type[] | undefined {
  return checker.flags(type) & TypeFlags.Union ? checker.constituents(type) : undefined;
}

/** Whether a property's or parameter's type admits `undefined` (then it need not be sent): `any` and `unknown` do. */
export function includesUndefined(type: Type, checker: TypeChecker): boolean {
  return (membersOf(type, checker) ?? [type]).some(
    (member) => checker.flags(member) & (UNDEFINED | TypeFlags.Any | TypeFlags.Unknown),
  );
}

/**
 * Whether every value of the type is `undefined` (`undefined`, `void`; and `never`, where the
 * key may be left out): JSON has no value for it, so its key must be absent, `null` included.
 */
export function hasNoJsonValue(type: Type, checker: TypeChecker, optional: boolean): boolean {
  const noValue = optional ? UNDEFINED | TypeFlags.Never : UNDEFINED;
  return (membersOf(type, checker) ?? [type]).every((member) => checker.flags(member) & noValue);
}

/** The model of a property's or parameter's type with `undefined` left out: JSON drops undefined properties. */
export function modelWithoutUndefined(type: Type, ctx: ParseContext): Model {
  const members = membersOf(type, ctx.checker);
  if (!members) return ctx.modelOf(type);
  const defined = members.filter((member) => !(ctx.checker.flags(member) & UNDEFINED));
  // `void | undefined` (a `void` property made optional) is as `undefined` alone: null, where it is sent at all.
  if (defined.length === members.length || defined.length === 0) return ctx.modelOf(type);
  if (defined.length === 1) return ctx.modelOf(defined[0]);
  // `Color | undefined` (`color?: Color`): the union as declared, `Color`, whose model carries the
  // enum's or alias's JSDoc. The checker's non-nullable type is it where only undefined goes (it
  // takes null out too, and void it may keep).
  const { checker } = ctx;
  if (members.every((member) => !(checker.flags(member) & (TypeFlags.Null | TypeFlags.Void)))) {
    const declared = checker.nonNullable(type);
    const count = checker.flags(declared) & TypeFlags.Union ? checker.constituents(declared).length : 1;
    if (count === defined.length) return ctx.modelOf(declared);
  }
  return unionModel(defined, ctx);
}

/**
 * Whether every value of a property's or parameter's type, `undefined` aside, is a function
 * (`onChange?: () => void`, `format: () => string`). JSON.stringify drops a function, so in
 * JSON such a key is always absent: where the type lets it be absent (the property is optional,
 * or its type admits undefined), it is left out of the schema, as a method is; where the type
 * requires it, no JSON value is of the type, and it is reported (requiredFunctionModel).
 */
export function holdsOnlyFunctions(type: Type, ctx: ParseContext): boolean {
  const defined = (membersOf(type, ctx.checker) ?? [type]).filter((member) => !(ctx.checker.flags(member) & UNDEFINED));
  return defined.length > 0 && defined.every((member) => isFunction(member, ctx));
}

/** The model of a required property or parameter whose type holds only functions: reported, with the two fixes. */
export function requiredFunctionModel(type: Type, ctx: ParseContext): Model {
  return ctx.unsupported(
    type,
    "is a function, which JSON drops: declare data instead, or make it optional (an optional function is left out of the schema, as a method is)",
    "lost",
  );
}
