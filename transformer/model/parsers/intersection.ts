import ts from "typescript";
import { TAG_PROPERTY } from "../../../runtime/contract";
import { checkTagKeyword, isKeyword, withKeywords } from "../keywords";
import type { JsonValue, Keywords, Model } from "../model";
import type { ParseContext, TypeParser } from "../modeler";
import { objectModel } from "./object-properties";

function isTag(type: ts.Type): boolean {
  const properties = type.getProperties();
  return (type.flags & ts.TypeFlags.Object) !== 0 && properties.length === 1 && properties[0].name === TAG_PROPERTY;
}

/** The JSON value of a literal type in a tag (`Minimum<0>`, `Pattern<"^a">`, `UniqueItems`). */
function literalValue(type: ts.Type, ctx: ParseContext): JsonValue | undefined {
  if (type.isStringLiteral() || type.isNumberLiteral()) return type.value;
  if (type.flags & ts.TypeFlags.BooleanLiteral) return ctx.typeText(type) === "true";
  return undefined;
}

/**
 * The tags' keywords applied to the model they constrain. `Integer` (`type: "integer"`)
 * turns a number into an integer; every other tag is a JSON Schema keyword (keywords.ts).
 */
function applyTags(base: Model, tags: ts.Type[], ctx: ParseContext): Model {
  let model = base;
  const keywords: Keywords = {};
  for (const tag of tags) {
    const holder = ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(tag.getProperties()[0]));
    for (const entry of holder.getProperties()) {
      const value = literalValue(ctx.checker.getTypeOfSymbol(entry), ctx);
      if (entry.name === "type" && value === "integer" && (model.kind === "number" || model.kind === "integer")) {
        model = { ...model, kind: "integer" } as Model;
        continue;
      }
      if (!isKeyword(entry.name) || value === undefined) return ctx.unsupported(tag, "is a tag typemcp does not know");
      const problem = checkTagKeyword(entry.name, value, model);
      if (problem) return { kind: "unsupported", message: `${ctx.typeText(tag)}: ${problem}` };
      keywords[entry.name] = value;
    }
  }
  return withKeywords(model, keywords);
}

/**
 * Intersections. `number & Minimum<0>` (and `Integer`, which is `number` with a tag)
 * applies the tags to what they constrain; `string & { __brand: "UserId" }` is the
 * primitive (brands have no JSON form); an intersection of object types is one merged
 * object, from the checker's own property list.
 */
export const intersectionParser: TypeParser = {
  construct: "intersections, Integer and tag types (Minimum<0>, ...), branded primitives",
  supports: (type) => type.isIntersection(),
  parse: (type, ctx) => {
    const members = (type as ts.IntersectionType).types;
    const tags = members.filter(isTag);
    const rest = members.filter((m) => !isTag(m));
    const primitives = rest.filter((m) => !(m.flags & ts.TypeFlags.Object));
    if (primitives.length === 1) return applyTags(ctx.modelOf(primitives[0]), tags, ctx);
    if (primitives.length > 1) return ctx.unsupported(type, "intersects primitives that no value can be");
    if (tags.length === 0) return objectModel(type, ctx);
    // Tags on an object type (`string[] & MinItems<1>`): the intersection of the other members, constrained.
    const constrained = rest.length === 1 ? ctx.modelOf(rest[0]) : objectModel(type, ctx);
    return applyTags(constrained, tags, ctx);
  },
};
