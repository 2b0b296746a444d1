import type { Symbol, TypeChecker } from "../checker/checker";
import { isKeyword, keywordFromTag } from "./keywords";
import type { Annotations, Keywords, Model } from "./model";

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
