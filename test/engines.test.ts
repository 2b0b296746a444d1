/**
 * `npm ci` on the documented Node 20 prints no EBADENGINE warning. npm warns for each package
 * it installs whose `engines.node` the running Node does not satisfy, and it reads that field
 * from package-lock.json, so the lock says, without a network, what `npm ci` will print. Two
 * audiences, two documented minimums: a user installs typemcp's dependencies on Node 20 (the
 * package's own `engines`, as the README says), a contributor the devDependencies too, on the
 * Node docs/contributing.md names.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as semver from "semver";
import { ROOT } from "./support/build";
import { documentText } from "./support/documentation";

interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string; npm?: string };
}

const lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockedPackage>;
};
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
};

/** The oldest Node a user may run typemcp on: the lowest version package.json's `engines.node` admits. */
const USER_NODE = semver.minVersion(manifest.engines.node)!.version;

/** The oldest Node a contributor may work on, as docs/contributing.md's "Set up" says it. */
function contributorNode(): string {
  const said = /^Node (\d+(?:\.\d+){0,2}) or later/m.exec(documentText("docs/contributing.md"));
  if (!said) throw new Error('docs/contributing.md does not say "Node <version> or later"');
  return semver.coerce(said[1])!.version;
}

/**
 * The locked packages whose `engines.node` rejects `node`, as npm's own check judges it
 * (npm-install-checks: `semver.satisfies` with prereleases included), with what they declare.
 */
function rejecting(node: string, packages: [string, LockedPackage][]): string[] {
  return packages
    .filter(
      ([, locked]) => locked.engines?.node && !semver.satisfies(node, locked.engines.node, { includePrerelease: true }),
    )
    .map(([where, locked]) => `${where}@${locked.version}: node ${locked.engines!.node}`);
}

// The root entry is typemcp itself; every other one is a package npm ci installs.
const installed = Object.entries(lock.packages).filter(([where]) => where !== "");

test("the lock is package.json's: the same engines for typemcp itself", () => {
  expect(lock.packages[""].engines).toEqual(manifest.engines);
});

test("both documented minimums are a Node 20", () => {
  expect(semver.major(USER_NODE)).toBe(20);
  expect(semver.major(contributorNode())).toBe(20);
});

test("what a user installs (typemcp's dependencies, all the way down) declares nothing Node 20.0 lacks", () => {
  const dependencies = installed.filter(([, locked]) => !locked.dev);
  expect(dependencies.length).toBeGreaterThan(0);
  expect(rejecting(USER_NODE, dependencies)).toEqual([]);
});

test("what a contributor installs (npm ci: the devDependencies too) declares nothing the documented Node lacks", () => {
  expect(rejecting(contributorNode(), installed)).toEqual([]);
});

test("the check finds a package that declares a later Node, as npm would warn about it", () => {
  const later: [string, LockedPackage][] = [
    ["node_modules/later", { version: "1.0.0", engines: { node: ">=22" } }],
    ["node_modules/any-20", { version: "1.0.0", engines: { node: "^20.19.0 || >=22" } }],
  ];
  expect(rejecting("20.0.0", later)).toEqual([
    "node_modules/later@1.0.0: node >=22",
    "node_modules/any-20@1.0.0: node ^20.19.0 || >=22",
  ]);
  expect(rejecting("20.19.0", later)).toEqual(["node_modules/later@1.0.0: node >=22"]);
});
