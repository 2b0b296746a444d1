import * as ts from "typescript";
import { failedRegistration, ToolCompiler, type CompiledRegistration } from "./compile";
import type { Registration } from "./registration";
import { DiagnosticCode, diagnosticAt } from "./diagnostics";
import { contractExpression } from "./emit";

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
    const registrationOf = (node: ts.Node) => {
      try {
        return ts.isCallExpression(node) ? compiler.registrationOf(node) : undefined;
      } catch {
        return undefined;
      }
    };
    // The registrations of the file being transformed, and every node on the way to one: only
    // those are visited (rebuilding every node of every file would cost more than the tools).
    let registrations = new Map<ts.Node, Registration>();
    let onPath = new Set<ts.Node>();
    const find = (sourceFile: ts.SourceFile) => {
      registrations = new Map();
      onPath = new Set();
      const scan = (node: ts.Node): void => {
        // Types hold no registrations.
        if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
        const registration = registrationOf(node);
        if (registration) {
          registrations.set(node, registration);
          for (let at: ts.Node | undefined = node; at && !onPath.has(at); at = at.parent) onPath.add(at);
        }
        ts.forEachChild(node, scan);
      };
      scan(sourceFile);
    };
    const visit = (node: ts.Node): ts.Node => {
      if (!onPath.has(node)) return node;
      const visited = ts.visitEachChild(node, visit, context);
      const registration = registrations.get(node);
      if (!registration) return visited;
      const call = visited as ts.CallExpression;
      // A call that already carries its contract (written by hand, or from a manifest) is left as it is.
      const optionsAt = registration.kind === "call" ? 1 : 0;
      if (call.arguments.length > optionsAt + 1) return visited;
      const { contract, diagnostics } = compile(node as ts.CallExpression);
      for (const diagnostic of diagnostics) host.addDiagnostic(diagnostic);
      const args = [...call.arguments.slice(0, optionsAt), call.arguments[optionsAt] ?? factory.createVoidZero(), contractExpression(contract, factory)];
      return factory.updateCallExpression(call, call.expression, call.typeArguments, args);
    };
    return (sourceFile) => {
      if (sourceFile.isDeclarationFile) return sourceFile;
      find(sourceFile);
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
