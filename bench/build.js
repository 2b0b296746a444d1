// Builds a generated project with the TypeScript API, as tspc would: one program, type-check,
// emit with the typemcp transformer as a `before` transformer (test/support/build.ts does the
// same). Without the transformer it is what plain tsc does with the same program.
//
// As a child process: `node bench/build.js <project>` builds it once with the transformer and
// writes the output; `node bench/build.js <project> once <plain|typemcp>` builds once in
// memory and prints the time of each phase, and the process's CPU time, as one JSON line (`plain-all`: plain, with every
// JSDoc comment parsed, what a build would cost if typemcp could not parse the few it reads
// itself). One build per process, as tsc runs: the JIT starts cold, and neither build's code
// paths shape the other's.
"use strict";
const path = require("node:path");
const ts = require("typescript");
const { createTransformer } = require("../dist/transformer/index.js");

function format(diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => "\n",
  });
}

/**
 * Type-checks and emits; `transform`: with the typemcp transformer. Returns the time (ms) of
 * each phase — creating the program, type-checking, emitting (transformer included) — the
 * time spent inside the transformer, and the bytes emitted. `write: false` keeps the output
 * in memory: writing thousands of files is the same for both builds, and on a shared disk
 * mostly noise. Throws on any diagnostic.
 */
function build(projectDir, { transform, outDir, parseAllJSDoc = false }, write = true) {
  const t0 = performance.now();
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path.join(projectDir, "tsconfig.json"),
    { outDir: path.join(projectDir, outDir) },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  // As tsc and tspc: the JSDoc of TypeScript files is skipped (the checker needs none of it);
  // the transformer parses the comments it reads itself.
  const host = ts.createCompilerHost(parsed.options);
  host.jsDocParsingMode = parseAllJSDoc ? ts.JSDocParsingMode.ParseAll : ts.JSDocParsingMode.ParseForTypeErrors;
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host });
  const t1 = performance.now();
  const diagnostics = [...ts.getPreEmitDiagnostics(program)];
  const t2 = performance.now();
  let transformer = 0;
  let transformers;
  if (transform) {
    const factory = createTransformer(program, { addDiagnostic: (d) => diagnostics.push(d) });
    transformer += performance.now() - t2;
    // Times the transformer's own work, apart from the rest of emit: it rewrites calls as they
    // are printed (a substitution), and looks at nothing else.
    const timed = (context) => {
      const transformFile = factory(context);
      const substitute = context.onSubstituteNode;
      context.onSubstituteNode = (hint, node) => {
        if (!ts.isCallExpression(node)) return substitute(hint, node);
        const started = performance.now();
        const result = substitute(hint, node);
        transformer += performance.now() - started;
        return result;
      };
      return transformFile;
    };
    transformers = { before: [timed] };
  }
  let bytes = 0;
  const writeFile = write ? undefined : (_name, text) => void (bytes += text.length);
  diagnostics.push(...program.emit(undefined, writeFile, undefined, false, transformers).diagnostics);
  const t3 = performance.now();
  // A benchmark of a project that does not build cleanly would measure the wrong thing.
  if (diagnostics.length) throw new Error(`bench: ${projectDir} does not build cleanly:\n${format(diagnostics)}`);
  // CPU time of the whole process so far (start-up and module loading included): what a loaded
  // machine disturbs least, as the build is one busy thread.
  const { user, system } = process.cpuUsage();
  return {
    total: t3 - t0,
    program: t1 - t0,
    check: t2 - t1,
    emit: t3 - t2,
    transformer,
    bytes,
    cpu: (user + system) / 1000,
  };
}

const TYPEMCP = { transform: true, outDir: "out" };
const PLAIN = { transform: false, outDir: "out-plain" };
const SIDES = { typemcp: TYPEMCP, plain: PLAIN, "plain-all": { ...PLAIN, parseAllJSDoc: true } };

if (require.main === module) {
  const [projectDir, once, side] = process.argv.slice(2);
  if (once !== undefined && (once !== "once" || !Object.hasOwn(SIDES, side)))
    throw new Error("usage: node bench/build.js <project> [once plain|plain-all|typemcp]");
  console.log(JSON.stringify(once ? build(projectDir, SIDES[side], false) : build(projectDir, TYPEMCP)));
}

module.exports = { build, TYPEMCP, PLAIN };
