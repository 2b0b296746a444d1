import ts from "typescript";

/**
 * The JSDoc tsc did not parse, parsed where typemcp reads it.
 *
 * tsc skips the JSDoc of TypeScript files: it needs none of it to check them
 * (`JSDocParsingMode.ParseForTypeErrors`; a comment with `@see` or `@link` is the exception).
 * Asking tsc to parse it all would parse every comment of lib, `@types/node` and each
 * dependency, which at 500 tools cost the build about 0.2 s, most of it in files no tool
 * reads. typemcp reads the comments of few declarations: tool functions, their parameters,
 * the properties and types they take and return. Before the language service reads a
 * declaration's documentation, `parseSkippedJSDoc` parses the comments the parser skipped on
 * the nodes the service looks at, and attaches them as the parser would have. The service
 * then applies its own rules to them: `@param` on the function, the variable statement of
 * `const f = () => ...`, comments inherited from the same member of base types.
 *
 * In a file whose JSDoc was parsed (editors, the TypeScript API's default) it does nothing.
 */
export function parseSkippedJSDoc(symbol: ts.Symbol | undefined, checker: ts.TypeChecker): void {
  for (const declaration of symbol?.declarations ?? []) parseSkippedJSDocOf(declaration, checker);
}

/** parseSkippedJSDoc for one declaration: a tool function's signature has no symbol of its own. */
export function parseSkippedJSDocOf(declaration: ts.Node | undefined, checker: ts.TypeChecker): void {
  if (!declaration || prepared.has(declaration)) return;
  prepared.add(declaration);
  const file = declaration.getSourceFile();
  if (skipsJSDoc(file)) attachAlongLookup(declaration, file.text);
  // A member without a comment of its own shows its base's (the service's findBaseOfDeclaration).
  for (const base of baseMembers(declaration, checker)) parseSkippedJSDoc(base, checker);
}

/** The TypeScript internals relied on, in every supported version: the parser's own ways of
 * finding and parsing a node's JSDoc (the parse sets its nodes' parents, but not the root's),
 * and the steps the service's lookup takes. Bound once: each read off the `ts` module is a getter. */
interface Internals {
  canHaveJSDoc(node: ts.Node): boolean;
  getJSDocCommentRanges(node: ts.Node, text: string): ts.CommentRange[] | undefined;
  parseIsolatedJSDocComment(content: string, start: number, length: number): { jsDoc: ts.JSDoc } | undefined;
  getNextJSDocCommentLocation(node: ts.Node): ts.Node | undefined;
  getAllSuperTypeNodes(node: ts.Node): readonly ts.Node[];
  hasStaticModifier(node: ts.Node): boolean;
}
const {
  canHaveJSDoc,
  getJSDocCommentRanges,
  parseIsolatedJSDocComment,
  getNextJSDocCommentLocation,
  getAllSuperTypeNodes,
  hasStaticModifier,
} = ts as unknown as Internals;
// Absent before TypeScript 5.3, whose parser parsed every JSDoc.
const { ParseNone, ParseForTypeErrors, ParseForTypeInfo }: Partial<typeof ts.JSDocParsingMode> =
  (ts.JSDocParsingMode as typeof ts.JSDocParsingMode | undefined) ?? {};
// Absent from TypeScript 7's `typescript` (no compiler API): loading this module must not fail
// there, so that the entry points can say what to run instead.
const { TS, TSX }: Partial<typeof ts.ScriptKind> = (ts.ScriptKind as typeof ts.ScriptKind | undefined) ?? {};

/** Internal fields of a node and a source file (what the parser sets, and a lookup's cache). */
type Documentable = ts.Node & { jsDoc?: ts.JSDoc[]; symbol?: ts.Symbol };
type ParsedFile = ts.SourceFile & { jsDocParsingMode?: ts.JSDocParsingMode; scriptKind?: ts.ScriptKind };

/** Declarations whose lookup is prepared, and nodes whose comments are parsed (per program, as nodes are). */
const prepared = new WeakSet<ts.Node>();
const attached = new WeakSet<ts.Node>();

/** The parser's shouldParseJSDoc: did this file's parse skip comments? */
function skipsJSDoc(file: ParsedFile): boolean {
  if (file.jsDocParsingMode === undefined) return false;
  switch (file.jsDocParsingMode) {
    case ParseNone:
      return true;
    case ParseForTypeErrors:
    case ParseForTypeInfo:
      return file.scriptKind === TS || file.scriptKind === TSX;
    default:
      return false;
  }
}

/**
 * Attaches comments on the nodes getJSDocCommentsAndTags visits from `host`: an initializer
 * (`x = /** doc *\/ () => ...`), the host, then each next comment location (a variable
 * statement, a property assignment, ...); a parameter's `@param` is on its signature.
 */
function attachAlongLookup(host: Documentable, text: string): void {
  const initializer = (host as { initializer?: ts.Node }).initializer;
  if (initializer) attach(initializer, text);
  for (let node: ts.Node | undefined = host; node?.parent; node = getNextJSDocCommentLocation(node)) {
    attach(node, text);
    if (ts.isParameter(node) || ts.isTypeParameterDeclaration(node)) {
      attachAlongLookup(node.parent, text);
      return;
    }
  }
}

function attach(node: Documentable, text: string): void {
  if (attached.has(node) || !canHaveJSDoc(node)) return;
  attached.add(node);
  if (node.jsDoc?.length) return; // the parser's own (a comment with @see or @link)
  // An empty list only holds a lookup's cached answer, given before these comments were parsed.
  // (Only then is it written: a field added to every node would change their shapes.)
  if (node.jsDoc) node.jsDoc = undefined;
  const parsed: ts.JSDoc[] = [];
  for (const range of getJSDocCommentRanges(node, text) ?? []) {
    const jsDoc = parseIsolatedJSDocComment(text, range.pos, range.end - range.pos)?.jsDoc;
    if (!jsDoc) continue;
    (jsDoc as { parent: ts.Node }).parent = node;
    parsed.push(jsDoc);
  }
  if (parsed.length) node.jsDoc = parsed;
}

/** The same-named members of the types a class or interface member's owner extends or implements. */
function baseMembers(declaration: Documentable, checker: ts.TypeChecker): ts.Symbol[] {
  const owner =
    declaration.parent && ts.isConstructorDeclaration(declaration.parent)
      ? declaration.parent.parent
      : declaration.parent;
  const name = declaration.symbol?.name;
  if (!owner || name === undefined || !(ts.isClassLike(owner) || ts.isInterfaceDeclaration(owner))) return [];
  const found: ts.Symbol[] = [];
  for (const superTypeNode of getAllSuperTypeNodes(owner)) {
    const baseType = checker.getTypeAtLocation(superTypeNode);
    const type =
      hasStaticModifier(declaration) && baseType.symbol ? checker.getTypeOfSymbol(baseType.symbol) : baseType;
    const member = checker.getPropertyOfType(type, name);
    if (member) found.push(member);
  }
  return found;
}
