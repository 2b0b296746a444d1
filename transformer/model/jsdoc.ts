import type { Symbol, Type, TypeChecker, WrittenTag } from "../checker/checker";
import { isKeyword, keywordFromTag } from "./keywords";
import type { Annotations, Keywords, Model } from "./model";
import type { ParseContext } from "./parser";

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

/** Keywords JSDoc gives a function itself where they stand in its comment (unless they name a parameter). */
const FUNCTION_TAGS = new Set(["deprecated", "title"]);
/** Keywords that take no value: one that names a parameter is the name alone (`@uniqueItems tags`). */
const NO_VALUE = new Set(["deprecated", "uniqueItems"]);

/** What the keyword tags of a function's comment say of its parameters. */
export interface ParameterTags {
  /** The tags of each parameter, by its name, in the order written, each as the tag on the parameter itself would be. */
  byParameter: Map<string, { name: string; text: string | undefined }[]>;
  /** Tags that follow no `@param` and name no parameter. */
  stray: { name: string; text: string | undefined }[];
}

/**
 * The keyword tags a function's comment gives its parameters, in the ways they are written:
 * after the parameter's `@param`, on its line or the lines below, until the next tag that is
 * no keyword (`@param days Number of days. @minimum 1`; TypeScript reads the `@minimum` as a
 * tag of its own); or naming the parameter first, anywhere (`@minimum days 1`, as tsoa writes
 * them). `@deprecated` and `@title` there are the function's, as JSDoc means them, unless they
 * name a parameter.
 */
export function parameterTags(tags: readonly WrittenTag[], parameters: readonly string[]): ParameterTags {
  const byParameter = new Map<string, { name: string; text: string | undefined }[]>();
  const stray: { name: string; text: string | undefined }[] = [];
  const add = (parameter: string, tag: { name: string; text: string | undefined }) =>
    byParameter.set(parameter, [...(byParameter.get(parameter) ?? []), tag]);
  /** The parameter whose `@param` the tags now follow. */
  let current: string | undefined;
  for (const tag of tags) {
    if (tag.parameter !== undefined || tag.name === "param" || tag.name === "arg" || tag.name === "argument") {
      current = tag.parameter;
      continue;
    }
    if (!isKeyword(tag.name)) {
      current = undefined;
      continue;
    }
    const [first, ...rest] = (tag.text ?? "").trim().split(/\s+/);
    const value = rest.join(" ");
    if (parameters.includes(first) && (value !== "" || NO_VALUE.has(tag.name))) {
      add(first, { name: tag.name, text: value });
    } else if (FUNCTION_TAGS.has(tag.name)) {
      current = undefined;
    } else if (current !== undefined) {
      add(current, tag);
    } else {
      stray.push(tag);
    }
  }
  return { byParameter, stray };
}
