import ts from "typescript";
import { Ts5Checker } from "./checker";
import { ToolCompiler, type CompiledForm, type CompiledRegistration } from "../compile";
import { contractExpression } from "../emit";
import { FORM_INDEX } from "../form/elicit";
import { optionsIndex, type Registration } from "../registration";

export interface TransformerHost {
  /** Receives typemcp's diagnostics (ts-patch passes its `addDiagnostic`; tsc then prints them). */
  addDiagnostic(diagnostic: ts.Diagnostic): unknown;
  /** Told of each registration compiled (typemcp build counts them, by kind). */
  compiled?(registration: Registration): void;
}

/**
 * The source transformer: every `mcp.tool(fn, options?)` is printed as
 * `mcp.tool(fn, options, <contract>)`, and `mcp.prompt` and `mcp.resource(uri, fn, options?)`
 * likewise, and every `ctx.elicit<T>(message, options?)` as `ctx.elicit<T>(message, options,
 * <form>)` (see contract/contract.ts); problems are reported as diagnostics. It never throws out of the compiler: an unexpected failure on one
 * registration becomes a diagnostic, and that registration fails at run time with it.
 *
 * The call is rewritten as it is printed (a substitution), not by rebuilding the tree: the
 * printer visits every node anyway, and the tree would otherwise be walked once more to find
 * the registrations and rebuilt from each one up to its file. What is printed is the call as
 * the other transforms left it (arguments lowered, decorators moved); its original node is
 * the one the type checker knows.
 */
export function createTransformer(program: ts.Program, host: TransformerHost): ts.TransformerFactory<ts.SourceFile> {
  const compiler = new ToolCompiler(new Ts5Checker(program.getTypeChecker(), program));
  // By original call: a transform that prints a call twice does not compile or report it twice.
  const compiled = new Map<ts.CallExpression, CompiledRegistration>();
  const forms = new Map<ts.CallExpression, CompiledForm>();
  return (context) => {
    const { factory } = context;
    context.enableSubstitution(ts.SyntaxKind.CallExpression);
    const previous = context.onSubstituteNode;
    context.onSubstituteNode = (hint, node) => {
      node = previous(hint, node);
      if (!ts.isCallExpression(node)) return node;
      const original = ts.getOriginalNode(node);
      if (!ts.isCallExpression(original) || !ts.isParseTreeNode(original)) return node;
      const registration = compiler.registrationToCompile(original);
      if (!registration) return compiler.formToCompile(original) ? withForm(node, original) : node;
      let result = compiled.get(original);
      if (!result) {
        compiled.set(original, (result = compiler.compileSafely(original, registration)));
        host.compiled?.(registration);
        for (const diagnostic of result.diagnostics) host.addDiagnostic(diagnostic as ts.Diagnostic);
      }
      // The arguments up to the options, `void 0` for any left out, then the contract: always in its place.
      const args = [
        ...Array.from(
          { length: optionsIndex(registration) + 1 },
          (_, i) => node.arguments[i] ?? factory.createVoidZero(),
        ),
        contractExpression(result.contract, factory),
      ];
      return factory.updateCallExpression(node, node.expression, node.typeArguments, args);
    };
    /** `ctx.elicit(message, options?)` printed with its form after the options (`void 0` for those left out). */
    const withForm = (node: ts.CallExpression, original: ts.CallExpression): ts.CallExpression => {
      let result = forms.get(original);
      if (!result) {
        forms.set(original, (result = compiler.compileFormSafely(original)));
        for (const diagnostic of result.diagnostics) host.addDiagnostic(diagnostic as ts.Diagnostic);
      }
      if (result.unwritten) return node;
      const args = [
        ...Array.from({ length: FORM_INDEX }, (_, i) => node.arguments[i] ?? factory.createVoidZero()),
        contractExpression(result.form, factory),
      ];
      return factory.updateCallExpression(node, node.expression, node.typeArguments, args);
    };
    return (sourceFile) => sourceFile;
  };
}

/** What ts-patch's plugin entry (index.ts) makes of its call: tsc prints the diagnostics it is handed. */
export function typemcpTransformer(
  program: ts.Program,
  _config?: unknown,
  extras?: Partial<TransformerHost>,
): ts.TransformerFactory<ts.SourceFile> {
  const host: TransformerHost = {
    addDiagnostic:
      extras?.addDiagnostic ?? ((diagnostic) => console.error(ts.formatDiagnostic(diagnostic, formatHost))),
  };
  return createTransformer(program, host);
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (fileName) => fileName,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => "\n",
};
