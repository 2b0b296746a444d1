/**
 * typemcp's declarations for the programs the tests compile in process (the fixtures, the
 * snippets, the generated type batches, the oracle's files, the language service's files).
 *
 * A user's program finds them in dist/ (the package's "types"). The tests find them in
 * .build/types instead, emitted from the runtime's sources by test/global-setup.ts: no build of
 * the package is needed, and the next run sees an edit to the runtime's types. The transformer
 * recognizes typemcp's declarations by the package they lie in (the nearest package.json), which
 * .build/types shares with dist/.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { ROOT } from "./root";

export const TYPES_OUT = path.join(ROOT, ".build", "types");
/** What `import ... from "typemcp"` resolves to in the tests' programs. */
export const RUNTIME_DECLARATIONS = path.join(TYPES_OUT, "runtime", "index.d.ts");
const RUNTIME = path.join(ROOT, "runtime");
/** The sources' fingerprint the declarations were emitted from. */
const STAMP = path.join(TYPES_OUT, "sources.sha256");

function sourcesFingerprint(): string {
  const hash = crypto.createHash("sha256").update(ts.version);
  for (const file of fs
    .readdirSync(RUNTIME)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    hash.update(`\0${file}\0`).update(fs.readFileSync(path.join(RUNTIME, file)));
  }
  return hash.digest("hex");
}

/**
 * Emits the runtime's declarations into .build/types with the package's own compiler options,
 * unless the runtime's sources are unchanged since the last emit (a watch run skips the ~3 s).
 * The runtime's type errors are the type-check's to report (`npm run typecheck`), not this.
 */
export function emitRuntimeDeclarations(): void {
  const fingerprint = sourcesFingerprint();
  if (fs.existsSync(RUNTIME_DECLARATIONS) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === fingerprint)
    return;
  fs.rmSync(TYPES_OUT, { recursive: true, force: true });
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    { declaration: true, emitDeclarationOnly: true, sourceMap: false, declarationMap: false, outDir: TYPES_OUT },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!parsed) throw new Error("cannot read tsconfig.json");
  const program = ts.createProgram({ rootNames: [path.join(RUNTIME, "index.ts")], options: parsed.options });
  const emitted = program.emit();
  if (emitted.emitSkipped || !fs.existsSync(RUNTIME_DECLARATIONS)) {
    throw new Error(
      `could not emit the runtime's declarations:\n${emitted.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("\n")}`,
    );
  }
  fs.writeFileSync(STAMP, fingerprint);
}

type ResolveModuleNameLiterals = NonNullable<ts.CompilerHost["resolveModuleNameLiterals"]>;

/**
 * Module resolution as the compiler's own, except that `typemcp` is the runtime's declarations
 * in .build/types. For a CompilerHost or a LanguageServiceHost (`host` reads the files).
 */
export function resolvingTypemcpToSources(
  host: ts.ModuleResolutionHost,
  options: ts.CompilerOptions,
): ResolveModuleNameLiterals {
  const cache = ts.createModuleResolutionCache(ROOT, (fileName) => fileName, options);
  const typemcp: ts.ResolvedModuleWithFailedLookupLocations = {
    resolvedModule: {
      resolvedFileName: RUNTIME_DECLARATIONS,
      extension: ts.Extension.Dts,
      isExternalLibraryImport: false,
    },
  };
  return (literals, containingFile, redirectedReference, compilerOptions, containingSourceFile) =>
    literals.map((literal) =>
      literal.text === "typemcp"
        ? typemcp
        : ts.resolveModuleName(
            literal.text,
            containingFile,
            compilerOptions,
            host,
            cache,
            redirectedReference,
            ts.getModeForUsageLocation(containingSourceFile, literal, compilerOptions),
          ),
    );
}

/** A compiler host whose programs resolve `typemcp` to the runtime's sources' declarations. */
export function withTypemcpFromSources(host: ts.CompilerHost, options: ts.CompilerOptions): ts.CompilerHost {
  host.resolveModuleNameLiterals = resolvingTypemcpToSources(host, options);
  return host;
}
