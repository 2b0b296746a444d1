/**
 * typemcp's TypeScript language-service plugin: the editor shows typemcp's diagnostics
 * (TS93001–TS93099) as you type, where tspc would print them.
 *
 * tsconfig.json: `"plugins": [{ "name": "typemcp/language-service" }]` (next to the
 * `{ "transform": "typemcp/transformer" }` entry, if any). Editors load it through tsserver;
 * in VS Code, select the workspace's TypeScript version.
 *
 * The plugin never throws out of the language service: when typemcp fails on a file, the
 * editor gets the compiler's own diagnostics for it, and the failure goes to tsserver's log.
 */
import type ts from "typescript";
import type { ToolCompiler } from "./compile";
import { DiagnosticCategory } from "./checker/flags";
import { backendOf, BUILD_WITH_TS7 } from "./typescript";

/** What tsserver passes to a plugin's factory. */
interface PluginModules {
  typescript: typeof ts;
}

/** The subset of ts.server.PluginCreateInfo the plugin uses (all of it optional but the language service). */
interface PluginCreateInfo {
  languageService: ts.LanguageService;
  project?: { projectService?: { logger?: { info(message: string): void } } };
}

/** Same major.minor: the syntax kinds and flags typemcp's compiler reads are then the editor's too. */
function sameVersion(a: string, b: string): boolean {
  return a.split(".").slice(0, 2).join(".") === b.split(".").slice(0, 2).join(".");
}

/**
 * typemcp's diagnostics for the registrations and the ctx.elicit<T>() forms in one file: what the transformer reports for
 * them in a tspc build. A diagnostic about another file (the registered function's return type,
 * declared elsewhere) is shown on the registration, with the other place as related information.
 */
function fileDiagnostics(compiler: ToolCompiler, sourceFile: ts.SourceFile): ts.Diagnostic[] {
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

function init(modules: PluginModules) {
  const editorTypescript = modules.typescript;
  return {
    create(info: PluginCreateInfo): ts.LanguageService {
      const service = info.languageService;
      const log = (message: string) => {
        try {
          info.project?.projectService?.logger?.info(`typemcp: ${message}`);
        } catch {
          // no log, then
        }
      };
      // typemcp's compiler runs on the `typescript` the project installed: loaded only once it is known to be 5 or 6.
      const installed = (require("typescript") as { version?: string }).version ?? "unknown";
      if (backendOf(installed) === "ts7") {
        log(
          `language-service plugin disabled: the project installed TypeScript ${installed}, whose language server loads no plugins; run \`npx typemcp check --watch\` for typemcp's diagnostics as you edit, and build with \`${BUILD_WITH_TS7}\``,
        );
        return service;
      }
      if (!sameVersion(editorTypescript.version, installed)) {
        log(
          `language-service plugin disabled: the editor runs TypeScript ${editorTypescript.version}, typemcp loaded ${installed} (select the workspace's TypeScript version in the editor)`,
        );
        return service;
      }
      const { Ts5Checker } = require("./ts5/checker") as typeof import("./ts5/checker");
      const compile = require("./compile") as typeof import("./compile");

      const proxy = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(service)) {
        const member = (service as unknown as Record<string, unknown>)[key];
        proxy[key] = typeof member === "function" ? (...args: unknown[]) => member.apply(service, args) : member;
      }

      // One compiler per program: its type cache serves every file until the program changes.
      let current: { program: ts.Program; compiler: ToolCompiler } | undefined;
      const compilerFor = (program: ts.Program): ToolCompiler => {
        if (current?.program !== program)
          current = { program, compiler: new compile.ToolCompiler(new Ts5Checker(program.getTypeChecker(), program)) };
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
          log(
            `could not check ${fileName}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
          return original;
        }
      };
      return proxy as unknown as ts.LanguageService;
    },
  };
}

export = init;
