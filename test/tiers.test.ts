/**
 * The two tiers (test/tiers.js): every suite under test/ is in exactly one of them, each jest
 * config runs exactly its tier's list, and the fast tier's code starts no process and needs no
 * dist/.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { ROOT } from "./support/build";

const { fast, e2e, testMatch } = require("./tiers") as {
  fast: string[];
  e2e: string[];
  testMatch(suites: string[]): string[];
};

/** Every *.test.ts under test/, relative to it. */
function suitesOnDisk(dir = path.join(ROOT, "test")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return suitesOnDisk(at);
    return entry.name.endsWith(".test.ts")
      ? [path.relative(path.join(ROOT, "test"), at).split(path.sep).join("/")]
      : [];
  });
}

test("every suite is in exactly one tier, and every listed suite exists", () => {
  const listed = [...fast, ...e2e];
  expect(listed.filter((suite, i) => listed.indexOf(suite) !== i)).toEqual([]);
  expect([...listed].sort()).toEqual(suitesOnDisk().sort());
});

test.each([
  ["jest.config.js", fast],
  ["jest.e2e.config.js", e2e],
])("%s runs its tier's list", (config, suites) => {
  expect((require(path.join(ROOT, config)) as { testMatch: string[] }).testMatch).toEqual(testMatch(suites));
});

/** A suite and the test modules it imports, directly or not (the package's own sources aside). */
function testModulesOf(suite: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const target = [".ts", ".js", "/index.ts"]
        .map((ext) => path.resolve(path.dirname(file), fileName) + ext)
        .find((f) => fs.existsSync(f));
      if (target?.startsWith(path.join(ROOT, "test") + path.sep)) visit(target);
    }
  };
  visit(path.join(ROOT, "test", suite));
  return [...seen];
}

test("the fast tier starts no process and reads nothing of dist/: no suite of it, nor a test module it imports, does", () => {
  const offending = fast
    .flatMap(testModulesOf)
    .filter((file, i, all) => all.indexOf(file) === i)
    .flatMap((file) => {
      const text = fs.readFileSync(file, "utf8");
      const imports = ts.preProcessFile(text, true, true).importedFiles.map((i) => i.fileName);
      const where = path.relative(ROOT, file);
      return [
        ...imports
          .filter((name) => name === "child_process" || name === "node:child_process")
          .map(() => `${where} imports child_process`),
        ...(/["']dist["']/.test(text) ? [`${where} names a dist path`] : []),
      ];
    });
  expect(offending).toEqual([]);
});
