import ts from "typescript";

/**
 * A declaration's documentation read straight from its parsed JSDoc nodes, as the language
 * service's `getDocumentationComment` and `getJsDocTags` give it, byte for byte, where that is
 * plain text: the comments of each declaration (for a parameter, its `@param` text), joined by
 * a line break, duplicates once; each tag's text (`@param`'s is the name, a space, the text).
 *
 * The service builds display parts for each comment and tag, looks for inherited comments,
 * and joins the parts again: at 500 tools, a third of the time typemcp spent reading JSDoc
 * (docs/performance.md#the-jsdoc-typemcp-reads). What it alone can give is left to it
 * (`SERVICE`): a comment with a `{@link}`, `@inheritDoc`, a member with nothing of its own that
 * may inherit from a base type, JSDoc-only declarations (`@typedef`, `@callback`) and the tags
 * whose text is a type or a name it prints (`@throws {T}`, `@template`, `@see`, ...).
 */
export const SERVICE = Symbol("the language service reads it");

/** A symbol's comment and tags, as `displayPartsToString` of the service's parts gives them. */
export interface NodeDocumentation {
  comment: string;
  tags: { name: string; text: string }[];
}

const { SyntaxKind } = ts;

/** Tags whose text the service prints from a type, a class or type parameters. */
const PRINTED = new Set<ts.SyntaxKind>([
  SyntaxKind.JSDocThrowsTag,
  SyntaxKind.JSDocImplementsTag,
  SyntaxKind.JSDocAugmentsTag,
  SyntaxKind.JSDocTemplateTag,
  SyntaxKind.JSDocTypeTag,
  SyntaxKind.JSDocSatisfiesTag,
  SyntaxKind.JSDocTypedefTag,
  SyntaxKind.JSDocCallbackTag,
  SyntaxKind.JSDocSeeTag,
]);

/**
 * The documentation of `declarations` (a symbol's, or a signature's one), `undefined` where no
 * declaration has any JSDoc and none can inherit any, or `SERVICE`. The comments must be parsed
 * (skipped-jsdoc.ts) before.
 */
export function documentationOf(
  declarations: readonly ts.Declaration[],
  withTags: boolean,
): NodeDocumentation | undefined | typeof SERVICE {
  const comments: string[] = [];
  const tags: { name: string; text: string }[] = [];
  let found = false;
  let mayInherit = false;
  for (const [index, declaration] of declarations.entries()) {
    if (declarations.indexOf(declaration) !== index) continue; // the service's forEachUnique
    if (declaration.kind >= SyntaxKind.FirstJSDocNode && declaration.kind <= SyntaxKind.LastJSDocNode) return SERVICE;
    if (baseMayDocument(declaration)) mayInherit = true;
    const commentsAndTags = ts.getJSDocCommentsAndTags(declaration);
    for (const jsDoc of commentsAndTags) {
      found = true;
      if (ts.isJSDoc(jsDoc) && jsDoc.tags?.some(needsService)) return SERVICE;
      const { comment } = jsDoc;
      if (comment === undefined) continue;
      if (typeof comment !== "string") return SERVICE; // a {@link}: the service resolves it
      if (!comments.includes(comment)) comments.push(comment);
    }
    if (!withTags) continue;
    // ts.getJSDocTags(declaration), without the cache it writes on the node: an empty list on a
    // node with none would add a field to every node read, changing their shapes.
    for (const tag of commentsAndTags.flatMap((found) => (ts.isJSDoc(found) ? (found.tags ?? []) : [found]))) {
      const text = tagText(tag);
      if (text === SERVICE) return SERVICE;
      tags.push({ name: tag.tagName.text, text });
    }
  }
  // With nothing of its own, a member of a class or interface shows its base's.
  if (mayInherit && (comments.length === 0 || (withTags && tags.length === 0))) return SERVICE;
  if (!found && !mayInherit) return undefined;
  return { comment: comments.join("\n"), tags };
}

/** The service's findBaseOfDeclaration looks in the types this declaration's owner extends or implements. */
function baseMayDocument(declaration: ts.Declaration): boolean {
  const owner =
    declaration.parent && ts.isConstructorDeclaration(declaration.parent)
      ? declaration.parent.parent
      : declaration.parent;
  return (
    !!owner && (ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner)) && (owner.heritageClauses?.length ?? 0) > 0
  );
}

function needsService(tag: ts.JSDocTag): boolean {
  const name = tag.tagName.text;
  return name === "inheritDoc" || name === "inheritdoc" || PRINTED.has(tag.kind);
}

/** A tag's text as the service's getCommentDisplayParts gives it, joined; SERVICE where it prints a type or a link. */
function tagText(tag: ts.JSDocTag): string | typeof SERVICE {
  if (PRINTED.has(tag.kind)) return SERVICE;
  const { comment } = tag;
  if (comment !== undefined && typeof comment !== "string") return SERVICE;
  if (ts.isJSDocParameterTag(tag) || ts.isJSDocPropertyTag(tag)) {
    // `@param {Object} options` with `@param options.x` nested: the service lists those too.
    if (tag.isNameFirst && tag.typeExpression && ts.isJSDocTypeLiteral(tag.typeExpression.type)) return SERVICE;
    const name = tag.name.getText();
    if (!comment) return name;
    return /^https?$/.test(name) ? name + comment : `${name} ${comment}`;
  }
  return comment ?? "";
}
