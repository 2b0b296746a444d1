/**
 * transformer/format.ts, the printer of every diagnostic the CLI prints on every TypeScript,
 * against TypeScript 5's own formatDiagnostics and formatDiagnosticsWithColorAndContext: the
 * same text, byte for byte, on a program's real diagnostics (a chained message, related
 * information, a span over more than five lines, a tab, CRLF line ends, one with no file).
 */
import * as path from "node:path";
import ts from "typescript";
import { formatDiagnostics, formatDiagnosticsWithColorAndContext } from "../../transformer/format";

const DIRECTORY = path.resolve("/project");

const FILES: Record<string, string> = {
  "/project/src/a.ts": [
    "interface Station { id: string; location: { lat: number; lon: number } }",
    'const s: Station = { id: "st-1", location: { lat: "north", lon: 0 } };',
    "let x = 1;",
    "let x = 2;",
    "\tconst n: number = 'tabbed';",
    "function long(): number {",
    "  if (Math.random() > 0.5) {",
    "    return 1;",
    "  }",
    "  const unused = 2;",
    "  void unused;",
    "}",
    "const f: (a: string) => number = (a: number) => a;",
    "function takesNumber(n: number): number { return n; }",
    "takesNumber({",
    "  a: 1,",
    "  b: 2,",
    "  c: 3,",
    "  d: 4,",
    "  e: 5,",
    "});",
    "void f;",
  ].join("\n"),
  "/project/src/b.ts": "export const y: string = 1;\r\nexport const z: boolean = 'no';\r\n",
};

function program(): ts.Program {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, types: [], lib: ["lib.es2022.d.ts"] };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => FILES[file] ?? read(file);
  host.fileExists = (file) => file in FILES || ts.sys.fileExists(file);
  host.getSourceFile = (file, language) => {
    const text = host.readFile(file);
    return text === undefined ? undefined : ts.createSourceFile(file, text, language);
  };
  host.getCurrentDirectory = () => DIRECTORY;
  return ts.createProgram({ rootNames: Object.keys(FILES), options, host });
}

let found: ts.Diagnostic[] | undefined;
const diagnostics = (): ts.Diagnostic[] => (found ??= compiled());
const compiled = (): ts.Diagnostic[] => {
  const built = program();
  const found = [...ts.getPreEmitDiagnostics(built)];
  // One with no file, as a configuration's is.
  found.push({
    file: undefined,
    start: undefined,
    length: undefined,
    category: ts.DiagnosticCategory.Error,
    code: 5023,
    messageText: "Unknown compiler option 'strictest'.",
  });
  return found;
};

const host: ts.FormatDiagnosticsHost = {
  getCurrentDirectory: () => DIRECTORY,
  getCanonicalFileName: (file) => file,
  getNewLine: () => "\n",
};

test("the program has the diagnostics the comparison is about", () => {
  const found = diagnostics();
  expect(found.map((d) => d.code).sort()).toEqual([2322, 2322, 2322, 2322, 2322, 2345, 2366, 2451, 2451, 5023]);
  expect(found.some((d) => typeof d.messageText !== "string")).toBe(true);
  expect(found.some((d) => d.relatedInformation?.length)).toBe(true);
  // A span over more than five lines, which --pretty cuts short with "...".
  const spans = found.filter((d) => d.file && d.start !== undefined);
  expect(
    spans.some((d) => {
      const { line: first } = d.file!.getLineAndCharacterOfPosition(d.start!);
      const { line: last } = d.file!.getLineAndCharacterOfPosition(d.start! + d.length!);
      return last - first >= 5;
    }),
  ).toBe(true);
});

test("without --pretty: what TypeScript 5's formatDiagnostics prints", () => {
  const found = diagnostics();
  expect(formatDiagnostics(found, DIRECTORY)).toBe(ts.formatDiagnostics(found, host));
});

test("--pretty: what TypeScript 5's formatDiagnosticsWithColorAndContext prints", () => {
  const found = diagnostics();
  expect(formatDiagnosticsWithColorAndContext(found, DIRECTORY)).toBe(
    ts.formatDiagnosticsWithColorAndContext(found, host),
  );
});
