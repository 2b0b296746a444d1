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
 *
 * This entry (the package's `typemcp/language-service`) loads nothing of typemcp's compiler
 * until it knows the TypeScript runs it (transformer/typescript.ts): then the plugin itself,
 * transformer/ts5/language-service.ts.
 */
import type ts from "typescript";
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
      const { withTypemcpDiagnostics } = require("./ts5/language-service") as typeof import("./ts5/language-service");
      return withTypemcpDiagnostics(service, log);
    },
  };
}

export = init;
