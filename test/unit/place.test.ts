/**
 * Placing contracts in emitted JavaScript (transformer/ts7/place.ts) when the JavaScript is
 * known to parse: only the registrations' calls are parsed, and what is placed is what the
 * whole file's parse places, byte for byte, mappings included. Where the calls alone cannot
 * stand for the whole parse, the whole file is parsed. The JavaScript and its source map are
 * TypeScript 5's emit (TypeScript 7's maps the same positions).
 */
import * as acorn from "acorn";
import * as ts from "typescript";
import { placeContracts, type Placement, type SourceMap } from "../../transformer/ts7/place";

// acorn as it is, its whole-file parse counted.
jest.mock("acorn", () => {
  const actual = jest.requireActual<typeof acorn>("acorn");
  return { ...actual, parse: jest.fn(actual.parse) };
});
const wholeParses = acorn.parse as jest.MockedFunction<typeof acorn.parse>;

/** The source emitted as CommonJS with its map, and a placement for each `.tool(...)` call in it. */
function emitted(source: string): { js: string; map: SourceMap; placements: Placement[] } {
  const out = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: true },
    fileName: "tool.ts",
  });
  const file = ts.createSourceFile("tool.ts", source, ts.ScriptTarget.ES2022, true);
  const at = (node: ts.Node) => {
    const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
    return { source: 0, line, column: character };
  };
  const placements: Placement[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "tool"
    )
      placements.push({
        call: at(node),
        firstArgument: node.arguments[0] && at(node.arguments[0]),
        argumentCount: node.arguments.length,
        text: `, void 0, JSON.parse('{"v":2,"name":"t${placements.length}"}')`,
      });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { js: out.outputText, map: JSON.parse(out.sourceMapText!) as SourceMap, placements };
}

/** placeContracts on a file known to parse, and whether it parsed the whole file. */
function placedKnowingItParses(js: string, map: SourceMap, placements: Placement[]) {
  wholeParses.mockClear();
  const placed = placeContracts(js, map, placements, { parses: true });
  return { placed, wholeParsed: wholeParses.mock.calls.length > 0 };
}

const PREFIX = `declare const mcp: { tool(...args: unknown[]): any };\nfunction f(a: string): string { return a; }\n`;

test.each([
  ["a plain registration", `mcp.tool(f);`],
  ["one with options and a trailing comma", `mcp.tool(\n  f,\n  { title: "T" },\n);`],
  ["its result chained on", `mcp.tool(f).then?.(() => 1);`],
  ["inside a conditional, a sequence and an arrow", `const a = Math.random() ? (0, mcp.tool(f)) : () => mcp.tool(f);`],
  ["two on one line, after a regular expression", `const r = /[)]/g; mcp.tool(f); mcp.tool((x: string) => x);`],
  ["inside a template literal and a class method", "class K { m() { return `${mcp.tool(f)}`; } }"],
])("%s: the registrations' calls alone are parsed, and place what the whole parse places", (_, body) => {
  const { js, map, placements } = emitted(PREFIX + body);
  const whole = placeContracts(js, map, placements);
  expect(whole.counts.every((count) => count === 1)).toBe(true);
  const { placed, wholeParsed } = placedKnowingItParses(js, map, placements);
  expect(wholeParsed).toBe(false);
  expect(placed).toEqual(whole);
});

/** Source map mappings of one generated line: each [generated column, source line, source column] (source 0). */
function oneLine(segments: [number, number, number][]): string {
  const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const vlq = (value: number) => {
    let rest = value < 0 ? (-value << 1) | 1 : value << 1;
    let out = "";
    do {
      const digit = rest & 31;
      rest >>>= 5;
      out += digits[digit | (rest > 0 ? 32 : 0)];
    } while (rest > 0);
    return out;
  };
  let [column, line, sourceColumn] = [0, 0, 0];
  return segments
    .map(([c, l, s]) => {
      const text = vlq(c - column) + vlq(0) + vlq(l - line) + vlq(s - sourceColumn);
      [column, line, sourceColumn] = [c, l, s];
      return text;
    })
    .join(",");
}

/** `mcp.tool(f);` (source line 0): the call starts at column 0, its argument at column 9. */
const REGISTRATION: Placement = {
  call: { source: 0, line: 0, column: 0 },
  firstArgument: { source: 0, line: 0, column: 9 },
  argumentCount: 1,
  text: `, void 0, JSON.parse('{"v":2,"name":"f"}')`,
};

test.each([
  // A map that gives the registration's start to `exports` and to `mcp` after it: `mcp.tool(f)`
  // parsed alone would be a second call, ending with the real one.
  [
    "after a `.` (exports.mcp.tool)",
    "exports.mcp.tool(f);\n",
    [
      [0, 0, 0],
      [8, 0, 0],
      [17, 0, 9],
    ],
    [1],
  ],
  // The whole parse has no call here: `new` takes the member expression.
  [
    "after `new`",
    "new mcp.tool(f);\n",
    [
      [4, 0, 0],
      [13, 0, 9],
    ],
    [0],
  ],
] as [string, string, [number, number, number][], number[]][])(
  "a registration's start mapped %s: the whole file is parsed, and the contracts are what it places",
  (_, js, segments, counts) => {
    const map: SourceMap = { version: 3, sources: ["tool.ts"], mappings: oneLine(segments) };
    const whole = placeContracts(js, map, [REGISTRATION]);
    expect(whole.counts).toEqual(counts);
    const { placed, wholeParsed } = placedKnowingItParses(js, map, [REGISTRATION]);
    expect(wholeParsed).toBe(true);
    expect(placed).toEqual(whole);
  },
);

test("a registration the calls alone do not find is looked for in the whole parse, which finds none either", () => {
  const { js, map, placements } = emitted(`${PREFIX}mcp.tool(f);`);
  const moved = placements.map((placement) => ({ ...placement, argumentCount: placement.argumentCount + 1 }));
  const { placed, wholeParsed } = placedKnowingItParses(js, map, moved);
  expect(wholeParsed).toBe(true);
  expect(placed).toEqual({ js, mappings: map.mappings, counts: [0] });
});
