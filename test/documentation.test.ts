/**
 * The README and docs/ held to the repository, without running anything: every relative link
 * and `#anchor` points at a file and a heading that exist (anchors made as GitHub makes them);
 * every code block is a recipe that a test follows word for word (its `<!-- name:part -->`
 * marker named by a test) or says it is an excerpt (`<!-- excerpt -->`); each tsconfig.json a
 * recipe shows is the quick start's, changed as its text says; the commands given to
 * contributors name scripts and files that exist; the constraints example of docs/rules.md
 * builds to the keywords the page lists. The recipes themselves run in the second tier, in
 * fresh projects (test/consumer.test.ts, test/toolchains.test.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./support/build";
import {
  brokenLinks,
  documentedBlock,
  documents,
  documentText,
  outline,
  withPackages,
  type Outline,
} from "./support/documentation";
import { emittedRegistrations } from "./support/emitted-contracts";
import { compileSnippets } from "./support/snippets";

const readRoot = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");

describe("links", () => {
  test("every relative link and #anchor of the README and docs/ points at a file and a heading that exist", () => {
    const texts = Object.fromEntries(documents().map((document) => [document, documentText(document)]));
    expect(brokenLinks(texts, (file) => fs.existsSync(path.join(ROOT, file)), readRoot)).toEqual([]);
  });

  test("a missing file, a missing heading, an anchor into a file with no headings: each named with its place; an HTML anchor is one", () => {
    const texts = {
      "README.md":
        "# Typemcp\n\n[ok](#typemcp) [ok](docs/a.md#a-heading) [missing](#nowhere)\n\n[gone](docs/gone.md)\n",
      "docs/a.md":
        "## A heading\n\n[ok](../README.md) [up](../../outside.md) [code](../src/x.ts#L1) [ok](#a-heading)\n\n" +
        '- <a id="in-a-list"></a>**An anchor in HTML.** [ok](#in-a-list)\n',
      "docs/b.md": "[ok](a.md#in-a-list) [missing](a.md#not-in-a-list)\n",
    };
    const files = new Set([...Object.keys(texts), "src/x.ts"]);
    expect(
      brokenLinks(
        texts,
        (file) => files.has(file),
        () => "",
      ),
    ).toEqual([
      "README.md:3: #nowhere: no heading of README.md makes #nowhere",
      "README.md:5: docs/gone.md: docs/gone.md does not exist",
      "docs/a.md:3: ../../outside.md: ../outside.md does not exist",
      "docs/a.md:3: ../src/x.ts#L1: src/x.ts has no headings",
      "docs/b.md:1: a.md#not-in-a-list: no heading of docs/a.md makes #not-in-a-list",
    ]);
  });

  test("anchors are GitHub's: lower case, punctuation dropped, code spans' text kept, repeats numbered", () => {
    const { anchors } = outline(
      "# Without the transformer: `typemcp manifest`\n\n## Protocol, transports and shutdown\n\n## `tspc` exits 2 on a warning\n\n## Again\n\n## Again\n\n## Build: the **commands** (5.9)\n",
    );
    expect([...anchors]).toEqual([
      "without-the-transformer-typemcp-manifest",
      "protocol-transports-and-shutdown",
      "tspc-exits-2-on-a-warning",
      "again",
      "again-1",
      "build-the-commands-59",
    ]);
  });
});

describe("code blocks", () => {
  /** Every source the test suites are written in, where a recipe's marker must be named. */
  function testSources(dir = path.join(ROOT, "test")): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return testSources(file);
      return /\.(ts|js|mjs)$/.test(entry.name) ? [fs.readFileSync(file, "utf8")] : [];
    });
  }
  const RECIPE = /^[\w-]+:\S+$/;
  const outlines: [string, Outline][] = documents().map((document) => [document, outline(documentText(document))]);

  test("every block with a language is a recipe a test names, or an excerpt; every recipe marker comes right before its block", () => {
    const sources = testSources().join("\n");
    const problems = outlines.flatMap(([document, { blocks, comments }]) => [
      ...blocks
        .filter((block) => block.info && block.marker !== "excerpt")
        .flatMap(({ info, marker, line }) => {
          if (marker === undefined) return [`${document}:${line}: a ${info} block with no <!-- marker --> before it`];
          if (!RECIPE.test(marker)) return [`${document}:${line}: <!-- ${marker} --> is neither a recipe nor excerpt`];
          if (!sources.includes(`"${marker}"`)) return [`${document}:${line}: no test names "${marker}"`];
          return [];
        }),
      ...comments
        .filter(({ text, before }) => (RECIPE.test(text) || text === "excerpt") && before !== "fence")
        .map(({ text, line }) => `${document}:${line}: <!-- ${text} --> is not followed by a fenced block`),
    ]);
    expect(problems).toEqual([]);
  });

  test("the check finds an unmarked block, a marker no test names and a marker away from its block", () => {
    const { blocks, comments } = outline(
      "<!-- excerpt -->\n```ts\nf();\n```\n\n```sh\nnpm test\n```\n\n<!-- nobody:names-this -->\n```sh\nls\n```\n\n<!-- stray:marker -->\n\ntext\n\n```\nplain text needs none\n```\n",
    );
    expect(blocks).toEqual([
      { info: "ts", marker: "excerpt", line: 2 },
      { info: "sh", marker: undefined, line: 6 },
      { info: "sh", marker: "nobody:names-this", line: 11 },
      { info: "", marker: undefined, line: 19 },
    ]);
    expect(comments.map(({ text, before }) => [text, before])).toEqual([
      ["excerpt", "fence"],
      ["nobody:names-this", "fence"],
      ["stray:marker", "paragraph_open"],
    ]);
  });
});

describe("the tsconfig.json of each recipe is the quick start's, as its text says", () => {
  type Tsconfig = { compilerOptions: Record<string, unknown> & { plugins?: object[] }; include: string[] };
  const tsconfig = (marker: string) => JSON.parse(documentedBlock(marker)) as Tsconfig;
  const quickstart = () => tsconfig("quickstart:tsconfig.json");
  const withoutPlugins = () => {
    const { compilerOptions, ...rest } = quickstart();
    const { plugins: _plugins, ...options } = compilerOptions;
    return { ...rest, compilerOptions: options };
  };

  test("docs/typescript-7.md: without the plugin entry", () => {
    expect(tsconfig("ts7:tsconfig.json")).toEqual(withoutPlugins());
  });

  test("docs/toolchains.md's manifest: without the plugin, with JSON imports", () => {
    const expected = withoutPlugins();
    Object.assign(expected.compilerOptions, { resolveJsonModule: true, esModuleInterop: true });
    expect(tsconfig("manifest:tsconfig.json")).toEqual(expected);
  });

  test("docs/toolchains.md's editor plugin: a second entry under plugins", () => {
    const expected = quickstart();
    expected.compilerOptions.plugins = [...expected.compilerOptions.plugins!, { name: "typemcp/language-service" }];
    expect(tsconfig("toolchains:tsconfig.json")).toEqual(expected);
  });

  test("all of them give the project Node's types, which TypeScript 6 and 7 no longer add by themselves", () => {
    for (const marker of ["quickstart", "ts7", "manifest", "toolchains"])
      expect(tsconfig(`${marker}:tsconfig.json`).compilerOptions.types).toEqual(["node"]);
  });
});

describe("a recipe followed with other packages than its own (withPackages)", () => {
  const install = (commands: string) => commands.split("\n").find((line) => line.startsWith("npm install "));

  test("the README's quick start with TypeScript 6's packages, and without its versions, as a user would type it", () => {
    expect(install(documentedBlock("quickstart:project"))).toBe(
      "npm install ../typemcp/typemcp-0.1.0.tgz typescript@~5.9.3 ts-patch@^3.3.0 @types/node@^20",
    );
    expect(install(withPackages(documentedBlock("quickstart:project"), ["typescript@~6.0.3", "ts-patch@^4.0.1"]))).toBe(
      "npm install ../typemcp/typemcp-0.1.0.tgz typescript@~6.0.3 ts-patch@^4.0.1 @types/node@^20",
    );
    expect(install(withPackages(documentedBlock("quickstart:project"), ["typescript", "ts-patch"]))).toBe(
      "npm install ../typemcp/typemcp-0.1.0.tgz typescript ts-patch @types/node@^20",
    );
    expect(install(withPackages(documentedBlock("ts7:install"), ["typescript@7.1.0-beta"]))).toBe(
      "npm install ../typemcp/typemcp-0.1.0.tgz typescript@7.1.0-beta @types/node@^20",
    );
  });

  test("a package the install line does not name is an error, not a line left as it was", () => {
    expect(() => withPackages("npm install typescript@~5.9.3\n", ["@types/node@^22"])).toThrow(
      "no npm install of @types/node in:\nnpm install typescript@~5.9.3\n",
    );
    expect(() => withPackages("npm install typescript-7\n", ["typescript"])).toThrow("no npm install of typescript");
  });
});

describe("the commands given to contributors name what exists", () => {
  const scripts = (JSON.parse(readRoot("package.json")) as { scripts: Record<string, string> }).scripts;
  /** The commands of a block: comments dropped, `&&` chains split, environment assignments left out. */
  const commands = (marker: string) =>
    documentedBlock(marker)
      .split("\n")
      .map((line) => line.replace(/\s+#.*$/, ""))
      .flatMap((line) => line.split("&&"))
      .map((command) =>
        command
          .trim()
          .split(/\s+/)
          .filter((word) => !/^[A-Z_]+=/.test(word)),
      )
      .filter((words) => words.length > 0);

  /** What is wrong with one command: an npm script that is not there, a jest config or suite that is not on disk. */
  function problems(words: string[]): string[] {
    const [tool, verb, ...rest] = words;
    if (tool === "npm" && verb === "run") return rest[0] in scripts ? [] : [`npm run ${rest[0]}: no such script`];
    if (tool === "npm" && verb === "test") return "test" in scripts ? [] : ["npm test: no test script"];
    if (tool === "npx" && verb === "jest")
      return rest
        .filter((word, i) => rest[i - 1] === "-c" || word.endsWith(".test.ts"))
        .filter((file) => !fs.existsSync(path.join(ROOT, file)))
        .map((file) => `npx jest: ${file} does not exist`);
    return [];
  }

  test.each([
    "develop:commands",
    "contributing:set-up",
    "contributing:lint",
    "contributing:targeted",
    "contributing:e2e-suite",
    "contributing:record",
  ])("%s", (marker) => {
    expect(commands(marker).length).toBeGreaterThan(0);
    expect(commands(marker).flatMap(problems)).toEqual([]);
  });

  test("the check finds a script and a suite that are not there", () => {
    expect(problems(["npm", "run", "tset"])).toEqual(["npm run tset: no such script"]);
    expect(problems(["npx", "jest", "-c", "jest.e2e.config.js", "test/gone.test.ts", "-t", "x"])).toEqual([
      "npx jest: test/gone.test.ts does not exist",
    ]);
  });
});

test("docs/rules.md's constraints example builds with no diagnostic, to the keywords its tags and tag types name", () => {
  const { rules } = compileSnippets("documentation", {
    rules: `${documentedBlock("rules:constraints")}
import { MCPServer } from "typemcp";
/** Books a table. */
function book(booking: Booking): string {
  return booking.airport;
}
const mcp = new MCPServer("Bookings");
mcp.tool(book);
`,
  });
  expect([rules.compilerErrors, rules.diagnostics]).toEqual([[], []]);
  const [{ contract }] = emittedRegistrations(rules.js);
  expect(contract.inputSchema).toEqual({
    type: "object",
    title: "bookArguments",
    properties: { booking: { $ref: "#/$defs/Booking" } },
    required: ["booking"],
    additionalProperties: false,
    $defs: {
      Booking: {
        type: "object",
        title: "Booking",
        properties: {
          guests: { type: "integer", description: "Guests in the party.", minimum: 1, maximum: 12, default: 2 },
          airport: { type: "string", pattern: "^[A-Z]{3}$" },
          contact: { type: "string", format: "email" },
          discount: { type: "number", minimum: 0, maximum: 100 },
          tags: { type: "array", items: { type: "string" }, minItems: 1 },
        },
        required: ["guests", "airport", "contact"],
        additionalProperties: false,
      },
    },
  });
});
