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
import type { Diagnostic } from "../transformer/checker/checker";
import { DiagnosticCategory } from "../transformer/checker/flags";
import { DiagnosticCode } from "../transformer/diagnostic-codes";
import { diagnosticAt } from "../transformer/diagnostics";
import { contractText } from "../transformer/emit";
import { optionsIndex } from "../transformer/registration";
import { placeContracts, type Placement, type SourceMap } from "./place";
import type { CompiledCall } from "./project";
import type { Ts7Session } from "./ts7";

export interface TscRun {
  status: number | null;
  /** What tsc printed, the emitted files' list taken out. */
  output: string;
  emitted: string[];
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
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => {
      fs.closeSync(fd);
      const text = fs.readFileSync(outFile, "utf8");
      fs.rmSync(path.dirname(outFile), { recursive: true, force: true });
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
const MAP_URL = /\n\/\/# sourceMappingURL=([^\n]*)$/;

/** The source map of an emitted file: inline, or in its `.map` file. */
function readMap(jsFile: string, js: string): { map: SourceMap; inline: boolean; file?: string } | undefined {
  const url = MAP_URL.exec(js)?.[1];
  if (!url) return undefined;
  const inline = /^data:application\/json;(?:charset=utf-8;)?base64,(.*)$/.exec(url);
  if (inline) return { map: JSON.parse(Buffer.from(inline[1], "base64").toString("utf8")) as SourceMap, inline: true };
  const file = path.resolve(path.dirname(jsFile), decodeURIComponent(url));
  if (!fs.existsSync(file)) return undefined;
  return { map: JSON.parse(fs.readFileSync(file, "utf8")) as SourceMap, inline: false, file };
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

/** The arguments the transformer adds: `void 0` for each left out up to the options, then the contract. */
function addedArguments(compiled: CompiledCall): { count: number; text: string } {
  const count = compiled.call.arguments.length;
  const missing = Math.max(0, optionsIndex(compiled.registration) + 1 - count);
  return { count, text: `${", void 0".repeat(missing)}, ${contractText(compiled.contract)}` };
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
export function writeContracts(emitted: string[], compiled: CompiledCall[], forcedMaps: boolean): PlacedContracts {
  const byFile = new Map<string, CompiledCall[]>();
  for (const c of compiled) {
    const file = path.resolve(c.call.getSourceFile().fileName);
    byFile.set(file, [...(byFile.get(file) ?? []), c]);
  }
  const known = new Set(byFile.keys());
  const placedIn = new Map<CompiledCall, number>();
  const emittedSources = new Set<string>();
  const jsFiles = emitted.filter((file) => JS.test(file)).map((file) => path.resolve(file));
  let files = 0;
  for (const jsFile of jsFiles) {
    const js = fs.readFileSync(jsFile, "utf8");
    const found = readMap(jsFile, js);
    if (!found) continue;
    const mapDirectory = found.file ? path.dirname(found.file) : path.dirname(jsFile);
    const sources = sourcesOf(found.map, mapDirectory, known);
    for (const source of sources) emittedSources.add(source);
    const placements: { compiled: CompiledCall; placement: Placement }[] = [];
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
    );
    placements.forEach((p, i) => placedIn.set(p.compiled, (placedIn.get(p.compiled) ?? 0) + result.counts[i]));
    let out = result.js;
    if (forcedMaps) {
      out = out.replace(MAP_URL, "\n");
      if (found.file) fs.rmSync(found.file, { force: true });
    } else if (found.inline) {
      const map = Buffer.from(JSON.stringify({ ...found.map, mappings: result.mappings })).toString("base64");
      out = out.replace(MAP_URL, `\n//# sourceMappingURL=data:application/json;base64,${map}`);
    } else if (found.file && placements.length) {
      fs.writeFileSync(found.file, JSON.stringify({ ...found.map, mappings: result.mappings }));
    }
    if (out !== js) fs.writeFileSync(jsFile, out);
    if (placements.length) files++;
  }
  const diagnostics: Diagnostic[] = [];
  for (const c of compiled) {
    // A file not emitted (noEmit, declarations only, an error) has no call to place a contract in.
    if (!emittedSources.has(path.resolve(c.call.getSourceFile().fileName))) continue;
    if ((placedIn.get(c) ?? 0) === 0) {
      diagnostics.push(
        diagnosticAt(
          c.call,
          DiagnosticCategory.Error,
          DiagnosticCode.InternalError,
          "typemcp could not find this registration in the JavaScript TypeScript 7 emitted, so its contract is not in it (please report it)",
        ),
      );
    }
  }
  return { diagnostics, files };
}

function toLineColumn(
  file: { getLineAndCharacterOfPosition(position: number): { line: number; character: number } },
  position: number,
): { line: number; column: number } {
  const { line, character } = file.getLineAndCharacterOfPosition(position);
  return { line, column: character };
}

/** Runs the build: tsc and typemcp's compilation side by side, then the contracts written in. */
export async function buildOnTs7(
  session: Ts7Session,
  configFile: string,
  pretty: boolean,
): Promise<{ tsc: TscRun; compiled: CompiledCall[]; placed: PlacedContracts }> {
  const options = session.compilerOptions;
  const forcedMaps = options.sourceMap !== true && options.inlineSourceMap !== true;
  const tsc = startTsc(session.modules.directory, configFile, { forceSourceMap: forcedMaps, pretty });
  let compiled: CompiledCall[];
  try {
    compiled = session.compileProject();
  } catch (error) {
    await tsc.catch(() => undefined);
    throw error;
  }
  const run = await tsc;
  const placed = writeContracts(run.emitted, compiled, forcedMaps);
  // The maps typemcp asked for are removed (writeContracts removed those it read).
  if (forcedMaps) for (const file of run.emitted) if (/\.[cm]?jsx?\.map$/.test(file)) fs.rmSync(file, { force: true });
  return { tsc: run, compiled, placed };
}
