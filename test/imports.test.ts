/**
 * The package's sources (contract/, runtime/, transformer/, cli/) import one another without a cycle. A
 * cycle ties its files together (none can be read, tested or loaded without the others) and, at
 * load time, hands one of them a module that has not finished loading. Where two parts need
 * each other, the interface goes into a file of its own and one place wires the parts together:
 * the parsers and the modeler (transformer/model/parser.ts, handed the list by the compiler),
 * the formatters and the schema writer (transformer/schema/formatter.ts, root.ts).
 */
import { ROOT } from "./support/build";
import { importCycles, importGraph, specifiersOf, type ImportGraph } from "./support/imports";

test("contract/, runtime/, transformer/ and cli/ import one another without a cycle", () => {
  const graph = importGraph(ROOT, ["contract", "runtime", "transformer", "cli"]);
  expect(graph.get("transformer/compile.ts")).toContain("transformer/model/parsers/index.ts");
  expect(importCycles(graph)).toEqual([]);
});

test("the contract is its own folder: it imports neither half, and the transformer takes nothing of runtime/ but the pattern engine", () => {
  const graph = importGraph(ROOT, ["contract", "runtime", "transformer", "cli"]);
  const crossing = (from: string, to: string) =>
    [...graph].flatMap(([file, targets]) =>
      file.startsWith(from)
        ? targets.filter((target) => target.startsWith(to)).map((target) => `${file} → ${target}`)
        : [],
    );
  expect(graph.get("transformer/compile-tool.ts")).toContain("contract/contract.ts");
  expect([...crossing("contract/", "runtime/"), ...crossing("contract/", "transformer/")]).toEqual([]);
  // The build asks the runtime's linear-time engine whether a pattern runs on it (transformer/problems.ts).
  expect(crossing("transformer/", "runtime/")).toEqual(["transformer/problems.ts → runtime/linear-regexp.ts"]);
});

test("every relative module a source names is an edge: imports and exports, types only too, require() and import() types", () => {
  const text = [
    'import { a } from "./a";',
    'import type { B } from "../b";',
    'export { c } from "./c";',
    'export type * from "./d";',
    'import * as fs from "node:fs";',
    'const e = require("./e") as typeof import("./f");',
    "type G = import('./g').G;",
    'async function h() { return import("./h"); }',
  ].join("\n");
  expect(specifiersOf("x.ts", text)).toEqual(["./a", "../b", "./c", "./d", "./e", "./f", "./g", "./h"]);
});

test("a cycle is named by the shortest way round it, once for each set of files caught in one; a file importing itself is one", () => {
  const graph: ImportGraph = new Map([
    ["modeler.ts", ["parsers/index.ts", "size.ts"]],
    ["parsers/index.ts", ["parsers/union.ts"]],
    ["parsers/union.ts", ["modeler.ts", "size.ts"]],
    ["size.ts", []],
    ["writer.ts", ["formatters.ts"]],
    ["formatters.ts", ["writer.ts"]],
    ["self.ts", ["self.ts"]],
  ]);
  expect(importCycles(graph).sort()).toEqual([
    "formatters.ts → writer.ts → formatters.ts",
    "modeler.ts → parsers/index.ts → parsers/union.ts → modeler.ts",
    "self.ts → self.ts",
  ]);
  graph.set("parsers/union.ts", ["size.ts"]);
  graph.set("formatters.ts", []);
  graph.set("self.ts", []);
  expect(importCycles(graph)).toEqual([]);
});
