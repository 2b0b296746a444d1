import * as ts from "typescript";
import { TAG_PROPERTY } from "../../../runtime/contract";
import type { Model } from "../model";
import type { ParseContext, TypeParser } from "../modeler";
import { objectModel } from "./object-properties";


function isTag(type: ts.Type): boolean {
  const properties = type.getProperties();
  return (type.flags & ts.TypeFlags.Object) !== 0 && properties.length === 1 && properties[0].name === TAG_PROPERTY;
}

/** `{ "typemcp.tag"?: { type: "integer" } }` → `["type", "integer"]`. */
function tagEntries(tag: ts.Type, ctx: ParseContext): [string, ts.Type][] {
  const holder = ctx.checker.getNonNullableType(ctx.checker.getTypeOfSymbol(tag.getProperties()[0]));
  return holder.getProperties().map((p) => [p.name, ctx.checker.getTypeOfSymbol(p)]);
}

function applyTags(base: Model, tags: ts.Type[], ctx: ParseContext): Model {
  let model = base;
  for (const tag of tags) {
    for (const [kind, value] of tagEntries(tag, ctx)) {
      if (kind === "type" && value.isStringLiteral() && value.value === "integer" && model.kind === "number") {
        model = { kind: "integer" };
      } else {
        return { kind: "unsupported", typeText: ctx.typeText(tag), reason: `is a tag typemcp does not know (${kind})` };
      }
    }
  }
  return model;
}

/**
 * Intersections. `number & Tag<...>` (how `Integer` is written) applies the tag to the
 * primitive; `string & { __brand: "UserId" }` is the primitive (brands have no JSON form);
 * an intersection of object types is one merged object, from the checker's own property list.
 */
export const intersectionParser: TypeParser = {
  construct: "intersections, Integer and other tagged primitives, branded primitives",
  supports: (type) => type.isIntersection(),
  parse: (type, ctx) => {
    const members = (type as ts.IntersectionType).types;
    const tags = members.filter(isTag);
    const rest = members.filter((m) => !isTag(m));
    const primitives = rest.filter((m) => !(m.flags & ts.TypeFlags.Object));
    if (primitives.length === 1) return applyTags(ctx.modelOf(primitives[0]), tags, ctx);
    if (primitives.length === 0 && tags.length === 0) return objectModel(type, ctx);
    if (primitives.length === 0) return { kind: "unsupported", typeText: ctx.typeText(type), reason: "puts a tag on an object type" };
    return { kind: "unsupported", typeText: ctx.typeText(type), reason: "intersects primitives that no value can be" };
  },
};
