/**
 * The editor plugin on TypeScript 5 and 6 (its entry, transformer/language-service.ts, decides
 * that it runs): the language service's semantic diagnostics, with typemcp's for the file added.
 */
import type ts from "typescript";
import { DiagnosticCategory } from "../checker/flags";
import { ContractCompiler } from "../compile";
import { Ts5Checker } from "./checker";

/**
 * typemcp's diagnostics for the registrations and the ctx.elicit<T>() forms in one file: what the transformer reports for
 * them in a tspc build. A diagnostic about another file (the registered function's return type,
 * declared elsewhere) is shown on the registration, with the other place as related information.
 */
function fileDiagnostics(compiler: ContractCompiler, sourceFile: ts.SourceFile): ts.Diagnostic[] {
  const found: ts.Diagnostic[] = [];
  for (const { call, registration } of compiler.registrationsIn(sourceFile)) {
    for (const diagnostic of compiler.compileSafely(call, registration).diagnostics as ts.Diagnostic[]) {
      found.push(diagnostic.file === sourceFile ? diagnostic : relocated(diagnostic, call, sourceFile));
    }
  }
  // The forms of its ctx.elicit<T>() calls: their diagnostics are at the call.
  for (const call of compiler.formsIn(sourceFile))
    found.push(...(compiler.compileFormSafely(call).diagnostics as ts.Diagnostic[]));
  return found;
}

function relocated(diagnostic: ts.Diagnostic, call: ts.CallExpression, sourceFile: ts.SourceFile): ts.Diagnostic {
  const elsewhere: ts.DiagnosticRelatedInformation = {
    category: DiagnosticCategory.Message,
    code: diagnostic.code,
    file: diagnostic.file,
    start: diagnostic.start,
    length: diagnostic.length,
    messageText: "The type typemcp reports on is declared here.",
  };
  return {
    ...diagnostic,
    file: sourceFile,
    start: call.getStart(sourceFile),
    length: call.getWidth(sourceFile),
    relatedInformation: [...(diagnostic.relatedInformation ?? []), elsewhere],
  };
}

/** The language service, its semantic diagnostics with typemcp's added; a failure is logged, and the compiler's kept. */
export function withTypemcpDiagnostics(
  service: ts.LanguageService,
  log: (message: string) => void,
): ts.LanguageService {
  const proxy = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(service)) {
    const member = (service as unknown as Record<string, unknown>)[key];
    proxy[key] = typeof member === "function" ? (...args: unknown[]) => member.apply(service, args) : member;
  }

  // One compiler per program: its type cache serves every file until the program changes.
  let current: { program: ts.Program; compiler: ContractCompiler } | undefined;
  const compilerFor = (program: ts.Program): ContractCompiler => {
    if (current?.program !== program)
      current = { program, compiler: new ContractCompiler(new Ts5Checker(program.getTypeChecker(), program)) };
    return current.compiler;
  };

  proxy.getSemanticDiagnostics = (fileName: string): ts.Diagnostic[] => {
    const original = service.getSemanticDiagnostics(fileName);
    try {
      const program = service.getProgram();
      const sourceFile = program?.getSourceFile(fileName);
      if (!program || !sourceFile || sourceFile.isDeclarationFile) return original;
      const typemcp = fileDiagnostics(compilerFor(program), sourceFile);
      return typemcp.length ? [...original, ...typemcp] : original;
    } catch (error) {
      log(`could not check ${fileName}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return original;
    }
  };
  return proxy as unknown as ts.LanguageService;
}
