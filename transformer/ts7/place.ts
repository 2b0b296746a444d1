/**
 * Writes each registration's contract into the JavaScript TypeScript 7 emitted, at the call the
 * registration became: `mcp.tool(fn)` → `mcp.tool(fn, void 0, JSON.parse('{"v":2,...}'))`,
 * exactly what the transformer prints under tspc.
 *
 * Which call that is, the compiler says, not a guess: its source map maps the start of every
 * emitted call, and of every argument, to where it is in the source. A registration's contract
 * goes only into an emitted call whose start maps to the registration's start and whose first
 * argument maps to the registration's first argument, with as many arguments; a registration
 * that no emitted call matches is an error, never a contract left out or put elsewhere.
 */
import * as acorn from "acorn";

/** One registration to place: where it is in the source, and the text to insert. */
export interface Placement {
  /** 0-based line and UTF-16 column of the call's start, and of its first argument's (none for `@tool()`). */
  call: Position;
  firstArgument?: Position;
  argumentCount: number;
  /** The arguments to add after the call's own: `, void 0, JSON.parse('...')`. */
  text: string;
}

export interface Position {
  /** Index of the source file in the map's `sources`. */
  source: number;
  line: number;
  column: number;
}

export interface SourceMap {
  version: number;
  sources: string[];
  mappings: string;
  [key: string]: unknown;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

/** Generated position (`line:column`) → source position, for every mapping with a source. */
function decodeMappings(mappings: string): Map<string, Position> {
  const found = new Map<string, Position>();
  let source = 0;
  let line = 0;
  let column = 0;
  mappings.split(";").forEach((segments, generatedLine) => {
    let generatedColumn = 0;
    if (!segments) return;
    for (const segment of segments.split(",")) {
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const c of segment) {
        const digit = DIGIT.get(c)!;
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      generatedColumn += values[0];
      if (values.length < 4) continue;
      source += values[1];
      line += values[2];
      column += values[3];
      const key = `${generatedLine}:${generatedColumn}`;
      if (!found.has(key)) found.set(key, { source, line, column });
    }
  });
  return found;
}

function encodeValue(value: number): string {
  let vlq = value < 0 ? (-value << 1) | 1 : value << 1;
  let out = "";
  do {
    let digit = vlq & 31;
    vlq >>>= 5;
    if (vlq > 0) digit |= 32;
    out += BASE64[digit];
  } while (vlq > 0);
  return out;
}

/**
 * The mappings with generated columns moved right where text was inserted: on each line, a
 * segment at or after an insertion moves by its length. Only each line's first moved segment
 * changes (columns are relative within a line).
 */
export function shiftMappings(
  mappings: string,
  insertions: { line: number; column: number; length: number }[],
): string {
  const byLine = new Map<number, { column: number; length: number }[]>();
  for (const insertion of insertions) byLine.set(insertion.line, [...(byLine.get(insertion.line) ?? []), insertion]);
  return mappings
    .split(";")
    .map((segments, line) => {
      const here = byLine.get(line);
      if (!here || !segments) return segments;
      let absolute = 0;
      let previousShifted = 0;
      return segments
        .split(",")
        .map((segment) => {
          // The first value of a segment: its generated column, relative to the previous segment's.
          let value = 0;
          let shift = 0;
          let i = 0;
          for (; i < segment.length; i++) {
            const digit = DIGIT.get(segment[i])!;
            value += (digit & 31) << shift;
            if (digit & 32) shift += 5;
            else break;
          }
          const delta = value & 1 ? -(value >>> 1) : value >>> 1;
          absolute += delta;
          const moved =
            absolute +
            here
              .filter((insertion) => insertion.column <= absolute)
              .reduce((sum, insertion) => sum + insertion.length, 0);
          const encoded = encodeValue(moved - previousShifted) + segment.slice(i + 1);
          previousShifted = moved;
          return encoded;
        })
        .join(",");
    })
    .join(";");
}

interface CallNode {
  type: "CallExpression";
  start: number;
  end: number;
  loc: { start: { line: number; column: number } };
  arguments: { start: number; end: number; loc: { start: { line: number; column: number } } }[];
}

function parse(js: string): acorn.Node {
  const options = {
    ecmaVersion: "latest",
    locations: true,
    allowHashBang: true,
    allowReturnOutsideFunction: true,
  } as const;
  try {
    return acorn.parse(js, { ...options, sourceType: "module" });
  } catch {
    return acorn.parse(js, { ...options, sourceType: "script" });
  }
}

function callsOf(root: acorn.Node): CallNode[] {
  const calls: CallNode[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const node = stack.pop();
    if (!node || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.type !== "string") continue;
    if (record.type === "CallExpression") calls.push(node as CallNode);
    for (const [key, value] of Object.entries(record))
      if (key !== "loc" && value && typeof value === "object") stack.push(value);
  }
  return calls;
}

const key = (position: Position) => `${position.source}:${position.line}:${position.column}`;

export interface Placed {
  js: string;
  mappings: string;
  /** How many emitted calls each placement went into (0: not found). */
  counts: number[];
  /** Where the JavaScript stops parsing, when it does not parse (nothing is placed then). */
  syntaxError?: EmittedSyntaxError;
}

/** Where and why the emitted JavaScript does not parse, and the source position emitted there. */
export interface EmittedSyntaxError {
  /** acorn's message, without its `(line:column)`. */
  message: string;
  /** 0-based line and column in the JavaScript. */
  line: number;
  column: number;
  /** The nearest source position mapped at or before it, if any. */
  source?: Position;
}

/** acorn's SyntaxError: its message ends with `(line:column)`, which `loc` holds (line 1-based). */
function syntaxErrorOf(error: unknown): { message: string; line: number; column: number } | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  const loc = (error as SyntaxError & { loc?: { line: number; column: number } }).loc;
  if (!loc) return undefined;
  return { message: error.message.replace(/ \(\d+:\d+\)$/, ""), line: loc.line - 1, column: loc.column };
}

/** The source position mapped nearest at or before a generated one (only asked when a file does not parse). */
function sourceNear(mapped: Map<string, Position>, line: number, column: number): Position | undefined {
  let best: { line: number; column: number; at: Position } | undefined;
  for (const [key, at] of mapped) {
    const [l, c] = key.split(":").map(Number);
    if (l > line || (l === line && c > column)) continue;
    if (!best || l > best.line || (l === best.line && c > best.column)) best = { line: l, column: c, at };
  }
  return best?.at;
}

/**
 * The JavaScript with the contracts inserted, the mappings moved to match, and how often each
 * placement was made. JavaScript that does not parse (tsc emits a file with a syntax error as
 * best it can) gets nothing: where it stops parsing is returned, for a diagnostic.
 */
export function placeContracts(js: string, map: SourceMap, placements: Placement[]): Placed {
  const counts = placements.map(() => 0);
  if (!placements.length) return { js, mappings: map.mappings, counts };
  const mapped = decodeMappings(map.mappings);
  const sourceOf = (loc: { line: number; column: number }) => mapped.get(`${loc.line - 1}:${loc.column}`);
  let root: acorn.Node;
  try {
    root = parse(js);
  } catch (error) {
    const at = syntaxErrorOf(error);
    if (!at) throw error;
    return {
      js,
      mappings: map.mappings,
      counts,
      syntaxError: { ...at, source: sourceNear(mapped, at.line, at.column) },
    };
  }
  const byStart = new Map<string, CallNode[]>();
  for (const call of callsOf(root)) {
    const at = sourceOf(call.loc.start);
    if (!at) continue;
    byStart.set(key(at), [...(byStart.get(key(at)) ?? []), call]);
  }
  const edits: { at: number; remove: number; text: string; line: number; column: number }[] = [];
  placements.forEach((placement, i) => {
    for (const call of byStart.get(key(placement.call)) ?? []) {
      if (call.arguments.length !== placement.argumentCount) continue;
      if (placement.firstArgument) {
        const first = sourceOf(call.arguments[0].loc.start);
        if (!first || key(first) !== key(placement.firstArgument)) continue;
      }
      const close = call.end - 1;
      if (js[close] !== ")") continue;
      // A trailing comma after the last argument gives way to the added ones.
      const last = call.arguments.at(-1);
      const gap = last ? js.slice(last.end, close) : "";
      const comma = gap.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (c) => " ".repeat(c.length)).indexOf(",");
      const text = placement.argumentCount === 0 ? placement.text.replace(/^, /, "") : placement.text;
      const { line, column } = lineAndColumn(js, close);
      if (comma >= 0)
        edits.push({ at: last!.end + comma, remove: 1, text: "", ...lineAndColumn(js, last!.end + comma) });
      edits.push({ at: close, remove: 0, text, line, column });
      counts[i]++;
    }
  });
  let out = js;
  for (const edit of [...edits].sort((a, b) => b.at - a.at))
    out = out.slice(0, edit.at) + edit.text + out.slice(edit.at + edit.remove);
  const insertions = edits.map((edit) => ({
    line: edit.line,
    column: edit.column,
    length: edit.text.length - edit.remove,
  }));
  return { js: out, mappings: shiftMappings(map.mappings, insertions), counts };
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start };
}
