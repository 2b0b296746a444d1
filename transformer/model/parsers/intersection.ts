import { TAG_PROPERTY } from "../../../runtime/contract";
import type { Type } from "../../checker/checker";
import { TypeFlags } from "../../checker/flags";
import { checkTagKeyword, isKeyword, withKeywords } from "../keywords";
import type { Keywords, Model } from "../model";
import type { ParseContext, TypeParser } from "../modeler";
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

/**
 * Intersections. `number & Minimum<0>` (and `Integer`, which is `number` with a tag)
 * applies the tags to what they constrain; `string & { __brand: "UserId" }` is the
 * primitive (brands have no JSON form); an intersection of object types is one merged
 * object, from the checker's own property list.
 */
export const intersectionParser: TypeParser = {
  construct: "intersections, Integer and tag types (Minimum<0>, ...), branded primitives",
  supports: (type, ctx) => (ctx.checker.flags(type) & TypeFlags.Intersection) !== 0,
  parse: (type, ctx) => {
    const members = ctx.checker.constituents(type);
    const tags = members.filter((m) => isTag(m, ctx));
    const rest = members.filter((m) => !isTag(m, ctx));
    const primitives = rest.filter((m) => !(ctx.checker.flags(m) & TypeFlags.Object));
    if (primitives.length === 1) return applyTags(ctx.modelOf(primitives[0]), tags, ctx);
    if (primitives.length > 1) return ctx.unsupported(type, "intersects primitives that no value can be");
    if (tags.length === 0) return objectModel(type, ctx);
    // Tags on an object type (`string[] & MinItems<1>`): the intersection of the other members, constrained.
    const constrained = rest.length === 1 ? ctx.modelOf(rest[0]) : objectModel(type, ctx);
    return applyTags(constrained, tags, ctx);
  },
};
