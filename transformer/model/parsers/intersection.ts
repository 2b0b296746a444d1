import { TAG_PROPERTY } from "../../../contract/contract";
import type { Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import { isBrand } from "../brand";
import { checkTagKeyword, isKeyword, withKeywords } from "../keywords";
import type { Keywords, Model } from "../model";
import type { ParseContext, TypeParser } from "../parser";
import { elementType, isArrayLike } from "./array-like";
import { emptyObjectModel, isEmptyObjectType } from "./empty-object";
import { objectModel } from "./object-properties";

function isTag(type: Type, { checker }: ParseContext): boolean {
  if (!(checker.flags(type) & TypeFlags.Object)) return false;
  const properties = checker.properties(type);
  return properties.length === 1 && checker.symbolName(properties[0]) === TAG_PROPERTY;
}

/**
 * The tags' keywords applied to the model they constrain. `Integer` (`type: "integer"`)
 * turns a number into an integer; every other tag is a JSON Schema keyword (keywords.ts).
 */
function applyTags(base: Model, tags: Type[], ctx: ParseContext): Model {
  const { checker } = ctx;
  let model = base;
  const keywords: Keywords = {};
  for (const tag of tags) {
    const holder = checker.nonNullable(checker.typeOfSymbol(checker.properties(tag)[0]));
    for (const entry of checker.properties(holder)) {
      const name = checker.symbolName(entry);
      // The JSON value of a literal type in a tag (`Minimum<0>`, `Pattern<"^a">`, `UniqueItems`).
      const value = checker.literalValue(checker.typeOfSymbol(entry));
      if (name === "type" && value === "integer" && (model.kind === "number" || model.kind === "integer")) {
        model = { ...model, kind: "integer" } as Model;
        continue;
      }
      if (!isKeyword(name) || value === undefined) return ctx.unsupported(tag, "is a tag typemcp does not know");
      const problem = checkTagKeyword(name, value, model);
      if (problem) return { kind: "unsupported", message: `${ctx.typeText(tag)}: ${problem}` };
      keywords[name] = value;
    }
  }
  return withKeywords(model, keywords);
}

/** What a primitive's or an array's intersection with an object type that is no tag says. */
function objectMemberProblem(member: Type, base: string, ctx: ParseContext): string | undefined {
  // A brand (`{ readonly __brand: "UserId" }`) or an empty object type (`{}`): the base's values are it.
  if (isBrand(member, ctx) || ctx.checker.properties(member).length === 0) return undefined;
  const names = ctx.checker.properties(member).map((p) => JSON.stringify(ctx.checker.symbolName(p)));
  return `has no JSON value: no ${base} has the properties of ${ctx.typeText(member)} (${names.join(", ")}). A brand, which typemcp leaves out, has properties named with a leading underscore or keyed by a symbol only ({ readonly __brand: "Name" })`;
}

/** The element type of an array, or of a class or interface extending one. */
function arrayElement(type: Type, ctx: ParseContext): Type | undefined {
  return ctx.checker.isArrayType(type) ? ctx.checker.typeArguments(type)[0] : elementType(type, ctx);
}

/**
 * The intersection of arrays and at most one tuple. `[number, ...number[]] & number[]` (a
 * non-empty array) is the tuple: every element of it is of the arrays' element type. Arrays
 * alone: an array of the intersection's element type (TypeScript intersects them).
 */
function arrayIntersection(type: Type, arrays: Type[], ctx: ParseContext): Model {
  const { checker } = ctx;
  if (arrays.length === 1) return ctx.modelOf(arrays[0]);
  const tuples = arrays.filter((t) => checker.isTupleType(t));
  if (tuples.length === 0) {
    const element = elementType(type, ctx);
    return element
      ? { kind: "array", items: ctx.modelOf(element) }
      : ctx.unsupported(type, "is an array whose element type typemcp cannot read");
  }
  const tuple = tuples[0];
  const elements = new Set([
    ...checker.typeArguments(tuple),
    ...arrays.filter((t) => t !== tuple).map((t) => arrayElement(t, ctx)),
  ]);
  if (tuples.length > 1 || elements.size !== 1) {
    return ctx.unsupported(
      type,
      "intersects a tuple with arrays or tuples of other element types, which typemcp cannot describe exactly",
    );
  }
  return ctx.modelOf(tuple);
}

/**
 * Intersections. `number & Minimum<0>` (and `Integer`, which is `number` with a tag)
 * applies the tags to what they constrain; `string & { __brand: "UserId" }` is the
 * primitive and `string[] & { __brand: "Ids" }` the array (brands have no JSON form; any
 * other object type makes the intersection one no JSON value is); arrays and a tuple
 * intersect element by element; an intersection of object types is one merged object, from
 * the checker's own property list.
 */
export const intersectionParser: TypeParser = {
  construct: "intersections, Integer and tag types (Minimum<0>, ...), brands",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.Intersection) !== 0,
  parse: (type, ctx) => {
    const members = ctx.checker.constituents(type);
    const tags = members.filter((m) => isTag(m, ctx));
    const rest = members.filter((m) => !isTag(m, ctx));
    const primitives = rest.filter((m) => !(ctx.checker.flags(m) & TypeFlags.Object));
    const arrays = rest.filter((m) => ctx.checker.flags(m) & TypeFlags.Object && isArrayLike(m, ctx));
    const objects = rest.filter((m) => ctx.checker.flags(m) & TypeFlags.Object && !isArrayLike(m, ctx));
    // These have no JSON value: as a union's member they add none (`X | (number & X)` is X), alone they are reported.
    if (primitives.length > 1)
      return ctx.unsupported(type, "intersects primitives that no value can be", "uninhabited");
    if (primitives.length === 1 && arrays.length)
      return ctx.unsupported(type, "intersects a primitive and an array, which no value can be", "uninhabited");
    if (primitives.length === 1 || arrays.length) {
      const base = primitives.length ? ctx.typeText(primitives[0]) : "array";
      for (const member of objects) {
        const problem = objectMemberProblem(member, base, ctx);
        if (problem) return ctx.unsupported(type, problem, "uninhabited");
      }
      return applyTags(
        primitives.length ? ctx.modelOf(primitives[0]) : arrayIntersection(type, arrays, ctx),
        tags,
        ctx,
      );
    }
    if (tags.length === 0) return isEmptyObjectType(type, ctx) ? emptyObjectModel(type, ctx) : objectModel(type, ctx);
    // Tags on an object type (`{ a: number } & MinProperties<1>`): the intersection of the other members, constrained.
    const constrained = rest.length === 1 ? ctx.modelOf(rest[0]) : objectModel(type, ctx);
    return applyTags(constrained, tags, ctx);
  },
};
