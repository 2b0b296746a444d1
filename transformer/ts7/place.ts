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

/** Each base64 digit's value, by character code (-1: none). */
const DIGITS = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DIGITS[BASE64.charCodeAt(i)] = i;

/** A generated position (0-based line and column) as one number: the key of decodeMappings' answer. */
const spot = (line: number, column: number) => line * 2 ** 26 + column;
const unspot = (at: number): [line: number, column: number] => [Math.floor(at / 2 ** 26), at % 2 ** 26];

/**
 * Generated position (spot) → source position, for every mapping with a source: the first at
 * each position. One pass over the text, by character code (every file's mappings are decoded:
 * the map's text is most of what a contract's placing reads).
 */
function decodeMappings(mappings: string): Map<number, Position> {
  const found = new Map<number, Position>();
  const values = [0, 0, 0, 0, 0];
  let fields = 0;
  let value = 0;
  let shift = 0;
  let generatedLine = 0;
  let generatedColumn = 0;
  let source = 0;
  let line = 0;
  let column = 0;
  for (let i = 0; i <= mappings.length; i++) {
    const code = i < mappings.length ? mappings.charCodeAt(i) : 59;
    if (code === 44 || code === 59) {
      // `,` ends a segment, `;` a line too.
      if (fields > 0) {
        generatedColumn += values[0];
        if (fields >= 4) {
          source += values[1];
          line += values[2];
          column += values[3];
          const at = spot(generatedLine, generatedColumn);
          if (!found.has(at)) found.set(at, { source, line, column });
        }
      }
      fields = 0;
      if (code === 59) {
        generatedLine++;
        generatedColumn = 0;
      }
      continue;
    }
    const digit = DIGITS[code];
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      if (fields < values.length) values[fields] = value & 1 ? -(value >>> 1) : value >>> 1;
      fields++;
      value = 0;
      shift = 0;
    }
  }
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
            const digit = DIGITS[segment.charCodeAt(i)];
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

const OPTIONS = {
  ecmaVersion: "latest",
  locations: true,
  allowHashBang: true,
  allowReturnOutsideFunction: true,
} as const;

function parse(js: string): acorn.Node {
  try {
    return acorn.parse(js, { ...OPTIONS, sourceType: "module" });
  } catch {
    return acorn.parse(js, { ...OPTIONS, sourceType: "script" });
  }
}

/** The expression that starts at `offset`, as a module's or else a script's; undefined where neither parses. */
function parseAt(js: string, offset: number): acorn.Node | undefined {
  for (const sourceType of ["module", "script"] as const) {
    try {
      return acorn.parseExpressionAt(js, offset, { ...OPTIONS, sourceType });
    } catch {
      // a script's, then none
    }
  }
  return undefined;
}

/** The calls that start where `root` starts: it, and down its first operands (`a.b(c).d(e) + f`: both calls). */
function callsAtStart(root: acorn.Node): CallNode[] {
  const calls: CallNode[] = [];
  for (let node: acorn.Node | undefined = root; node;) {
    if (node.type === "CallExpression") calls.push(node as unknown as CallNode);
    const record = node as unknown as Record<string, unknown>;
    node = undefined;
    for (const field in record) {
      if (field === "loc") continue;
      const value = record[field];
      const child = (Array.isArray(value) ? value[0] : value) as acorn.Node | undefined;
      if (child && typeof child.type === "string" && child.start === root.start) {
        node = child;
        break;
      }
    }
  }
  return calls;
}

/**
 * The calls at the generated positions each placement's call maps from, each parsed alone
 * (acorn.parseExpressionAt) rather than the whole file: at 500 files, 250 ms of acorn (most of
 * it acorn warming up) become about 50 (docs/typescript-7.md#speed). Undefined where that
 * cannot stand for the whole file's parse, which is made then: a position where an expression
 * does not start (after `.` or `new`, where the whole parse has no call), one that does not
 * parse, two calls ending together.
 */
function callsAtPlacements(
  js: string,
  mapped: Map<number, Position>,
  placements: Placement[],
): Map<string, CallNode[]> | undefined {
  const wanted = new Set(placements.map((placement) => key(placement.call)));
  const lines = new Set(placements.map((placement) => placement.call.line));
  const starts = new Map<string, number[]>();
  let lineStarts: number[] | undefined;
  for (const [generated, source] of mapped) {
    if (!lines.has(source.line) || !wanted.has(key(source))) continue;
    // Lines as acorn and TypeScript's emitter count them.
    lineStarts ??= [0, ...[...js.matchAll(/\r\n?|\n|\u2028|\u2029/g)].map((match) => match.index + match[0].length)];
    const [line, column] = unspot(generated);
    if (line >= lineStarts.length) return undefined;
    starts.set(key(source), [...(starts.get(key(source)) ?? []), lineStarts[line] + column]);
  }
  const byStart = new Map<string, CallNode[]>();
  for (const [at, offsets] of starts) {
    const calls: CallNode[] = [];
    for (const offset of offsets) {
      if (/(?:\.|\bnew)\s*$/.test(js.slice(Math.max(0, offset - 8), offset))) return undefined;
      const root = parseAt(js, offset);
      if (!root) return undefined;
      calls.push(...callsAtStart(root));
    }
    if (new Set(calls.map((call) => call.end)).size !== calls.length) return undefined;
    byStart.set(at, calls);
  }
  return byStart;
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
function sourceNear(mapped: Map<number, Position>, line: number, column: number): Position | undefined {
  let best: { line: number; column: number; at: Position } | undefined;
  for (const [key, at] of mapped) {
    const [l, c] = unspot(key);
    if (l > line || (l === line && c > column)) continue;
    if (!best || l > best.line || (l === best.line && c > best.column)) best = { line: l, column: c, at };
  }
  return best?.at;
}

/**
 * The JavaScript with the contracts inserted, the mappings moved to match, and how often each
 * placement was made. JavaScript that does not parse (tsc emits a file with a syntax error as
 * best it can) gets nothing: where it stops parsing is returned, for a diagnostic. `parses`:
 * the JavaScript is known to parse (its source has no error), so only the registrations' calls
 * are parsed, where that finds each (callsAtPlacements).
 */
export function placeContracts(
  js: string,
  map: SourceMap,
  placements: Placement[],
  options: { parses?: boolean } = {},
): Placed {
  const counts = placements.map(() => 0);
  if (!placements.length) return { js, mappings: map.mappings, counts };
  const mapped = decodeMappings(map.mappings);
  const sourceOf = (loc: { line: number; column: number }) => mapped.get(spot(loc.line - 1, loc.column));
  if (options.parses) {
    const byStart = callsAtPlacements(js, mapped, placements);
    const placed = byStart && insert(js, map, placements, byStart, sourceOf);
    // A registration not found is looked for in the whole parse, which says why.
    if (placed?.counts.every((count) => count > 0)) return placed;
  }
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
  return insert(js, map, placements, byStart, sourceOf);
}

/** The contracts inserted into the calls found, by the source position they start at. */
function insert(
  js: string,
  map: SourceMap,
  placements: Placement[],
  byStart: Map<string, CallNode[]>,
  sourceOf: (loc: { line: number; column: number }) => Position | undefined,
): Placed {
  const counts = placements.map(() => 0);
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
