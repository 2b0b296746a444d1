/**
 * The two tiers (test/tiers.js): every suite under test/ is in exactly one of them, and each
 * jest config runs exactly its tier's list.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./support/build";

const { fast, e2e, testMatch } = require("./tiers") as { fast: string[]; e2e: string[]; testMatch(suites: string[]): string[] };

/** Every *.test.ts under test/, relative to it. */
function suitesOnDisk(dir = path.join(ROOT, "test")): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return suitesOnDisk(at);
    return entry.name.endsWith(".test.ts") ? [path.relative(path.join(ROOT, "test"), at).split(path.sep).join("/")] : [];
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
