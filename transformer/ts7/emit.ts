/**
 * `typemcp build` on TypeScript 7.1 and later, in one compiler process: the API answers the
 * types (transformer/ts7/checker.ts) and emits the project (`emitToString`: every output file's
 * text, nothing written), the contracts go into the JavaScript in memory (transformer/ts7/build.ts,
 * writeContracts, as on 7.0), and the files are written once. No tsc runs: the program is
 * parsed, bound and checked once (docs/typescript-7.md#speed).
 *
 * What the user gets is what tsc writes and prints: the same files (the source maps the build
 * asked for removed, with their `sourceMappingURL` lines), the compiler's diagnostics as tsc
 * prints them (plain, or --pretty with its closing count), the same exit status.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  compileCalls,
  removeForcedMaps,
  writeContracts,
  type EmittedFiles,
  type PlacedContracts,
  type TscRun,
  type WrittenCall,
} from "./build";
import { formatDiagnostics, formatDiagnosticsWithColorAndContext, sortAndDeduplicate, type Reported } from "../format";
import { DiagnosticCategory } from "../checker/flags";
import type { CompiledCall, CompiledFormCall } from "../session";
import type { Ts7Project } from "./project";

/** Emitted files held in memory until the contracts are in: written to disk after. */
function filesInMemory(files: Map<string, string>): EmittedFiles {
  return {
    names: [...files.keys()],
    read: (file) => files.get(file),
    write: (file, text) => void files.set(file, text),
    remove: (file) => void files.delete(file),
  };
}

/** Writes the emitted files, creating their folders, as tsc writes them. */
function writeOut(files: Map<string, string>): void {
  const folders = new Set([...files.keys()].map((file) => path.dirname(file)));
  for (const folder of folders) fs.mkdirSync(folder, { recursive: true });
  for (const [file, text] of files) fs.writeFileSync(file, text);
}

const GREY = "\u001b[90m";
const RESET = "\u001b[0m";

/**
 * What tsc --pretty prints after its diagnostics: how many errors, in which files (each with
 * the line of its first error), as TypeScript 7's tsc prints it.
 */
export function prettyErrorCount(diagnostics: readonly Reported[], directory = process.cwd()): string {
  const errors = diagnostics.filter((d) => d.category === DiagnosticCategory.Error);
  if (!errors.length) return "";
  const lineOf = (d: Reported) => d.file!.text.slice(0, d.start).split("\n").length;
  const firstByFile = new Map<string, { count: number; line: number }>();
  for (const d of errors) {
    if (!d.file || d.start === undefined) continue;
    const name = path.relative(directory, d.file.fileName).split(path.sep).join("/");
    const seen = firstByFile.get(name);
    firstByFile.set(name, { count: (seen?.count ?? 0) + 1, line: seen?.line ?? lineOf(d) });
  }
  const where = (name: string, line: number) => `${name}${GREY}:${line}${RESET}`;
  const count = errors.length;
  const files = [...firstByFile];
  if (files.length === 0) return `\nFound ${count} error${count === 1 ? "" : "s"}.\n\n`;
  if (files.length === 1) {
    const [name, { line }] = files[0];
    return count === 1
      ? `\nFound 1 error in ${where(name, line)}\n\n`
      : `\nFound ${count} errors in the same file, starting at: ${where(name, line)}\n\n`;
  }
  const width = String(Math.max(...files.map(([, { count }]) => count))).length;
  const rows = files.map(([name, { count, line }]) => `${String(count).padStart(width + 5)}  ${where(name, line)}\n`);
  return `\nFound ${count} errors in ${files.length} files.\n\nErrors  Files\n${rows.join("")}\n`;
}

/** The compiler's diagnostics as tsc prints them: sorted, plain or --pretty. */
export function asTscPrints(diagnostics: readonly Reported[], pretty: boolean): string {
  const sorted = sortAndDeduplicate<Reported>(diagnostics);
  if (!pretty) return formatDiagnostics(sorted);
  return sorted.map((d) => `${formatDiagnosticsWithColorAndContext([d])}\n`).join("") + prettyErrorCount(sorted);
}

/**
 * The build in one process: the registrations compiled, the compiler's diagnostics, the emit,
 * the contracts written in, the files written. Shaped as buildOnTs7's answer, the compiler's
 * part in `tsc` (what tsc would have printed, and its exit status).
 */
export function buildInProcess(
  session: Ts7Project,
  pretty: boolean,
): {
  tsc: TscRun;
  compiled: CompiledCall[];
  forms: CompiledFormCall[];
  placed: PlacedContracts;
  failure?: { error: unknown };
} {
  const forcedMaps = !session.writesSourceMaps;
  let placed: PlacedContracts = { diagnostics: [], files: 0 };
  const calls = compileCalls(session);
  const { compiled, forms } = calls;
  let failure = calls.failure;
  // What tsc reports, in its order: the tsconfig's, the program's, then the emit's own.
  const emitted = session.emit();
  const diagnostics = [...session.configDiagnostics, ...session.compilerDiagnostics(), ...emitted.diagnostics];
  const errors = sortAndDeduplicate<Reported>(diagnostics).filter((d) => d.category === DiagnosticCategory.Error);
  const files = filesInMemory(emitted.files);
  try {
    // A form whose call is left as written (spread arguments) is placed nowhere, as under tspc.
    const written: WrittenCall[] = [...compiled, ...forms.filter((f) => !f.unwritten)];
    // A file the compiler found no error in emits JavaScript that parses: only its registrations' calls are parsed (place.ts).
    const erring = errors.some((d) => !d.file) ? undefined : new Set(errors.map((d) => path.resolve(d.file!.fileName)));
    if (!failure) placed = writeContracts(files, written, forcedMaps, erring && ((source) => !erring.has(source)));
  } catch (error) {
    failure = { error };
  }
  if (forcedMaps) removeForcedMaps(files, true);
  writeOut(emitted.files);
  // tsc's exit status: 0 clean, 1 errors and nothing emitted, 2 errors (emitted anyway).
  const status = errors.length === 0 ? 0 : emitted.skipped ? 1 : 2;
  return {
    tsc: {
      status,
      output: asTscPrints(diagnostics, pretty),
      emitted: [...emitted.files.keys()],
      errors: errors.length,
    },
    compiled,
    forms,
    placed,
    failure,
  };
}
