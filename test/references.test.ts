/**
 * Every file, folder and heading the comments of the sources and the pages name exists:
 * `runtime/validation/compile.ts`, `transformer/model/`, `docs/rules.md#limits`. A file moved or removed,
 * or a heading renamed, fails here with the place that still names it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./support/build";
import { documents } from "./support/documentation";
import {
  commentsOf,
  fileMap,
  fileMapDifferences,
  referencesIn,
  staleReferences,
  type Tree,
} from "./support/references";

/** The sources whose comments are read: the package's, the benchmark's and the tests'. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const file = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.(ts|js|mjs)$/.test(entry.name)) found.push(file);
    }
  };
  for (const folder of ["contract", "runtime", "transformer", "cli", "bench", "test"]) walk(folder);
  return found.sort();
}

const repository: Tree = {
  exists: (file) => fs.existsSync(path.join(ROOT, file)),
  list: (folder) => {
    const full = path.join(ROOT, folder);
    return fs.statSync(full).isDirectory() ? fs.readdirSync(full) : [];
  },
  read: (file) => fs.readFileSync(path.join(ROOT, file), "utf8"),
};

/** Paths that stand for one the reader makes, each where a recipe names it. */
const PLACEHOLDERS = new Set([
  // docs/contributing.md's record mode: the new fixture's folder.
  "fixtures/my_fixture/expected.json",
]);

test("every path and #anchor named in the sources' comments, the README and docs/ exists", () => {
  const files = [...sources(), ...documents()];
  expect(files.length).toBeGreaterThan(100);
  const stale = staleReferences(files, repository)
    .filter(({ target }) => !PLACEHOLDERS.has(target))
    .map(({ where, target, missing }) => `${where}: ${target}: ${missing}`);
  expect(stale).toEqual([]);
});

test("docs/architecture.md's file map names every top-level folder, every file and folder of those it opens (contract/, runtime/, transformer/, cli/, examples/), and nothing else", () => {
  const named = fileMap(repository.read("docs/architecture.md"));
  expect(named).toContain("transformer/model/parsers/");
  // The repository's folders: those .gitignore names (node_modules/, the build's output) and the dot-folders (.ci/) aside.
  const ignored = new Set(
    repository
      .read(".gitignore")
      .split("\n")
      .map((line) => line.trim().replace(/^\/|\/$/g, "")),
  );
  const folders = fs
    .readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && !ignored.has(entry.name))
    .map((entry) => entry.name);
  expect(folders).toEqual(expect.arrayContaining(["contract", "runtime", "transformer", "cli", "examples", "test"]));
  expect(fileMapDifferences(named, folders, repository)).toEqual([]);
});

describe("the file map's check", () => {
  const page = [
    "## File map",
    "",
    "```",
    "src/a.ts      the entry",
    "src/          the sources",
    "  b.ts        one",
    "  gone.ts     moved away",
    "  deep/       a folder for all it holds",
    "  wide/       a folder with its entries",
    "    c.ts      one",
    "```",
  ].join("\n");
  const folders: Record<string, string[]> = {
    src: ["a.ts", "b.ts", "left-out.ts", "deep", "wide"],
    "src/deep": ["x.ts", "y.ts"],
    "src/wide": ["c.ts", "d.ts"],
  };
  const files = new Set(["src/a.ts", "src/b.ts", "src/left-out.ts", "src/deep/x.ts", "src/wide/c.ts", "src/wide/d.ts"]);
  const tree: Tree = {
    exists: (file) => file in folders || files.has(file),
    list: (folder) => folders[folder] ?? [],
    read: () => page,
  };

  test("reads the entries by their indentation", () => {
    expect(fileMap(page)).toEqual([
      "src/a.ts",
      "src/",
      "src/b.ts",
      "src/gone.ts",
      "src/deep/",
      "src/wide/",
      "src/wide/c.ts",
    ]);
  });

  test("names what is gone and what is left out; a folder with no entries stands for what it holds", () => {
    expect(fileMapDifferences(fileMap(page), ["src", "lib"], tree)).toEqual([
      "src/gone.ts does not exist",
      "src/left-out.ts is not in the map",
      "src/wide/d.ts is not in the map",
      "lib/ is not in the map",
    ]);
  });
});

describe("the scanner", () => {
  const planted: Record<string, string> = {
    "runtime/a.ts": [
      "/** Checks what runtime/b.ts wrote (see docs/rules.md#limits, and runtime/gone.ts). */",
      'const x = "runtime/not-a-comment.ts"; // test/missing.test.ts. fixtures/type_* fixtures/nothing_<x>/',
      "/*",
      " * transformer/model/ and transformer/nowhere/ and docs/rules.md#no-such-heading, or",
      " * dist/runtime/index.js, typemcp/transformer, https://example.com/runtime/x.ts: not ours.",
      " */",
      "export const y = `${x} // runtime/in-a-template.ts`;",
      '/** At runtime/b.ts:12, docs/rules.md, "Limits" and docs/rules.md\'s "Gone',
      ' * away". */',
    ].join("\n"),
    "runtime/b.ts": "export {};\n",
    "docs/rules.md": "# Rules\n\n## Limits\n\nSee `runtime/b.ts`, `runtime/c.ts` and README.md#rules.\n",
    "README.md": "# Typemcp\n\n[rules](docs/rules.md#limits); runtime/call/* and fixtures/<name>/tool.ts.\n",
  };
  const folders: Record<string, string[]> = {
    runtime: ["a.ts", "b.ts", "call"],
    "runtime/call": ["function.ts"],
    transformer: ["model"],
    "transformer/model": [],
    docs: ["rules.md"],
    fixtures: ["type_string"],
  };
  const tree: Tree = {
    exists: (file) => file in planted || file in folders,
    list: (folder) => folders[folder],
    read: (file) => planted[file],
  };

  test("names each reference to a missing file, folder or heading (by anchor or by title), and each line number, with its file:line; leaves alone paths that are not the root's, strings and templates", () => {
    expect(staleReferences(Object.keys(planted), tree)).toEqual([
      { where: "runtime/a.ts:1", target: "runtime/gone.ts", missing: "runtime/gone.ts does not exist" },
      { where: "runtime/a.ts:2", target: "test/missing.test.ts", missing: "test/missing.test.ts does not exist" },
      { where: "runtime/a.ts:2", target: "fixtures/nothing_*", missing: "nothing in fixtures/ matches nothing_*" },
      { where: "runtime/a.ts:4", target: "transformer/nowhere/", missing: "transformer/nowhere does not exist" },
      {
        where: "runtime/a.ts:4",
        target: "docs/rules.md#no-such-heading",
        missing: "no heading of docs/rules.md makes #no-such-heading",
      },
      {
        where: "runtime/a.ts:8",
        target: "runtime/b.ts:12",
        missing: "a line number, which moves with every edit above it: name the function or the heading",
      },
      {
        where: "runtime/a.ts:8",
        target: 'docs/rules.md "Gone away"',
        missing: 'no heading of docs/rules.md is "Gone away"',
      },
      { where: "docs/rules.md:5", target: "runtime/c.ts", missing: "runtime/c.ts does not exist" },
      { where: "docs/rules.md:5", target: "README.md#rules", missing: "no heading of README.md makes #rules" },
    ]);
  });

  test("a reference ends where the path does: sentence punctuation, a glob or a placeholder (then a prefix)", () => {
    expect(referencesIn("(runtime/check.ts), docs/rules.md#limits.\nruntime/call/* fixtures/<name>/x cli/;")).toEqual([
      { line: 1, target: "runtime/check.ts" },
      { line: 1, target: "docs/rules.md", anchor: "limits" },
      { line: 2, target: "runtime/call/", glob: true },
      { line: 2, target: "fixtures/", glob: true },
      { line: 2, target: "cli/" },
    ]);
  });

  test("comments are read once each, with the line each starts on", () => {
    const text = "// one\nconst a = 1; // two\n/**\n * three\n */\nfunction f() {}\n// four\n";
    expect(commentsOf("x.ts", text)).toEqual([
      { line: 1, text: "// one" },
      { line: 2, text: "// two" },
      { line: 3, text: "/**\n * three\n */" },
      { line: 7, text: "// four" },
    ]);
  });
});
