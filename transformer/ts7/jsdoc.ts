/**
 * JSDoc read off TypeScript 7's syntax trees, where what they hold is for certain what the
 * checker would answer: no round trip to the compiler process (docs/typescript-7.md#speed).
 * Each reader answers undefined where only the checker can tell (a comment with links, which
 * the API renders; a comment inherited from a base type), and the checker (checker.ts) asks
 * the API then.
 */
import type * as ts from "typescript";
import type { Documentation, WrittenTag } from "../checker/checker";
import type { Ts7Modules } from "./modules";

type Kind = Ts7Modules["SyntaxKind"];
type Documented = ts.Node & { jsDoc?: readonly unknown[] };

/** A JSDoc comment or tag, as TypeScript 7's syntax tree holds it. */
interface JsDocNode {
  readonly kind: number;
  readonly comment?: readonly { kind: number; text: string }[];
  readonly tags?: readonly (JsDocNode & { tagName: ts.Identifier; name?: ts.Identifier })[];
}

function hasJsDoc(node: ts.Node | undefined): boolean {
  return ((node as Documented | undefined)?.jsDoc?.length ?? 0) > 0;
}

function jsDocsOf(node: ts.Node | undefined): readonly JsDocNode[] {
  return ((node as Documented | undefined)?.jsDoc ?? []) as readonly JsDocNode[];
}

/** A comment's text when it is text only; undefined when it holds links or other nodes. */
function plainText(comment: JsDocNode["comment"], kind: Kind): string | undefined {
  let text = "";
  for (const part of comment ?? []) {
    if (part.kind !== kind.JSDocText) return undefined;
    text += part.text;
  }
  return text;
}

/** Whether a declaration is a member of a class or interface with base types (whose comments it may inherit). */
function inherits(declaration: ts.Node, kind: Kind): boolean {
  const owner = declaration.parent;
  return (
    !!owner &&
    [kind.ClassDeclaration, kind.ClassExpression, kind.InterfaceDeclaration].includes(owner.kind) &&
    ((owner as ts.ClassLikeDeclaration).heritageClauses?.length ?? 0) > 0
  );
}

/**
 * False when a symbol of these declarations can have no documentation (most properties): no
 * round trips for it. A comment is on a declaration, on the statement of a variable, on the
 * function whose `@param` a parameter's is, or inherited by a member of a class or interface
 * that extends or implements another. A symbol without declarations is asked.
 */
export function mayBeDocumented(declarations: readonly ts.Node[], kind: Kind): boolean {
  if (!declarations.length) return true;
  return declarations.some((declaration) => {
    if (hasJsDoc(declaration)) return true;
    const owner = declaration.parent;
    if (!owner) return false;
    if (declaration.kind === kind.Parameter) return functionComments(owner, kind).length > 0;
    if (declaration.kind === kind.VariableDeclaration) return hasJsDoc(owner.parent);
    if (
      owner.kind === kind.ClassDeclaration ||
      owner.kind === kind.ClassExpression ||
      owner.kind === kind.InterfaceDeclaration
    ) {
      return ((owner as ts.ClassLikeDeclaration).heritageClauses?.length ?? 0) > 0;
    }
    return false;
  });
}

/** The declarations whose own JSDoc is their documentation (a parameter's is its function's `@param`). */
function ownsComment(declaration: ts.Node, kind: Kind): boolean {
  return [
    kind.PropertySignature,
    kind.PropertyDeclaration,
    kind.FunctionDeclaration,
    kind.MethodDeclaration,
    kind.MethodSignature,
    kind.InterfaceDeclaration,
    kind.ClassDeclaration,
    kind.TypeAliasDeclaration,
  ].includes(declaration.kind);
}

/**
 * A declaration's JSDoc as its syntax tree holds it, where that is what the checker would
 * answer: a comment and tags of plain text (the API renders links), on the declaration
 * itself, not inherited. Undefined where only the checker can tell (the API is asked then).
 */
export function writtenDocumentation(declaration: ts.Node, kind: Kind): Documentation | undefined {
  if (declaration.kind === kind.Parameter) {
    // A parameter's documentation is its function's `@param`; its tags are those `@param`s, no keyword.
    const name = (declaration as ts.ParameterDeclaration).name;
    if (hasJsDoc(declaration) || name.kind !== kind.Identifier) return undefined;
    const tags = functionComments(declaration.parent, kind)
      .flatMap((doc) => doc.tags ?? [])
      .filter(
        (tag) =>
          tag.kind === kind.JSDocParameterTag &&
          tag.name?.kind === kind.Identifier &&
          tag.name.text === (name as ts.Identifier).text,
      );
    if (tags.length > 1) return undefined;
    const comment = tags.length ? plainText(tags[0].comment, kind) : "";
    return comment === undefined ? undefined : { comment, tags: [] };
  }
  if (!ownsComment(declaration, kind)) return undefined;
  const docs = jsDocsOf(declaration);
  if (docs.length > 1) return undefined;
  // A member whose own comment or tags are missing shows its base's, where it has one.
  const inherited = inherits(declaration, kind);
  if (!docs.length) return inherited ? undefined : { comment: "", tags: [] };
  const comment = plainText(docs[0].comment, kind);
  if (comment === undefined) return undefined;
  const tags: Documentation["tags"] = [];
  for (const tag of docs[0].tags ?? []) {
    const name = tag.tagName.text;
    const text = plainText(tag.comment, kind);
    if (text === undefined || name === "inheritDoc" || name === "inheritdoc" || tag.kind === kind.JSDocParameterTag)
      return undefined;
    tags.push({ name, text });
  }
  if (inherited && (!comment || !tags.length)) return undefined;
  return { comment, tags };
}

/**
 * A declaration's documentation comment alone (a signature's), as its syntax tree holds it,
 * where that is what the checker would answer. Unlike writtenDocumentation, its tags need not
 * be plain text nor free of `@param`s, which are not part of the comment: a function
 * documented with `@param`s is read here, not asked (three round trips each).
 */
export function writtenComment(declaration: ts.Node, kind: Kind): string | undefined {
  if (declaration.kind === kind.Parameter || !ownsComment(declaration, kind)) return undefined;
  const docs = jsDocsOf(declaration);
  if (docs.length > 1) return undefined;
  const inherited = inherits(declaration, kind);
  if (!docs.length) return inherited ? undefined : "";
  const comment = plainText(docs[0].comment, kind);
  // `@inheritDoc` brings a base's comment in.
  const inheritsDoc = (docs[0].tags ?? []).some(
    (tag) => tag.tagName.text === "inheritDoc" || tag.tagName.text === "inheritdoc",
  );
  if (comment === undefined || inheritsDoc || (inherited && !comment)) return undefined;
  return comment;
}

/**
 * The comments that document a function, as the language service finds them: the last on the
 * function itself, then the last on what holds it, when it is a variable's, a property's or
 * an object literal property's value (`const f = (...) => ...`: the variable statement).
 */
function functionComments(fn: ts.Node, kind: Kind): readonly JsDocNode[] {
  const last = (node: ts.Node | undefined) => jsDocsOf(node).slice(-1);
  const own = last(fn);
  if (fn.kind !== kind.ArrowFunction && fn.kind !== kind.FunctionExpression) return own;
  const holder = fn.parent;
  if (holder?.kind === kind.PropertyAssignment || holder?.kind === kind.PropertyDeclaration)
    return [...own, ...last(holder)];
  const statement = holder?.parent?.parent;
  if (
    holder?.kind === kind.VariableDeclaration &&
    (holder as ts.VariableDeclaration).initializer === fn &&
    statement?.kind === kind.VariableStatement &&
    (statement as ts.VariableStatement).declarationList.declarations.length === 1
  )
    return [...own, ...last(statement)];
  return own;
}

/** The tags written on a declaration (a parameter's own, or a function's), as the syntax tree holds them. */
export function writtenTags(declaration: ts.Node, kind: Kind): readonly WrittenTag[] {
  const comments =
    declaration.kind === kind.Parameter ? jsDocsOf(declaration).slice(-1) : functionComments(declaration, kind);
  return comments
    .flatMap((doc) => doc.tags ?? [])
    .map((tag) => ({
      name: tag.tagName.text,
      text: plainText(tag.comment, kind),
      ...(tag.kind === kind.JSDocParameterTag && tag.name?.kind === kind.Identifier && { parameter: tag.name.text }),
    }));
}
