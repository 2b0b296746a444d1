/**
 * Which TypeScript typemcp is given, and what runs on it (transformer/typescript.ts): decided in
 * that one module, for the CLI, the plugin's entry, the editor plugin and the runtime's message,
 * and no other source reads a TypeScript version.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  backendOf,
  findTypeScript,
  installedTypeScript,
  majorOf,
  supportedTypeScript,
  typeScriptAt,
  UnsupportedTypeScript,
} from "../../transformer/typescript";
import { importGraph } from "../support/imports";
import { ROOT } from "../support/root";

/** A folder holding a project whose node_modules/typescript is of `version`. */
function projectWith(version: string): string {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-typescript-"));
  const typescript = path.join(project, "node_modules", "typescript");
  fs.mkdirSync(typescript, { recursive: true });
  fs.writeFileSync(path.join(typescript, "package.json"), JSON.stringify({ name: "typescript", version }));
  return project;
}

const made: string[] = [];
const project = (version: string) => {
  made.push(projectWith(version));
  return made[made.length - 1];
};
afterAll(() => made.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

test.each([
  ["5.9.3", 5, "ts5"],
  ["6.0.2", 6, "ts5"],
  ["7.0.2", 7, "ts7"],
  ["7.1.0-beta", 7, "ts7"],
  ["8.0.0", 8, "ts7"],
] as const)("TypeScript %s: major %i, read by %s", (version, major, backend) => {
  expect([majorOf(version), backendOf(version)]).toEqual([major, backend]);
  const folder = path.join(project(version), "node_modules", "typescript");
  expect(typeScriptAt(folder)).toEqual({ directory: folder, version, major, backend });
});

test("a project's own TypeScript is the one found from its folder; TYPEMCP_TYPESCRIPT names another", () => {
  const seven = project("7.0.2");
  expect(findTypeScript(seven)).toMatchObject({ version: "7.0.2", backend: "ts7" });
  const six = path.join(project("6.0.2"), "node_modules", "typescript");
  const before = process.env.TYPEMCP_TYPESCRIPT;
  process.env.TYPEMCP_TYPESCRIPT = six;
  try {
    expect(findTypeScript(seven)).toEqual({ directory: six, version: "6.0.2", major: 6, backend: "ts5" });
    // The runtime's message speaks of the TypeScript installed, not of the one the CLI was pointed at.
    expect(installedTypeScript(seven)).toMatchObject({ version: "7.0.2", backend: "ts7" });
  } finally {
    if (before === undefined) delete process.env.TYPEMCP_TYPESCRIPT;
    else process.env.TYPEMCP_TYPESCRIPT = before;
  }
});

test("a TypeScript typemcp does not support is refused in one line that says what to install", () => {
  const refusal = (version: string) => {
    try {
      supportedTypeScript(project(version));
    } catch (error) {
      expect(error).toBeInstanceOf(UnsupportedTypeScript);
      return (error as Error).message;
    }
    return "accepted";
  };
  expect(refusal("4.9.5")).toBe(
    "TypeScript 4.9.5 is older than typemcp supports (5.0 or later): install TypeScript 5, 6 or 7",
  );
  expect(refusal("8.0.0")).toBe(
    "TypeScript 8.0.0 is newer than typemcp knows: typemcp supports TypeScript 5.x, 6.x, 7.0 and 7.1 (npm install --save-dev typescript@~7.0.2)",
  );
  expect(refusal("5.0.4")).toBe("accepted");
  expect(refusal("7.1.0-beta")).toBe("accepted");
});

test("no source but transformer/typescript.ts reads a TypeScript version's major number", () => {
  // The package's sources: the import graph's files.
  const files = [...importGraph(ROOT, ["runtime", "transformer", "cli"]).keys()];
  expect(files).toContain("cli/index.ts");
  // A version split for its first number, or a major number compared with one.
  const reads = /\.split\(["']\.["']\)\[0\]|\.major\s*(?:[<>]=?|[!=]==)\s*\d/;
  const readers = files.filter(
    (file) => file !== "transformer/typescript.ts" && reads.test(fs.readFileSync(path.join(ROOT, file), "utf8")),
  );
  expect(readers).toEqual([]);
});
