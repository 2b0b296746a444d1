/**
 * Small projects on disk under .build/build-modes/, built the ways tsc builds: a plain program,
 * `--incremental` (a builder program and its .tsbuildinfo), `--watch` (a watch program whose
 * file watchers the test fires itself) and `--build` with project references (a solution
 * builder), each with the typemcp transformer passed as tspc would pass it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { CONTRACT_TEXT, evaluateContract } from "./emitted-contracts";
import { snippetOptions } from "./snippets";
import { createTransformer } from "typemcp/transformer";
import { ROOT } from "./build";

export const MODES_DIR = path.join(ROOT, ".build", "build-modes");

/** A fresh folder with these files (paths relative to it). */
export function writeProject(name: string, files: Record<string, string>): string {
  const dir = path.join(MODES_DIR, name);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) writeFile(dir, file, text);
  return dir;
}

export function writeFile(dir: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}

/** Every file under `dir`, by path relative to it. */
export function readTree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(dir, full)] = fs.readFileSync(full, "utf8");
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return files;
}

/** The options the projects share (tsconfig.json's, as the quick start writes them). */
export function projectOptions(dir: string, extra: ts.CompilerOptions = {}): ts.CompilerOptions {
  return snippetOptions(dir, { rootDir: path.join(dir, "src"), ...extra });
}

export function sourcesOf(dir: string): string[] {
  return fs
    .readdirSync(path.join(dir, "src"))
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => path.join(dir, "src", f));
}

export interface Emitted {
  /** Emitted files, by path relative to the project folder. */
  files: Record<string, string>;
  typemcp: ts.Diagnostic[];
  compiler: readonly ts.Diagnostic[];
}

/** One emit of a program (or builder program) with or without the transformer; files are also written to disk. */
export function emitWith(program: ts.Program | ts.BuilderProgram, dir: string, transform: boolean): Emitted {
  const files: Record<string, string> = {};
  const typemcp: ts.Diagnostic[] = [];
  const inner = "getProgram" in program ? program.getProgram() : program;
  const result = program.emit(
    undefined,
    (fileName, text) => {
      files[path.relative(dir, fileName)] = text;
      writeFile(dir, path.relative(dir, fileName), text);
    },
    undefined,
    false,
    transform ? { before: [createTransformer(inner, { addDiagnostic: (d) => typemcp.push(d) })] } : undefined,
  );
  return { files, typemcp, compiler: [...ts.getPreEmitDiagnostics(inner), ...result.diagnostics] };
}

/** A contract literal as an emitted module holds it. */
interface EmittedContract {
  description?: string;
  params: string[];
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  error?: string;
}

/** The contract literals of an emitted module, by tool name, parsed (they are JSON-like object literals). */
export function contractsIn(js: string): Record<string, EmittedContract> {
  const contracts: Record<string, never> = {};
  const file = ts.createSourceFile("out.js", js, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && CONTRACT_TEXT.test(node.getText(file))) {
      const contract = evaluateContract(node.getText(file));
      contracts[contract.name] = contract as never;
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return contracts;
}

export function formatted(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}
