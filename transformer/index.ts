import ts from "typescript";
import { ToolCompiler } from "./compile";
import { contractExpression } from "./emit";
import type { Registration } from "./registration";

export { ToolCompiler, type CompiledRegistration } from "./compile";
export { DiagnosticCode } from "./diagnostics";

export interface TransformerHost {
  /** Receives typemcp's diagnostics (ts-patch passes its `addDiagnostic`; tsc then prints them). */
  addDiagnostic(diagnostic: ts.Diagnostic): unknown;
}

/**
 * The source transformer: rewrites every `mcp.tool(fn, options?)` into
 * `mcp.tool(fn, options, <contract>)` (see runtime/contract.ts) and reports problems as
 * diagnostics. It never throws out of the compiler: an unexpected failure on one
 * registration becomes a diagnostic, and that registration fails at run time with it.
 */
export function createTransformer(program: ts.Program, host: TransformerHost): ts.TransformerFactory<ts.SourceFile> {
  const compiler = new ToolCompiler(program);
  return (context) => {
    const { factory } = context;
    // The registrations of the file being transformed, and every node on the way to one: only
    // those are visited (rebuilding every node of every file would cost more than the tools).
    let registrations = new Map<ts.Node, Registration>();
    let onPath = new Set<ts.Node>();
    const visit = (node: ts.Node): ts.Node => {
      if (!onPath.has(node)) return node;
      const visited = ts.visitEachChild(node, visit, context);
      const registration = registrations.get(node);
      if (!registration) return visited;
      const call = visited as ts.CallExpression;
      const { contract, diagnostics } = compiler.compileSafely(node as ts.CallExpression);
      for (const diagnostic of diagnostics) host.addDiagnostic(diagnostic);
      const optionsAt = registration.kind === "call" ? 1 : 0;
      const args = [...call.arguments.slice(0, optionsAt), call.arguments[optionsAt] ?? factory.createVoidZero(), contractExpression(contract, factory)];
      return factory.updateCallExpression(call, call.expression, call.typeArguments, args);
    };
    return (sourceFile) => {
      if (sourceFile.isDeclarationFile) return sourceFile;
      registrations = new Map();
      onPath = new Set();
      for (const { call, registration } of compiler.registrationsIn(sourceFile)) {
        registrations.set(call, registration);
        for (let at: ts.Node | undefined = call; at && !onPath.has(at); at = at.parent) onPath.add(at);
      }
      return registrations.size ? (ts.visitEachChild(sourceFile, visit, context) as ts.SourceFile) : sourceFile;
    };
  };
}

/** ts-patch's "program" plugin entry: `{ "transform": "typemcp/transformer" }` in tsconfig.json's `plugins`. */
export default function typemcpTransformer(program: ts.Program, _config?: unknown, extras?: Partial<TransformerHost>): ts.TransformerFactory<ts.SourceFile> {
  const host: TransformerHost = {
    addDiagnostic: extras?.addDiagnostic ?? ((diagnostic) => console.error(ts.formatDiagnostic(diagnostic, formatHost))),
  };
  return createTransformer(program, host);
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => "\n",
};
