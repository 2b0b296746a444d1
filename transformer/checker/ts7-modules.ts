/**
 * TypeScript 7's API modules, loaded from its package: the checker API (`unstable/sync`), the
 * syntax tree's type guards (`unstable/ast/is`) and its SyntaxKind. They are ES modules, which
 * Node 20.19 and later load with require().
 */
import Module from "node:module";
import * as path from "node:path";
import type * as ts from "typescript";

type Guard = (node: ts.Node) => boolean;

export interface Ts7Modules {
  /** The package's folder. */
  readonly directory: string;
  readonly version: string;
  readonly sync: {
    API: new (options: { cwd?: string; tsserverPath?: string }) => unknown;
    TypeFlags: Record<string, number | string>;
    SymbolFlags: Record<string, number | string>;
    DiagnosticCategory: Record<string, number | string>;
  };
  readonly is: Record<string, Guard>;
  readonly SyntaxKind: Record<string, number> & typeof ts.SyntaxKind;
  /** The syntax tree's node flags (`Const` on a `const` declaration list). */
  readonly NodeFlags: { Const: number };
  readonly TypeFlags: Record<string, number | string>;
  readonly SymbolFlags: Record<string, number | string>;
}

export function loadTs7Modules(directory: string): Ts7Modules {
  // Resolved as the package resolves its own exports (its name is `typescript`, whatever folder it was installed to).
  const load = Module.createRequire(path.join(directory, "package.json"));
  const version = (load("./package.json") as { version: string }).version;
  let sync: Ts7Modules["sync"];
  let is: Ts7Modules["is"];
  let ast: { SyntaxKind: Ts7Modules["SyntaxKind"]; NodeFlags: Ts7Modules["NodeFlags"] };
  try {
    sync = load("typescript/unstable/sync");
    is = load("typescript/unstable/ast/is");
    ast = load("typescript/unstable/ast");
  } catch (error) {
    const [major, minor] = process.versions.node.split(".").map(Number);
    if ((error as { code?: string }).code === "ERR_REQUIRE_ESM" && (major < 20 || (major === 20 && minor < 19))) {
      throw new Error(
        `TypeScript ${version}'s API is made of ES modules, which this Node.js (${process.version}) cannot load from typemcp: use Node.js 20.19 or later`,
        { cause: error },
      );
    }
    throw error;
  }
  return {
    directory,
    version,
    sync,
    is,
    SyntaxKind: ast.SyntaxKind,
    NodeFlags: ast.NodeFlags,
    TypeFlags: sync.TypeFlags,
    SymbolFlags: sync.SymbolFlags,
  };
}
