import * as ts from "typescript";
import { failedRegistration, ToolCompiler, type CompiledRegistration } from "./compile";
import { DiagnosticCode, diagnosticAt } from "./diagnostics";
import { jsonToExpression } from "./emit";

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
    const compile = (call: ts.CallExpression): CompiledRegistration => {
      try {
        return compiler.compile(call);
      } catch (cause) {
        const message = `typemcp could not compile this tool registration (please report it): ${cause instanceof Error ? cause.stack ?? cause.message : String(cause)}`;
        return failedRegistration([diagnosticAt(call, ts.DiagnosticCategory.Error, DiagnosticCode.InternalError, message)]);
      }
    };
    const isRegistration = (node: ts.Node): node is ts.CallExpression => {
      try {
        return ts.isCallExpression(node) && node.arguments.length < 3 && compiler.isRegistration(node);
      } catch {
        return false;
      }
    };
    const visit = (node: ts.Node): ts.Node => {
      const visited = ts.visitEachChild(node, visit, context);
      if (!isRegistration(node)) return visited;
      const { contract, diagnostics } = compile(node);
      for (const diagnostic of diagnostics) host.addDiagnostic(diagnostic);
      const call = visited as ts.CallExpression;
      const options = call.arguments[1] ?? factory.createVoidZero();
      return factory.updateCallExpression(call, call.expression, call.typeArguments, [call.arguments[0], options, jsonToExpression(contract, factory)]);
    };
    return (sourceFile) => (sourceFile.isDeclarationFile ? sourceFile : (ts.visitEachChild(sourceFile, visit, context) as ts.SourceFile));
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
