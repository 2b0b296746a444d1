// Builds a generated project with the TypeScript API, as tspc would: one program, type-check,
// emit with the typemcp transformer as a `before` transformer (test/support/build.ts does the
// same). Without the transformer it is what plain tsc does with the same program.
//
// As a child process: `node bench/build.js <project>` builds it once with the transformer;
// `node --expose-gc bench/build.js <project> <rounds>` times both builds, alternating, phase
// by phase; `node bench/build.js <project> once <plain|typemcp>` builds once in memory, for
// bench/instructions.js to count. Prints one JSON line.
"use strict";
const path = require("node:path");
const ts = require("typescript");
const { createTransformer } = require("../dist/transformer/index.js");

function format(diagnostics) {
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" });
}

/**
 * Type-checks and emits; `transform`: with the typemcp transformer. Returns the time (ms) of
 * each phase — creating the program, type-checking, emitting (transformer included) — the
 * time spent inside the transformer, and the bytes emitted. `write: false` keeps the output
 * in memory: writing thousands of files is the same for both builds, and on a shared disk
 * mostly noise. Throws on any diagnostic.
 */
function build(projectDir, { transform, outDir }, write = true) {
  const t0 = performance.now();
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(projectDir, "tsconfig.json"), { outDir: path.join(projectDir, outDir) }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const t1 = performance.now();
  const diagnostics = [...ts.getPreEmitDiagnostics(program)];
  const t2 = performance.now();
  let transformer = 0;
  let transformers;
  if (transform) {
    const factory = createTransformer(program, { addDiagnostic: (d) => diagnostics.push(d) });
    transformer += performance.now() - t2;
    // Times the transformer's own work on each file, apart from the rest of emit.
    const timed = (context) => {
      const transformFile = factory(context);
      return (file) => {
        const started = performance.now();
        const result = transformFile(file);
        transformer += performance.now() - started;
        return result;
      };
    };
    transformers = { before: [timed] };
  }
  let bytes = 0;
  const writeFile = write ? undefined : (_name, text) => void (bytes += text.length);
  diagnostics.push(...program.emit(undefined, writeFile, undefined, false, transformers).diagnostics);
  const t3 = performance.now();
  // A benchmark of a project that does not build cleanly would measure the wrong thing.
  if (diagnostics.length) throw new Error(`bench: ${projectDir} does not build cleanly:\n${format(diagnostics)}`);
  return { total: t3 - t0, program: t1 - t0, check: t2 - t1, emit: t3 - t2, transformer, bytes };
}

const TYPEMCP = { transform: true, outDir: "out" };
const PLAIN = { transform: false, outDir: "out-plain" };

if (require.main === module) {
  const [projectDir, rounds, side] = process.argv.slice(2);
  if (rounds === undefined || rounds === "once") {
    // Just build it, once: written out, or in memory as one side.
    console.log(JSON.stringify(rounds ? build(projectDir, side === "plain" ? PLAIN : TYPEMCP, false) : build(projectDir, TYPEMCP)));
    process.exit(0);
  }
  // One round first, not counted: the first large program of a process also pays for JIT
  // warm-up and for growing the heap, which would penalize whichever build goes first.
  build(projectDir, PLAIN, false);
  build(projectDir, TYPEMCP, false);
  const times = { plain: [], typemcp: [] };
  for (let r = 0; r < Number(rounds); r++) {
    // A B, B A, A B, ...: neither side always goes first.
    const order = r % 2 ? ["typemcp", "plain"] : ["plain", "typemcp"];
    for (const which of order) {
      global.gc?.(); // no build pays for collecting the previous one's program
      times[which].push(build(projectDir, which === "plain" ? PLAIN : TYPEMCP, false));
    }
  }
  console.log(JSON.stringify(times));
}

module.exports = { build, TYPEMCP, PLAIN };
