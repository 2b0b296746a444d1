import type { Symbol, Type, TypeChecker } from "../checker/checker";
import { isKeyword, keywordFromTag } from "./keywords";
import type { Annotations, Keywords, Model } from "./model";
import type { ParseContext } from "./modeler";

/**
 * What a declaration's JSDoc adds to its schema: the comment as `description`, and the
 * tags typemcp knows (`@minimum 0`, `@format email`, `@deprecated`, ...) as keywords.
 * `error` says what is wrong with a malformed tag; the caller reports it where it is.
 */
export function documentation(
  symbol: Symbol | undefined,
  model: Model,
  checker: TypeChecker,
): Annotations & { error?: string } {
  const docs = symbol && checker.documentation(symbol);
  if (!docs) return {};
  const result: Annotations & { error?: string } = {};
  const description = docs.comment.trim();
  if (description) result.description = description;
  const keywords: Keywords = {};
  for (const tag of docs.tags) {
    if (!isKeyword(tag.name)) continue;
    const found = keywordFromTag(tag.name, tag.text, model);
    if ("error" in found) return { ...result, error: found.error };
    keywords[tag.name] = found.value;
  }
  if (Object.keys(keywords).length) result.keywords = keywords;
  return result;
}

/**
 * A named type's model with the type's own JSDoc (an interface's, an alias's, an enum's) as its
 * description and keywords: the definition's, or the schema's wherever the type is used. A
 * property's or parameter's own JSDoc, written over it, wins. Models are shared: a new node.
 */
export function withTypeDocumentation(type: Type, model: Model, ctx: ParseContext): Model {
  const { checker } = ctx;
  const { description, keywords, error } = documentation(
    checker.aliasSymbolOf(type) ?? checker.symbolOf(type),
    model,
    checker,
  );
  if (error) return { kind: "unsupported", message: `${ctx.typeText(type)}: ${error}` };
  if (!description && !keywords) return model;
  const documented = { ...model } as Model;
  if (description) documented.description = description;
  if (keywords) documented.keywords = { ...model.keywords, ...keywords };
  return documented;
}
