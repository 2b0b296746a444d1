/**
 * TypeScript 7's API modules, loaded from its package: the checker API (`sync`), the syntax
 * tree's type guards (`ast/is`) and its SyntaxKind. They are ES modules, which Node 20.19 and
 * later load with require().
 *
 * Where they are depends on the minor version: 7.0 exports them under `typescript/unstable/`,
 * 7.1 at the top (`typescript/sync`, `typescript/ast`, `typescript/ast/is`). The package's own
 * `exports` say which it has; a TypeScript 7 with neither is one typemcp does not know, and
 * says so in one line rather than failing inside Node's resolver.
 */
import * as fs from "node:fs";
import Module from "node:module";
import * as path from "node:path";
import type * as ts from "typescript";
import { SUPPORTED_TYPESCRIPT, UnsupportedTypeScript } from "../typescript";

type Guard = (node: ts.Node) => boolean;

export interface Ts7Modules {
  /** The package's folder. */
  readonly directory: string;
  readonly version: string;
  /** Where its API was found: `typescript/unstable/sync` (7.0) or `typescript/sync` (7.1). */
  readonly location: string;
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

/** The API's places, newest first: each a prefix of `sync`, `ast` and `ast/is`. */
export const TS7_API_LOCATIONS = [
  { prefix: "typescript/", since: "7.1" },
  { prefix: "typescript/unstable/", since: "7.0" },
] as const;

/** The prefix under which this TypeScript 7 package exports its API, if it exports it where typemcp knows. */
export function ts7ApiPrefix(directory: string): string | undefined {
  const manifest = JSON.parse(fs.readFileSync(path.join(directory, "package.json"), "utf8")) as {
    exports?: Record<string, unknown>;
  };
  const exported = (subpath: string) => manifest.exports !== undefined && `./${subpath}` in manifest.exports;
  return TS7_API_LOCATIONS.map((l) => l.prefix).find((prefix) =>
    ["sync", "ast", "ast/is"].every((module) => exported(`${prefix.slice("typescript/".length)}${module}`)),
  );
}

export function loadTs7Modules(directory: string): Ts7Modules {
  // Resolved as the package resolves its own exports (its name is `typescript`, whatever folder it was installed to).
  const load = Module.createRequire(path.join(directory, "package.json"));
  const version = (load("./package.json") as { version: string }).version;
  const prefix = ts7ApiPrefix(directory);
  if (prefix === undefined) {
    const known = TS7_API_LOCATIONS.map((l) => `${l.prefix}sync (${l.since})`).join(" nor ");
    throw new UnsupportedTypeScript(
      `TypeScript ${version} exports its API at neither ${known}, the places typemcp knows: typemcp supports ${SUPPORTED_TYPESCRIPT} (npm install --save-dev typescript@~7.0.2)`,
    );
  }
  let sync: Ts7Modules["sync"];
  let is: Ts7Modules["is"];
  let ast: { SyntaxKind: Ts7Modules["SyntaxKind"]; NodeFlags: Ts7Modules["NodeFlags"] };
  try {
    sync = load(`${prefix}sync`);
    is = load(`${prefix}ast/is`);
    ast = load(`${prefix}ast`);
  } catch (error) {
    const [major, minor] = process.versions.node.split(".").map(Number);
    if ((error as { code?: string }).code === "ERR_REQUIRE_ESM" && (major < 20 || (major === 20 && minor < 19))) {
      throw new UnsupportedTypeScript(
        `TypeScript ${version}'s API is made of ES modules, which this Node.js (${process.version}) cannot load from typemcp: use Node.js 20.19 or later`,
        { cause: error },
      );
    }
    throw error;
  }
  return {
    directory,
    version,
    location: `${prefix}sync`,
    sync,
    is,
    SyntaxKind: ast.SyntaxKind,
    NodeFlags: ast.NodeFlags,
    TypeFlags: sync.TypeFlags,
    SymbolFlags: sync.SymbolFlags,
  };
}
