import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { createTransformer } from "typemcp/transformer";
import { ROOT, summarize, tscCompilerHost, type DiagnosticSummary } from "./build";
import { withTypemcpFromSources } from "./package-types";

export interface SnippetResult {
  /** typemcp's diagnostics for this snippet, file relative to its folder. */
  diagnostics: DiagnosticSummary[];
  /** The compiler's own diagnostics, formatted. */
  compilerErrors: string[];
  /** The emitted JavaScript. */
  js: string;
}

/**
 * Compiles several small sources in one program (one program is much faster than one per
 * snippet), each as `<name>.ts` in a folder under .build/ inside the package. `import ... from
 * "typemcp"` gets the runtime's sources' declarations (test/support/package-types.ts). The JSDoc
 * is parsed as tsc parses it unless `jsDocParsingMode` says otherwise (an editor parses it all).
 */
export function compileSnippets(
  folder: string,
  sources: Record<string, string>,
  wrap?: (program: ts.Program) => ts.Program,
  options: ts.CompilerOptions = {},
  jsDocParsingMode?: ts.JSDocParsingMode,
): Record<string, SnippetResult> {
  const dir = snippetDir(folder);
  const program = snippetProgram(folder, sources, options, jsDocParsingMode);
  const typemcp: ts.Diagnostic[] = [];
  const outputs = new Map<string, string>();
  const compiler = [...ts.getPreEmitDiagnostics(program)];
  program.emit(undefined, (fileName, text) => outputs.set(fileName, text), undefined, false, {
    before: [createTransformer(wrap ? wrap(program) : program, { addDiagnostic: (d) => typemcp.push(d) })],
  });
  const results: Record<string, SnippetResult> = {};
  for (const [name] of Object.entries(sources)) {
    const file = path.join(dir, `${name}.ts`);
    results[name] = {
      diagnostics: typemcp.filter((d) => d.file!.fileName === file).map((d) => summarize(d, dir)),
      compilerErrors: compiler
        .filter((d) => d.file?.fileName === file)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
      js: outputs.get(path.join(dir, "out", `${name}.js`)) ?? "",
    };
  }
  return results;
}

function snippetDir(folder: string): string {
  return path.join(ROOT, ".build", "snippets", folder);
}

/** The program of the snippets, written as `<name>.ts` files in their folder (not emitted); `options` over snippetOptions'. */
export function snippetProgram(
  folder: string,
  sources: Record<string, string>,
  options: ts.CompilerOptions = {},
  jsDocParsingMode?: ts.JSDocParsingMode,
): ts.Program {
  const dir = snippetDir(folder);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const files = Object.entries(sources).map(([name, code]) => {
    const file = path.join(dir, `${name}.ts`);
    fs.writeFileSync(file, code);
    return file;
  });
  const compilerOptions = snippetOptions(dir, options);
  const host = withTypemcpFromSources(tscCompilerHost(compilerOptions, jsDocParsingMode), compilerOptions);
  return ts.createProgram({ rootNames: files, options: compilerOptions, host });
}

/** The compiler options of a test project in `dir` (sources there, output in `dir/out`): a strict CommonJS build, as the quick start's. */
export function snippetOptions(dir: string, extra: ts.CompilerOptions = {}): ts.CompilerOptions {
  return {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    strict: true,
    skipLibCheck: true,
    types: [],
    outDir: path.join(dir, "out"),
    rootDir: dir,
    ...extra,
  };
}
