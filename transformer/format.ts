/**
 * Diagnostics printed as tsc prints them — `file(line,col): error TS2322: ...`, or with
 * `--pretty` colors, `file:line:col` and the source underlined — by the CLI on every
 * TypeScript: TypeScript 7's API has no formatter, and one printer for what a session reports
 * prints the same bytes on 5, 6 and 7. The same algorithm as TypeScript 5's formatDiagnostics
 * and formatDiagnosticsWithColorAndContext (test/unit/diagnostic-format.test.ts holds it to
 * them). Under tspc, tsc prints the transformer's diagnostics with its own.
 */
import * as path from "node:path";
import { DiagnosticCategory } from "./checker/flags";
import { flattenMessage } from "./diagnostics";

/** What a diagnostic is made of, whichever TypeScript (or typemcp) reported it. */
export interface Reported {
  file?: { fileName: string; text: string };
  start?: number;
  length?: number;
  category: number;
  code: number;
  messageText: string | Chain;
  relatedInformation?: Reported[];
}
export interface Chain {
  messageText: string;
  category: number;
  code: number;
  next?: Chain[];
}

const NAMES: Record<number, string> = { 0: "warning", 1: "error", 2: "suggestion", 3: "message" };

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10 || c === 0x2028 || c === 0x2029) starts.push(i + 1);
  }
  return starts;
}

const starts = new WeakMap<object, number[]>();
function lineAndCharacter(file: NonNullable<Reported["file"]>, position: number): { line: number; character: number } {
  let known = starts.get(file);
  if (!known) starts.set(file, (known = lineStarts(file.text)));
  let lo = 0;
  let hi = known.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (known[mid] <= position) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo, character: position - known[lo] };
}

function relative(fileName: string, directory: string): string {
  return path.isAbsolute(fileName) ? path.relative(directory, fileName).split(path.sep).join("/") : fileName;
}

export function categoryName(category: number): string {
  return NAMES[category] ?? "message";
}

/** `file(line,col): error TS93001: message`, one per diagnostic, as tsc without --pretty. */
export function formatDiagnostics(diagnostics: readonly Reported[], directory = process.cwd()): string {
  let output = "";
  for (const d of diagnostics) {
    const message = `${categoryName(d.category)} TS${d.code}: ${flattenMessage(d.messageText)}\n`;
    if (d.file && d.start !== undefined) {
      const { line, character } = lineAndCharacter(d.file, d.start);
      output += `${relative(d.file.fileName, directory)}(${line + 1},${character + 1}): ${message}`;
    } else output += message;
  }
  return output;
}

const RESET = "\u001b[0m";
const GUTTER = "\u001b[7m";
const COLORS = { grey: "\u001b[90m", red: "\u001b[91m", yellow: "\u001b[93m", blue: "\u001b[94m", cyan: "\u001b[96m" };
const color = (text: string, sequence: string) => sequence + text + RESET;

function categoryColor(category: number): string {
  return category === DiagnosticCategory.Error
    ? COLORS.red
    : category === DiagnosticCategory.Warning
      ? COLORS.yellow
      : category === DiagnosticCategory.Suggestion
        ? COLORS.grey
        : COLORS.blue;
}

function location(file: NonNullable<Reported["file"]>, start: number, directory: string): string {
  const { line, character } = lineAndCharacter(file, start);
  return `${color(relative(file.fileName, directory), COLORS.cyan)}:${color(`${line + 1}`, COLORS.yellow)}:${color(`${character + 1}`, COLORS.yellow)}`;
}

function codeSpan(
  file: NonNullable<Reported["file"]>,
  start: number,
  length: number,
  indent: string,
  squiggle: string,
): string {
  const first = lineAndCharacter(file, start);
  const last = lineAndCharacter(file, start + length);
  const linesInFile = lineAndCharacter(file, file.text.length).line;
  const known = starts.get(file)!;
  const moreThanFive = last.line - first.line >= 4;
  let gutterWidth = `${last.line + 1}`.length;
  if (moreThanFive) gutterWidth = Math.max(3, gutterWidth);
  let context = "";
  for (let i = first.line; i <= last.line; i++) {
    context += "\n";
    if (moreThanFive && first.line + 1 < i && i < last.line - 1) {
      context += indent + color("...".padStart(gutterWidth), GUTTER) + " \n";
      i = last.line - 1;
    }
    const lineStart = known[i];
    const lineEnd = i < linesInFile ? known[i + 1] : file.text.length;
    const content = file.text.slice(lineStart, lineEnd).trimEnd().replace(/\t/g, " ");
    context += indent + color(`${i + 1}`.padStart(gutterWidth), GUTTER) + " ";
    context += content + "\n";
    context += indent + color("".padStart(gutterWidth), GUTTER) + " ";
    context += squiggle;
    if (i === first.line) {
      const end = i === last.line ? last.character : undefined;
      context += content.slice(0, first.character).replace(/\S/g, " ");
      context += content.slice(first.character, end).replace(/./g, "~");
    } else if (i === last.line) {
      context += content.slice(0, last.character).replace(/./g, "~");
    } else {
      context += content.replace(/./g, "~");
    }
    context += RESET;
  }
  return context;
}

/** As tsc --pretty prints them: colors, `file:line:col`, the source lines underlined. */
export function formatDiagnosticsWithColorAndContext(
  diagnostics: readonly Reported[],
  directory = process.cwd(),
): string {
  let output = "";
  for (const d of diagnostics) {
    if (d.file && d.start !== undefined) output += `${location(d.file, d.start, directory)} - `;
    output += color(categoryName(d.category), categoryColor(d.category));
    output += color(` TS${d.code}: `, COLORS.grey);
    output += flattenMessage(d.messageText);
    if (d.file && d.start !== undefined)
      output += "\n" + codeSpan(d.file, d.start, d.length ?? 0, "", categoryColor(d.category));
    if (d.relatedInformation?.length) {
      output += "\n";
      for (const related of d.relatedInformation) {
        if (related.file && related.start !== undefined) {
          output += "\n  " + location(related.file, related.start, directory);
          output += codeSpan(related.file, related.start, related.length ?? 0, "    ", COLORS.cyan);
        }
        output += "\n    " + flattenMessage(related.messageText);
      }
    }
    output += "\n";
  }
  return output;
}

function compareText(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  return a < b ? -1 : 1;
}

/** Sorted by file, position, length, code and message, duplicates dropped: as ts.sortAndDeduplicateDiagnostics. */
export function sortAndDeduplicate<D extends Reported>(diagnostics: readonly D[]): D[] {
  const compare = (a: D, b: D) =>
    compareText(a.file?.fileName, b.file?.fileName) ||
    (a.start ?? -1) - (b.start ?? -1) ||
    (a.length ?? -1) - (b.length ?? -1) ||
    a.code - b.code ||
    compareText(flattenMessage(a.messageText), flattenMessage(b.messageText));
  const sorted = [...diagnostics].sort(compare);
  return sorted.filter((d, i) => i === 0 || compare(sorted[i - 1], d) !== 0);
}
