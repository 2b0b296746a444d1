/**
 * The files, folders and headings the project's comments and pages name, found and checked:
 * a comment that cites a file that has moved or gone, or a heading that was renamed, misleads
 * whoever follows it. What counts as a reference is a path from the package root
 * (`runtime/validation/compile.ts`, `transformer/model/`, `docs/rules.md#limits`, `README.md`), in the
 * comments of the source files and anywhere in the pages (markdown links are
 * test/support/documentation.ts's `brokenLinks`, which resolves them from their page), and a
 * page's section named by its title in quotes after it (`docs/rules.md, "Dates"`,
 * `docs/contributing.md's "Set up"`). A path with a line number after it (`path/to/file.ts:120`)
 * is refused whatever the line: lines move with every edit above them, and nothing checks that
 * the line still holds what the comment meant; the name of the function or the heading does.
 */
import * as path from "node:path";
import * as ts from "typescript";
import GithubSlugger from "github-slugger";
import { outline } from "./documentation";

/** The folders a reference starts with (each a folder of the package root), and the root's own pages. */
const ROOTS = ["contract", "runtime", "transformer", "cli", "bench", "test", "docs", "fixtures", "examples"];
const PAGES = ["README.md", "CHANGELOG.md"];

/**
 * A path from the package root, not inside a longer path (`dist/runtime/index.js`, a URL, an
 * npm package's subpath such as `typemcp/transformer`), with an optional `:line` and an optional `#anchor`. It ends
 * before a character no path here holds (a space, a backquote), and before the punctuation
 * that ends a sentence. A `*` or a `<placeholder>` after it makes it a glob: `fixtures/type_*`
 * and `fixtures/type_<construct>/` name the entries of fixtures/ whose names start with `type_`.
 */
const REFERENCE = new RegExp(
  `(?<![\\w./@-])((?:(?:${ROOTS.join("|")})/[\\w.@/-]*?|${PAGES.map((page) => page.replace(".", "\\.")).join("|")}))` +
    `((?:\\*|<[\\w-]+>)[\\w.@/<>*-]*)?(?::(\\d+)(?::\\d+)?)?(?:#([\\w-]+))?(?=[.,;:)]*(?:[^\\w./@#*-]|$))`,
  "g",
);

/** One reference that points at nothing: where it is written (`file:line`), and what is missing. */
export interface StaleReference {
  where: string;
  target: string;
  missing: string;
}

/** A reference as written: its path, whether a `*` or a `<placeholder>` ends it, a line number after it, its anchor or its section's title. */
export interface Reference {
  line: number;
  target: string;
  glob?: true;
  atLine?: number;
  anchor?: string;
  section?: string;
}

/**
 * A page's section named by its title: the page's path from the root, then `, "Title"`, `'s
 * "Title"` or ` "Title"`. The title may run over lines (a comment's `*` and `//` are read
 * through).
 */
const SECTION = /(?<![\w./@-])(docs\/[\w.-]+\.md|README\.md|CHANGELOG\.md)(?:'s|,)? "([^"]+)"/g;

/** Where the checks look: whether a path from the root exists, and a page's text (for its headings). */
export interface Tree {
  exists(file: string): boolean;
  /** The names of a folder's entries; none for a file. */
  list(folder: string): string[];
  read(file: string): string;
}

/** The references written in one text, with their lines (1-based), as `REFERENCE` finds them. */
export function referencesIn(text: string, firstLine = 1): Reference[] {
  const found: Reference[] = [];
  text.split("\n").forEach((line, i) => {
    for (const match of line.matchAll(REFERENCE)) {
      // A trailing `.` belongs to the sentence, not the path (`see docs/rules.md.`).
      const target = match[1].replace(/\.+$/, "");
      const reference: Reference = { line: firstLine + i, target };
      if (match[2]) reference.glob = true;
      if (match[3] !== undefined) reference.atLine = Number(match[3]);
      if (match[4] !== undefined) reference.anchor = match[4];
      found.push(reference);
    }
  });
  return found;
}

/** The sections named by their titles in one text (see SECTION), with the line each reference starts on. */
export function sectionsIn(text: string, firstLine = 1): Reference[] {
  // The lines joined without what marks them as a comment's, each line's start kept.
  const starts: number[] = [];
  let joined = "";
  for (const line of text.split("\n")) {
    starts.push(joined.length);
    joined += line.replace(/^\s*(?:\/\*+|\*(?!\/)|\/\/)?\s*/, "").replace(/\s*\*\/\s*$/, "") + " ";
  }
  const found: Reference[] = [];
  for (const match of joined.matchAll(SECTION)) {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= match.index) line++;
    found.push({ line: firstLine + line, target: match[1], section: match[2].replace(/\s+/g, " ") });
  }
  return found;
}

/** The comments of a TypeScript or JavaScript source, each with the line it starts on. */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const seen = new Set<number>();
  const comments: { line: number; text: string }[] = [];
  const take = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      comments.push({ line, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  take(ts.getLeadingCommentRanges(text, 0));
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return comments.sort((a, b) => a.line - b.line);
}

/**
 * The references in `files` (paths from the package root: sources, whose comments are read,
 * and markdown pages, read whole) that point at nothing: a file or folder `tree` does not
 * have, or an `#anchor` no heading of the page makes (anchors made as GitHub makes them).
 */
export function staleReferences(files: string[], tree: Tree): StaleReference[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (page: string) => {
    if (!anchors.has(page)) anchors.set(page, outline(tree.read(page)).anchors);
    return anchors.get(page)!;
  };
  const stale: StaleReference[] = [];
  for (const file of files) {
    const text = tree.read(file);
    const found = file.endsWith(".md")
      ? [...referencesIn(text), ...sectionsIn(text)]
      : commentsOf(file, text).flatMap((comment) => [
          ...referencesIn(comment.text, comment.line),
          ...sectionsIn(comment.text, comment.line),
        ]);
    found.sort((a, b) => a.line - b.line);
    for (const { line, target, glob, atLine, anchor, section } of found) {
      const where = `${file}:${line}`;
      if (atLine !== undefined) {
        stale.push({
          where,
          target: `${target}:${atLine}`,
          missing: "a line number, which moves with every edit above it: name the function or the heading",
        });
        continue;
      }
      if (glob) {
        const folder = target.endsWith("/") ? target.slice(0, -1) : path.posix.dirname(target);
        const prefix = target.endsWith("/") ? "" : path.posix.basename(target);
        if (!tree.exists(folder) || !tree.list(folder).some((name) => name.startsWith(prefix)))
          stale.push({ where, target: `${target}*`, missing: `nothing in ${folder}/ matches ${prefix}*` });
        continue;
      }
      const normal = path.posix.normalize(target).replace(/\/$/, "");
      if (!tree.exists(normal)) stale.push({ where, target, missing: `${normal} does not exist` });
      else if (anchor !== undefined && !normal.endsWith(".md"))
        stale.push({ where, target: `${target}#${anchor}`, missing: `${normal} has no headings` });
      else if (anchor !== undefined && !anchorsOf(normal).has(anchor))
        stale.push({ where, target: `${target}#${anchor}`, missing: `no heading of ${normal} makes #${anchor}` });
      else if (section !== undefined && !anchorsOf(normal).has(new GithubSlugger().slug(section)))
        stale.push({ where, target: `${target} "${section}"`, missing: `no heading of ${normal} is "${section}"` });
    }
  }
  return stale;
}

/**
 * The paths the file map of docs/architecture.md names (its fenced block under `## File map`):
 * an entry indented under a folder (`name/`) is in it, two spaces a level; a top-level entry is a
 * path from the root. Folders keep their `/`.
 */
export function fileMap(page: string): string[] {
  const block = /^## File map\n[\s\S]*?^```\n([\s\S]*?)^```/m.exec(page);
  if (!block) throw new Error("docs/architecture.md has no fenced block under ## File map");
  const folders: string[] = [];
  const paths: string[] = [];
  for (const line of block[1].split("\n")) {
    const entry = /^( *)(\S+)/.exec(line);
    if (!entry) continue;
    const depth = entry[1].length / 2;
    if (!Number.isInteger(depth) || depth > folders.length)
      throw new Error(`the file map's line "${line}" is indented ${entry[1].length} spaces under ${folders.join("")}`);
    folders.length = depth;
    const full = folders.join("") + entry[2];
    paths.push(full);
    if (full.endsWith("/")) folders.push(entry[2]);
  }
  return paths;
}

/**
 * How the file map differs from the tree below `roots`: the paths it names that do not exist,
 * and the files and folders it leaves out. A folder named with nothing indented under it stands
 * for all it holds; one with entries under it must name each of its own.
 */
export function fileMapDifferences(named: string[], roots: string[], tree: Tree): string[] {
  const differences = named
    .filter((entry) => !tree.exists(entry.replace(/\/$/, "")))
    .map((entry) => `${entry} does not exist`);
  const listed = new Set(named);
  const expanded = new Set(named.filter((entry) => named.some((other) => other !== entry && other.startsWith(entry))));
  const walk = (folder: string) => {
    for (const name of tree.list(folder).sort()) {
      const file = `${folder}/${name}`;
      const isFolder = tree.list(file).length > 0;
      const entry = isFolder ? `${file}/` : file;
      if (!listed.has(entry)) differences.push(`${entry} is not in the map`);
      else if (isFolder && expanded.has(entry)) walk(file);
    }
  };
  for (const root of roots) {
    if (!listed.has(`${root}/`)) differences.push(`${root}/ is not in the map`);
    else if (expanded.has(`${root}/`)) walk(root);
  }
  return differences;
}
