import ts from "typescript";
import { isKeyword, keywordFromTag } from "./keywords";
import type { Annotations, Keywords, Model } from "./model";
import { parseSkippedJSDoc } from "./skipped-jsdoc";

/**
 * What a declaration's JSDoc adds to its schema: the comment as `description`, and the
 * tags typemcp knows (`@minimum 0`, `@format email`, `@deprecated`, ...) as keywords.
 * `error` says what is wrong with a malformed tag; the caller reports it where it is.
 */
export function documentation(symbol: ts.Symbol | undefined, model: Model, checker: ts.TypeChecker): Annotations & { error?: string } {
  if (!symbol) return {};
  parseSkippedJSDoc(symbol, checker);
  if (!mayBeDocumented(symbol)) return {};
  const result: Annotations & { error?: string } = {};
  const description = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  if (description) result.description = description;
  const keywords: Keywords = {};
  for (const tag of symbol.getJsDocTags(checker)) {
    if (!isKeyword(tag.name)) continue;
    const found = keywordFromTag(tag.name, ts.displayPartsToString(tag.text), model);
    if ("error" in found) return { ...result, error: found.error };
    keywords[tag.name] = found.value;
  }
  if (Object.keys(keywords).length) result.keywords = keywords;
  return result;
}

/**
 * False when the symbol can have no documentation, which most properties have not: spares
 * the language service's search for it (it builds display parts, and looks for inherited
 * comments). A comment may be on a declaration (for a parameter, its function's `@param`,
 * which getJSDocCommentsAndTags includes) or inherited by a member of a class or interface
 * that extends or implements another; a symbol without declarations (a tuple label) is
 * left to the full search.
 */
function mayBeDocumented(symbol: ts.Symbol): boolean {
  const declarations = symbol.getDeclarations();
  if (!declarations?.length) return true;
  return declarations.some((declaration) => {
    if (ts.getJSDocCommentsAndTags(declaration).length > 0) return true;
    const owner = declaration.parent;
    return (ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner)) && (owner.heritageClauses?.length ?? 0) > 0;
  });
}
