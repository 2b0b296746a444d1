import * as fs from "node:fs";
import * as path from "node:path";
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
