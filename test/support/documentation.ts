import * as fs from "node:fs";
import * as path from "node:path";
import GithubSlugger from "github-slugger";
import MarkdownIt from "markdown-it";
import { ROOT } from "./build";

/** The documents whose marked code blocks the tests follow word for word: the README and the pages of docs/. */
export function documents(): string[] {
  const pages = fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort();
  return ["README.md", ...pages.map((name) => path.join("docs", name))];
}

/** The text of one document, by its path from the package root (`"docs/toolchains.md"`). */
export function documentText(document: string): string {
  return fs.readFileSync(path.join(ROOT, document), "utf8");
}

/**
 * The fenced block right after `<!-- <marker> -->`, in whichever document holds the marker,
 * so that a block can move between the README and docs/ without its test losing it. A marker
 * must be in exactly one document, once: two copies could drift apart with only one tested.
 */
export function documentedBlock(marker: string): string {
  const line = `<!-- ${marker} -->\n`;
  const holders = documents().filter((document) => documentText(document).includes(line));
  if (holders.length !== 1) {
    throw new Error(
      `<!-- ${marker} --> must be in exactly one of ${documents().join(", ")}; found in ${holders.length ? holders.join(", ") : "none"}`,
    );
  }
  const text = documentText(holders[0]);
  const at = text.indexOf(line);
  if (text.indexOf(line, at + 1) >= 0) throw new Error(`<!-- ${marker} --> is in ${holders[0]} twice`);
  const match = /^```\w*\n([\s\S]*?)^```/m.exec(text.slice(at + line.length));
  if (!match || match.index !== 0)
    throw new Error(`<!-- ${marker} --> in ${holders[0]} is not followed by a fenced code block`);
  return match[1];
}

/**
 * Documented commands with package specs in place of those of the same names on their
 * `npm install` lines: a recipe followed with another TypeScript than its own
 * (`["typescript@~6.0.3", "ts-patch@^4.0.1"]`), or without its versions (`["typescript"]`: the
 * line as a user who leaves out the pin types it). Fails when a line names no such package.
 */
export function withPackages(commands: string, specs: string[]): string {
  return specs.reduce((text, spec) => {
    const version = spec.indexOf("@", 1);
    const name = version < 0 ? spec : spec.slice(0, version);
    const installed = new RegExp(`^(npm install .*\\s)${name.replace(/[/.]/g, "\\$&")}(@\\S+)?(?=\\s|$)`, "m");
    if (!installed.test(text)) throw new Error(`no npm install of ${name} in:\n${text}`);
    return text.replace(installed, `$1${spec}`);
  }, commands);
}

/** GitHub's markdown as far as the checks need it: CommonMark with tables, and HTML kept (the markers are HTML comments). */
const markdown = new MarkdownIt({ html: true });

/** A fenced code block of a document: its language, the comment right before it (its marker), its first line. */
export interface Block {
  info: string;
  marker?: string;
  line: number;
}

/** A link or image of a document, as written, and its line. */
export interface Link {
  href: string;
  line: number;
}

/** What the checks read of a document: its headings' anchors, its links, its fenced blocks and its marker comments. */
export interface Outline {
  anchors: Set<string>;
  links: Link[];
  blocks: Block[];
  /** `<!-- ... -->` comments alone on their line, with what follows each: `fence` or another token type. */
  comments: { text: string; line: number; before: string }[];
}

const COMMENT = /^<!-- (.*) -->\n$/;

/**
 * A document's outline. Anchors are made as GitHub makes them (github-slugger, from a heading's
 * text: its code spans' text included, its markup not), numbered when a heading repeats.
 */
export function outline(text: string): Outline {
  const tokens = markdown.parse(text, {});
  const slugger = new GithubSlugger();
  const result: Outline = { anchors: new Set(), links: [], blocks: [], comments: [] };
  // An anchor written as HTML (`<a id="name"></a>`), as GitHub renders it.
  for (const [, id] of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.anchors.add(id);
  tokens.forEach((token, i) => {
    const line = (token.map?.[0] ?? 0) + 1;
    if (token.type === "heading_open") {
      const inline = tokens[i + 1].children ?? [];
      const title = inline
        .filter((child) => child.type === "text" || child.type === "code_inline")
        .map((child) => child.content)
        .join("");
      result.anchors.add(slugger.slug(title));
    } else if (token.type === "inline") {
      for (const child of token.children ?? []) {
        const href =
          child.type === "link_open" ? child.attrGet("href") : child.type === "image" ? child.attrGet("src") : null;
        if (href !== null) result.links.push({ href: String(href), line });
      }
    } else if (token.type === "html_block" && COMMENT.test(token.content)) {
      result.comments.push({ text: COMMENT.exec(token.content)![1], line, before: tokens[i + 1]?.type ?? "end" });
    } else if (token.type === "fence") {
      const previous = tokens[i - 1];
      const marker = previous?.type === "html_block" ? COMMENT.exec(previous.content)?.[1] : undefined;
      result.blocks.push({ info: token.info.trim(), marker, line });
    }
  });
  return result;
}

/**
 * The links of `documents` (paths from the package root, and their text) that point at nothing:
 * a relative path that `exists` denies, or an `#anchor` that no heading of the target makes.
 * Links with a scheme (`https:`, `mailto:`) are not followed. Each is named with its document
 * and line, and what is missing.
 */
export function brokenLinks(
  documents: Record<string, string>,
  exists: (file: string) => boolean,
  read: (file: string) => string,
): string[] {
  const outlines = new Map<string, Outline>();
  const outlineOf = (file: string) => {
    if (!outlines.has(file)) outlines.set(file, outline(documents[file] ?? read(file)));
    return outlines.get(file)!;
  };
  const broken: string[] = [];
  for (const document of Object.keys(documents)) {
    for (const { href, line } of outlineOf(document).links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
      const at = href.indexOf("#");
      const file = decodeURIComponent(at < 0 ? href : href.slice(0, at));
      const anchor = at < 0 ? undefined : decodeURIComponent(href.slice(at + 1));
      const target = file ? path.posix.normalize(path.posix.join(path.posix.dirname(document), file)) : document;
      const where = `${document}:${line}: ${href}`;
      if (target.startsWith("../") || !exists(target)) broken.push(`${where}: ${target} does not exist`);
      else if (anchor !== undefined && !target.endsWith(".md")) broken.push(`${where}: ${target} has no headings`);
      else if (anchor !== undefined && !outlineOf(target).anchors.has(anchor))
        broken.push(`${where}: no heading of ${target} makes #${anchor}`);
    }
  }
  return broken;
}
