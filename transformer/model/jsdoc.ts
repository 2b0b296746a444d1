import type { Symbol, Type, TypeChecker } from "../checker/checker";
import { isKeyword, keywordFromTag } from "./keywords";
import type { Annotations, Keywords, Model } from "./model";
import type { ParseContext } from "./modeler";

/**
 * The keywords JSDoc tags give a model (`@minimum 0`, `@format email`, `@deprecated`, ...):
 * those typemcp knows, in the order written. A tag it cannot use (a malformed or misapplied
 * one) is left out, and `tagProblems` says why: the caller reports it where it is, and the
 * other tags still apply.
 */
export function keywordsFromTags(
  tags: readonly { name: string; text: string }[],
  model: Model,
): Pick<Annotations, "keywords" | "tagProblems"> {
  const keywords: Keywords = {};
  const tagProblems: string[] = [];
  for (const tag of tags) {
    if (!isKeyword(tag.name)) continue;
    const found = keywordFromTag(tag.name, tag.text, model);
    if ("error" in found) tagProblems.push(found.error);
    else keywords[tag.name] = found.value;
  }
  return {
    ...(Object.keys(keywords).length && { keywords }),
    ...(tagProblems.length && { tagProblems }),
  };
}

/**
 * What a declaration's JSDoc adds to its schema: the comment as `description`, and its tags'
 * keywords (keywordsFromTags).
 */
export function documentation(symbol: Symbol | undefined, model: Model, checker: TypeChecker): Annotations {
  const docs = symbol && checker.documentation(symbol);
  if (!docs) return {};
  const description = docs.comment.trim();
  return { ...(description && { description }), ...keywordsFromTags(docs.tags, model) };
}

/**
 * A named type's model with the type's own JSDoc (an interface's, an alias's, an enum's) as its
 * description and keywords: the definition's, or the schema's wherever the type is used. A
 * property's or parameter's own JSDoc, written over it, wins. Models are shared: a new node.
 */
export function withTypeDocumentation(type: Type, model: Model, ctx: ParseContext): Model {
  const { checker } = ctx;
  const { description, keywords, tagProblems } = documentation(
    checker.aliasSymbolOf(type) ?? checker.symbolOf(type),
    model,
    checker,
  );
  if (!description && !keywords && !tagProblems) return model;
  const documented = { ...model } as Model;
  if (description) documented.description = description;
  if (keywords) documented.keywords = { ...model.keywords, ...keywords };
  // The type's own tags: where it is used, the problem names it.
  if (tagProblems) documented.tagProblems = tagProblems.map((problem) => `${ctx.typeText(type)}: ${problem}`);
  return documented;
}
