import type * as ts from "typescript";
import type { TypeChecker } from "./checker/checker";
import { keywordsFromTags, parameterTags, type ParameterTags } from "./model/jsdoc";
import { isKeyword } from "./model/keywords";
import type { JsonValue, Keywords, Model } from "./model/model";

type Tag = { name: string; text: string | undefined };

/** A tag as written, for a message: `@minimum 1`. */
const written = (tag: Tag) => `@${tag.name}${tag.text?.trim() ? ` ${tag.text.trim()}` : ""}`;

/**
 * The JSDoc keyword tags of a tool function's parameters (docs/rules.md, "Constraints on
 * parameters"): those on each parameter itself, and those its function's comment gives it
 * (model/jsdoc.ts, parameterTags). A tag that can go to no argument is kept as a problem:
 * never ignored.
 */
export class ParameterTagReader {
  private readonly commented: ParameterTags;
  private readonly problems: string[];

  constructor(
    private readonly checker: TypeChecker,
    fn: ts.SignatureDeclaration | undefined,
    private readonly parameters: readonly string[],
  ) {
    this.commented = parameterTags(fn ? checker.writtenTags(fn) : [], parameters);
    this.problems = this.commented.stray.map(
      (tag) =>
        `${written(tag)} in its JSDoc is for no parameter: write it after the parameter's @param, on the parameter itself, or name the parameter first (${written({ name: tag.name, text: `<parameter> ${tag.text?.trim() ?? ""}` })})`,
    );
  }

  /** The keyword tags of a parameter: those on it, then those its function's comment gives it. */
  of(name: string, declaration: ts.Node | undefined): Tag[] {
    const own = declaration ? this.checker.writtenTags(declaration).filter((tag) => isKeyword(tag.name)) : [];
    return [...own, ...(this.commented.byParameter.get(name) ?? [])];
  }

  /** A parameter that is no argument (the context, one the schema leaves out): its tags are reported. */
  notAnArgument(name: string, declaration: ts.Node | undefined): void {
    for (const tag of this.of(name, declaration))
      this.problems.push(`${written(tag)} is for ${name}, which is not one of the tool's arguments`);
  }

  /** One destructured parameter: its arguments are its type's properties, whose JSDoc is theirs, so every tag here is reported. */
  destructured(declaration: ts.Node): void {
    const own = this.checker.writtenTags(declaration).filter((tag) => isKeyword(tag.name));
    for (const tag of [...own, ...[...this.commented.byParameter.values()].flat()])
      this.problems.push(
        `${written(tag)}: the arguments of a destructured parameter are its type's properties: put the tag on the property`,
      );
    this.commented.byParameter.clear();
  }

  /** What is wrong with the tags that go to no argument (`@param dayz ... @minimum 1` included), or undefined. */
  problem(): string | undefined {
    for (const [name, tags] of this.commented.byParameter) {
      if (this.parameters.includes(name)) continue;
      for (const tag of tags)
        this.problems.push(`${written(tag)} is for ${name}, which is not one of the tool's arguments`);
    }
    return this.problems.length ? this.problems.join("; ") : undefined;
  }
}

/**
 * An argument's keywords from its tags, as a property's are from its JSDoc, and the tags it
 * cannot use: a malformed one, one holding a link, a `@default` other than the parameter's own
 * (the tool gets the initializer's value, so another would publish a default it never gets).
 */
export function argumentTags(
  tags: readonly Tag[],
  model: Model,
  parameterDefault: JsonValue | undefined,
): { keywords?: Keywords; tagProblems?: string[] } {
  const problems: string[] = [];
  const readable: { name: string; text: string }[] = [];
  for (const tag of tags) {
    if (tag.text !== undefined) readable.push({ name: tag.name, text: tag.text });
    else problems.push(`@${tag.name} holds more than text (a {@link ...}): write its value as text`);
  }
  const { keywords, tagProblems } = keywordsFromTags(readable, model);
  problems.push(...(tagProblems ?? []));
  if (
    keywords?.default !== undefined &&
    parameterDefault !== undefined &&
    JSON.stringify(keywords.default) !== JSON.stringify(parameterDefault)
  ) {
    problems.push(
      `@default ${JSON.stringify(keywords.default)} is not the parameter's default, ${JSON.stringify(parameterDefault)}`,
    );
    delete keywords.default;
  }
  return {
    ...(keywords && Object.keys(keywords).length && { keywords }),
    ...(problems.length && { tagProblems: problems }),
  };
}
