/**
 * The import graph of the package's sources, and the cycles in it. An edge is any relative
 * module a file names: `import` and `export … from` (types only included: a cycle of types
 * still ties the files together, and is one `import type` away from a cycle at load time),
 * `require("./x")` and `import("./x")` types. Read with TypeScript's parser, without a program.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

/** Each file (a path from the root) and the files it imports, in the order it names them. */
export type ImportGraph = Map<string, string[]>;

/** The relative module specifiers a source names, as written. */
export function specifiersOf(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0]) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    )
      found.push(node.arguments[0].text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push(node.argument.literal.text);
    node.forEachChild(visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith("."));
}

/** The graph of the `.ts` files below `folders` of `root` (declarations left out), edges resolved as TypeScript resolves them. */
export function importGraph(root: string, folders: string[]): ImportGraph {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of fs.readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const file = path.posix.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith(".ts") && !file.endsWith(".d.ts")) files.push(file);
    }
  };
  folders.forEach(walk);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files.sort()) {
    const targets: string[] = [];
    for (const specifier of specifiersOf(file, fs.readFileSync(path.join(root, file), "utf8"))) {
      const base = path.posix.join(path.posix.dirname(file), specifier);
      const target = [`${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
      if (target && !targets.includes(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The cycles of a graph: one for each set of files that reach one another (a strongly
 * connected component, Tarjan's algorithm), written as the shortest way round from its first
 * file (`a.ts → b.ts → a.ts`); a file that imports itself is one.
 */
export function importCycles(graph: ImportGraph): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strongConnect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        strongConnect(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) strongConnect(file);
  return components.map((component) => shortestWayRound(graph, component[0], new Set(component)).join(" → "));
}

/** The shortest path from `start` back to it, inside `within` (breadth first). */
function shortestWayRound(graph: ImportGraph, start: string, within: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!within.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === start) {
        const way: string[] = [];
        for (let at = file; at !== start; at = cameFrom.get(at)!) way.unshift(at);
        return [start, ...way, start];
      }
      queue.push(next);
    }
  }
  return [start];
}
