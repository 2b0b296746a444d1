import ts from "typescript";
import type { Model } from "./model";
import type { ParseContext } from "./modeler";
import { unionModel } from "./parsers/union";

const UNDEFINED = ts.TypeFlags.Undefined | ts.TypeFlags.Void;

/** Whether a property's or parameter's type admits `undefined` (then it need not be sent): `any` and `unknown` do. */
export function includesUndefined(type: ts.Type): boolean {
  return (type.isUnion() ? type.types : [type]).some((member) => member.flags & (UNDEFINED | ts.TypeFlags.Any | ts.TypeFlags.Unknown));
}

/** The model of a property's or parameter's type with `undefined` left out: JSON drops undefined properties. */
export function modelWithoutUndefined(type: ts.Type, ctx: ParseContext): Model {
  if (!type.isUnion()) return ctx.modelOf(type);
  const defined = type.types.filter((member) => !(member.flags & UNDEFINED));
  // `void | undefined` (a `void` property made optional) is as `undefined` alone: null, where it is sent at all.
  if (defined.length === type.types.length || defined.length === 0) return ctx.modelOf(type);
  return defined.length === 1 ? ctx.modelOf(defined[0]) : unionModel(defined, ctx);
}
