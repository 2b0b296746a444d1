/**
 * `typemcp build` on TypeScript 7: TypeScript 7's own compiler (its `tsc`) type-checks and
 * emits the project as it always does, while typemcp compiles every registration through the
 * checker API; then each contract is written into the emitted call it belongs to (place.ts),
 * found through the source map the compiler wrote. The compiler's output is printed as it
 * printed it, typemcp's diagnostics after it in the same format.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import Module from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import type { Diagnostic } from "../checker/checker";
import { DiagnosticCategory } from "../checker/flags";
import { DiagnosticCode } from "../diagnostic-codes";
import { diagnosticAt } from "../diagnostics";
import { contractText } from "../emit";
import { FORM_INDEX } from "../form/elicit";
import { optionsIndex } from "../registration";
import { placeContracts, type EmittedSyntaxError, type Placement, type SourceMap } from "./place";
import type { CompiledCall, CompiledFormCall } from "../session";
import type { Ts7Project } from "./project";

export interface TscRun {
  status: number | null;
  /** What tsc printed, the emitted files' list taken out. */
  output: string;
  emitted: string[];
  /** How many errors `output` holds, where known without reading it back (see tscErrorCount). */
  errors?: number;
}

/**
 * The files a build emitted, where the contracts are written into them: on disk (tsc wrote
 * them) or in memory (TypeScript 7.1's emit through the API, written after).
 */
export interface EmittedFiles {
  /** Absolute paths. */
  readonly names: readonly string[];
  read(file: string): string | undefined;
  write(file: string, text: string): void;
  remove(file: string): void;
}

/** The files tsc wrote. */
export function filesOnDisk(names: readonly string[]): EmittedFiles {
  return {
    names: names.map((name) => path.resolve(name)),
    read: (file) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined),
    write: (file, text) => fs.writeFileSync(file, text),
    remove: (file) => fs.rmSync(file, { force: true }),
  };
}

/** TypeScript 7's compiler executable (the package's `tsc` starts it), or its `bin/tsc` script to run with Node. */
function tscCommand(directory: string): [string, string[]] {
  try {
    const load = Module.createRequire(path.join(directory, "package.json"));
    const exe = (load("./lib/getExePath.js") as { default: () => string }).default();
    if (fs.existsSync(exe)) return [exe, []];
  } catch {
    // the script finds it itself
  }
  return [process.execPath, [path.join(directory, "bin", "tsc")]];
}

/**
 * Starts tsc on the project, with source maps when the project writes none (they are taken out
 * again after), listing what it emits. Its output goes to a file, not a pipe: typemcp's own
 * work meanwhile is synchronous, and a full pipe would stop tsc.
 */
export function startTsc(
  directory: string,
  configFile: string,
  options: { forceSourceMap: boolean; pretty: boolean },
): Promise<TscRun> {
  const [command, prefix] = tscCommand(directory);
  const args = [...prefix, "-p", configFile, "--listEmittedFiles", "--pretty", String(options.pretty)];
  if (options.forceSourceMap) args.push("--sourceMap");
  const outFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-tsc-")), "out");
  const fd = fs.openSync(outFile, "w");
  const child = spawn(command, args, { stdio: ["ignore", fd, fd] });
  const cleanUp = () => {
    fs.closeSync(fd);
    const text = fs.readFileSync(outFile, "utf8");
    fs.rmSync(path.dirname(outFile), { recursive: true, force: true });
    return text;
  };
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      cleanUp();
      reject(error);
    });
    child.on("close", (status) => {
      const text = cleanUp();
      const emitted: string[] = [];
      const output = text
        .split(/(?<=\n)/)
        .filter((line) => {
          const match = /^TSFILE: (.*?)\r?\n?$/.exec(line);
          if (match) emitted.push(match[1]);
          return !match;
        })
        .join("");
      resolve({ status, output, emitted });
    });
  });
}

const JS = /\.(c|m)?jsx?$/;

/**
 * How many errors tsc printed: with `--pretty`, its own count (`Found 2 errors ...`); without,
 * its diagnostics' first lines (`file(line,col): error TS1002: ...`, or `error TS5083: ...` for
 * none in a file), the only lines that start unindented. tsc reports no warnings.
 */
export function tscErrorCount(output: string, pretty: boolean): number {
  if (pretty) {
    // eslint-disable-next-line no-control-regex -- tsc colours the count's file name
    const found = /^Found (\d+) errors?\b/m.exec(output.replace(/\x1b\[[0-9;]*m/g, ""));
    return found ? Number(found[1]) : 0;
  }
  return output.split("\n").filter((line) => /^(?:\S.*\(\d+,\d+\): )?error TS\d+: /.test(line)).length;
}

const MAP_URL = /\n\/\/# sourceMappingURL=([^\n]*)$/;

/** The source map of an emitted file: inline, or in its `.map` file. */
function readMap(
  files: EmittedFiles,
  jsFile: string,
  js: string,
): { map: SourceMap; inline: boolean; file?: string } | undefined {
  const url = MAP_URL.exec(js)?.[1];
  if (!url) return undefined;
  const inline = /^data:application\/json;(?:charset=utf-8;)?base64,(.*)$/.exec(url);
  if (inline) return { map: JSON.parse(Buffer.from(inline[1], "base64").toString("utf8")) as SourceMap, inline: true };
  const file = path.resolve(path.dirname(jsFile), decodeURIComponent(url));
  const text = files.read(file);
  if (text === undefined) return undefined;
  return { map: JSON.parse(text) as SourceMap, inline: false, file };
}

/** The source files a map names, as absolute paths (its sources are relative to the map, under sourceRoot). */
function sourcesOf(map: SourceMap, mapDirectory: string, known: Set<string>): string[] {
  const root = typeof map.sourceRoot === "string" ? map.sourceRoot : "";
  return map.sources.map((source) => {
    if (!/^[a-z]+:\/\//i.test(root)) {
      const resolved = path.resolve(mapDirectory, root, source);
      if (known.has(resolved)) return resolved;
    }
    // A sourceRoot that is a URL: the file whose path ends with the source's.
    const tail = source.replace(/^(\.\.\/)+|^\.\//, "");
    return [...known].find((file) => file.endsWith(`/${tail}`)) ?? source;
  });
}

/** A call the build writes into: a registration (its contract), or a `ctx.elicit<T>()` call (its form). */
export type WrittenCall = CompiledCall | CompiledFormCall;

/** The arguments the transformer adds: `void 0` for each left out up to the options, then the contract or the form. */
function addedArguments(compiled: WrittenCall): { count: number; text: string } {
  const count = compiled.call.arguments.length;
  const before = "form" in compiled ? FORM_INDEX : optionsIndex(compiled.registration) + 1;
  const missing = Math.max(0, before - count);
  const written = "form" in compiled ? compiled.form : compiled.contract;
  return { count, text: `${", void 0".repeat(missing)}, ${contractText(written)}` };
}

export interface PlacedContracts {
  /** Registrations whose emitted call was not found (a typemcp failure, reported as TS93099). */
  diagnostics: Diagnostic[];
  files: number;
}

/**
 * Writes the contracts into the emitted files. `forcedMaps`: the maps are typemcp's (the
 * project writes none), and are removed, with their `sourceMappingURL` comments.
 */
export function writeContracts(
  emitted: EmittedFiles,
  compiled: WrittenCall[],
  forcedMaps: boolean,
  /** The source files whose JavaScript parses for certain (the compiler found no error in them), if known. */
  parses?: (source: string) => boolean,
): PlacedContracts {
  const byFile = new Map<string, WrittenCall[]>();
  for (const c of compiled) {
    const file = path.resolve(c.call.getSourceFile().fileName);
    byFile.set(file, [...(byFile.get(file) ?? []), c]);
  }
  const known = new Set(byFile.keys());
  const placedIn = new Map<WrittenCall, number>();
  const emittedSources = new Set<string>();
  /** Emitted files that do not parse: one diagnostic each, and their registrations are not reported again. */
  const unparsed: Diagnostic[] = [];
  const reported = new Set<WrittenCall>();
  const jsFiles = emitted.names.filter((file) => JS.test(file));
  let files = 0;
  for (const jsFile of jsFiles) {
    const js = emitted.read(jsFile);
    if (js === undefined) continue;
    const found = readMap(emitted, jsFile, js);
    if (!found) continue;
    const mapDirectory = found.file ? path.dirname(found.file) : path.dirname(jsFile);
    const sources = sourcesOf(found.map, mapDirectory, known);
    for (const source of sources) emittedSources.add(source);
    const placements: { compiled: WrittenCall; placement: Placement }[] = [];
    sources.forEach((source, index) => {
      for (const c of byFile.get(source) ?? []) {
        const file = c.call.getSourceFile();
        const at = (position: number) => ({ source: index, ...toLineColumn(file, position) });
        const first = c.call.arguments[0];
        const { count, text } = addedArguments(c);
        placements.push({
          compiled: c,
          placement: {
            call: at(c.call.getStart(file)),
            firstArgument: first && at(first.getStart(file)),
            argumentCount: count,
            text,
          },
        });
      }
    });
    if (!placements.length && !forcedMaps) continue;
    const result = placeContracts(
      js,
      found.map,
      placements.map((p) => p.placement),
      { parses: parses !== undefined && sources.every(parses) },
    );
    placements.forEach((p, i) => placedIn.set(p.compiled, (placedIn.get(p.compiled) ?? 0) + result.counts[i]));
    if (result.syntaxError) {
      unparsed.push(
        unparsedDiagnostic(
          jsFile,
          result.syntaxError,
          sources,
          placements.map((p) => p.compiled),
        ),
      );
      placements.forEach((p) => reported.add(p.compiled));
    }
    let out = result.js;
    if (forcedMaps) {
      out = out.replace(MAP_URL, "\n");
      if (found.file) emitted.remove(found.file);
    } else if (found.inline) {
      const map = Buffer.from(JSON.stringify({ ...found.map, mappings: result.mappings })).toString("base64");
      out = out.replace(MAP_URL, `\n//# sourceMappingURL=data:application/json;base64,${map}`);
    } else if (found.file && placements.length) {
      emitted.write(found.file, JSON.stringify({ ...found.map, mappings: result.mappings }));
    }
    if (out !== js) emitted.write(jsFile, out);
    if (placements.length) files++;
  }
  const diagnostics: Diagnostic[] = [...unparsed];
  for (const c of compiled) {
    // A file not emitted (noEmit, declarations only, an error) has no call to place a contract in.
    if (!emittedSources.has(path.resolve(c.call.getSourceFile().fileName)) || reported.has(c)) continue;
    if ((placedIn.get(c) ?? 0) === 0) {
      const what = "form" in c ? "ctx.elicit call" : "registration";
      const written = "form" in c ? "form" : "contract";
      diagnostics.push(
        diagnosticAt(
          c.call,
          DiagnosticCategory.Error,
          DiagnosticCode.InternalError,
          `typemcp could not find this ${what} in the JavaScript TypeScript 7 emitted, so its ${written} is not in it (please report it)`,
        ),
      );
    }
  }
  return { diagnostics, files };
}

/**
 * An emitted file that does not parse (its source has a syntax error, which tsc reported first):
 * a located diagnostic, where the JavaScript stops parsing as mapped back to the source (else at
 * its first registration), naming the registrations whose contracts could not be written.
 */
function unparsedDiagnostic(
  jsFile: string,
  error: EmittedSyntaxError,
  sources: string[],
  registrations: WrittenCall[],
): Diagnostic {
  const first = registrations[0].call;
  const mappedFile =
    error.source &&
    registrations.find((c) => path.resolve(c.call.getSourceFile().fileName) === sources[error.source!.source]);
  const file = (mappedFile ?? registrations[0]).call.getSourceFile();
  const start =
    error.source && mappedFile ? positionOf(file.text, error.source.line, error.source.column) : first.getStart(file);
  const where = `${path.relative(process.cwd(), jsFile)}(${error.line + 1},${error.column + 1})`;
  const forms = registrations.filter((c) => "form" in c).length;
  const tools = registrations.length - forms;
  const count = [
    ...(tools ? [tools === 1 ? "1 tool registration" : `${tools} tool registrations`] : []),
    ...(forms ? [forms === 1 ? "1 form" : `${forms} forms`] : []),
  ].join(" and ");
  return {
    file,
    start,
    length: 0,
    category: DiagnosticCategory.Error,
    code: DiagnosticCode.ContractsNotWritten,
    messageText: `The JavaScript TypeScript 7 emitted for this file does not parse (${error.message} at ${where}), so typemcp could not write the contracts of its ${count} into it: fix the syntax error and build again`,
    source: "typemcp",
  };
}

/** The offset of a 0-based line and UTF-16 column in a text. */
function positionOf(text: string, line: number, column: number): number {
  let start = 0;
  for (let l = 0; l < line; l++) {
    const next = text.indexOf("\n", start);
    if (next === -1) break;
    start = next + 1;
  }
  return Math.min(start + column, text.length);
}

function toLineColumn(
  file: { getLineAndCharacterOfPosition(position: number): { line: number; character: number } },
  position: number,
): { line: number; column: number } {
  const { line, character } = file.getLineAndCharacterOfPosition(position);
  return { line, column: character };
}

/**
 * The project's registrations and elicit calls compiled, on either TypeScript 7 build path; a
 * failure (the API process gone) is kept to be thrown after tsc's diagnostics are printed.
 */
export function compileCalls(session: Ts7Project): {
  compiled: CompiledCall[];
  forms: CompiledFormCall[];
  failure?: { error: unknown };
} {
  try {
    return { compiled: session.compileProject(), forms: session.compileForms() };
  } catch (error) {
    return { compiled: [], forms: [], failure: { error } };
  }
}

/**
 * Runs the build: tsc and typemcp's compilation side by side, then the contracts written in.
 * Whatever happens after tsc started, its run is returned (its diagnostics are printed first),
 * and the source maps typemcp asked for are gone: a failure of typemcp's own is `failure`.
 */
export async function buildOnTs7(
  session: Ts7Project,
  configFile: string,
  pretty: boolean,
): Promise<{
  tsc: TscRun;
  compiled: CompiledCall[];
  forms: CompiledFormCall[];
  placed: PlacedContracts;
  failure?: { error: unknown };
}> {
  const forcedMaps = !session.writesSourceMaps;
  const tsc = startTsc(session.modules.directory, configFile, { forceSourceMap: forcedMaps, pretty });
  let placed: PlacedContracts = { diagnostics: [], files: 0 };
  const calls = compileCalls(session);
  const { compiled, forms } = calls;
  let failure = calls.failure;
  const run = await tsc;
  try {
    // A form whose call is left as written (spread arguments) is placed nowhere, as under tspc.
    const written = [...compiled, ...forms.filter((f) => !f.unwritten)];
    if (!failure) placed = writeContracts(filesOnDisk(run.emitted), written, forcedMaps);
  } catch (error) {
    failure = { error };
  } finally {
    if (forcedMaps) removeForcedMaps(filesOnDisk(run.emitted), failure !== undefined);
  }
  return { tsc: run, compiled, forms, placed, failure };
}

/**
 * Removes the source maps typemcp asked tsc for. writeContracts has taken their
 * `sourceMappingURL` lines out of the files it wrote; after a failure (`all`), every emitted
 * file's is taken out here.
 */
export function removeForcedMaps(emitted: EmittedFiles, all: boolean): void {
  for (const file of emitted.names) {
    if (/\.[cm]?jsx?\.map$/.test(file)) emitted.remove(file);
    else if (all && JS.test(file)) {
      const js = emitted.read(file);
      const out = js?.replace(MAP_URL, "\n");
      if (js !== undefined && out !== js) emitted.write(file, out!);
    }
  }
}
