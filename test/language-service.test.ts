/**
 * The language-service plugin (`typemcp/language-service`) on a real TypeScript language
 * service: typemcp's diagnostics appear in getSemanticDiagnostics where tspc would print
 * them, follow edits, and never break the service.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { ROOT } from "./support/build";
import { resolvingTypemcpToSources } from "./support/package-types";

/**
 * The plugin by the name tsconfig.json gives it, `typemcp/language-service` (jest maps it to its
 * source). tsserver loading it from an installed package is test/toolchains.test.ts's.
 */
const init = require("typemcp/language-service") as (modules: { typescript: typeof ts }) => {
  create(info: unknown): ts.LanguageService;
};
const compileModule = require("../transformer/compile") as { ContractCompiler: new (checker: unknown) => unknown };

const DIR = path.join(ROOT, ".build", "language-service");

const HEADER = `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("Stations");\n`;
const STATION = `export class Station {\n  constructor(name: string) {\n    Object.assign(this, { name });\n  }\n}\n`;
const FIXED_STATION = `export class Station {\n  constructor(public name: string) {}\n}\n`;
const GET_STATION = `/** Look up a weather station by name. */\nexport function get_station(name: string): Station {\n  return new Station(name);\n}\n`;

const WARNING =
  "Function get_station: return type Station is not serializable for structured output, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)\n  get_station: result: Station is a class with no declared properties";
const ERROR =
  "Function get_station: return type Station is not serializable for structured output\n  get_station: result: Station is a class with no declared properties";

/** A language service over files under .build/, edited in memory; "typemcp" is the runtime's sources' declarations. */
class Host implements ts.LanguageServiceHost {
  private readonly files = new Map<string, { text: string; version: number }>();
  resolveModuleNameLiterals = resolvingTypemcpToSources(this, this.getCompilationSettings());

  constructor(sources: Record<string, string>) {
    fs.rmSync(DIR, { recursive: true, force: true });
    fs.mkdirSync(DIR, { recursive: true });
    for (const [name, text] of Object.entries(sources)) {
      fs.writeFileSync(this.path(name), text);
      this.files.set(this.path(name), { text, version: 1 });
    }
  }

  path(name: string): string {
    return path.join(DIR, name);
  }

  edit(name: string, text: string): void {
    const file = this.files.get(this.path(name))!;
    this.files.set(this.path(name), { text, version: file.version + 1 });
  }

  getCompilationSettings(): ts.CompilerOptions {
    return {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      strict: true,
      skipLibCheck: true,
      lib: ["lib.es2022.d.ts"],
      types: [],
    };
  }
  getScriptFileNames = () => [...this.files.keys()];
  getScriptVersion = (fileName: string) => String(this.files.get(fileName)?.version ?? 0);
  getScriptSnapshot = (fileName: string) => {
    const text = this.readFile(fileName);
    return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
  };
  getCurrentDirectory = () => DIR;
  getDefaultLibFileName = (options: ts.CompilerOptions) => ts.getDefaultLibFilePath(options);
  fileExists = (fileName: string) => this.files.has(fileName) || ts.sys.fileExists(fileName);
  readFile = (fileName: string) => this.files.get(fileName)?.text ?? ts.sys.readFile(fileName);
  readDirectory = ts.sys.readDirectory;
  directoryExists = ts.sys.directoryExists;
  getDirectories = ts.sys.getDirectories;
}

function withPlugin(host: Host, logged: string[] = []): ts.LanguageService {
  const languageService = ts.createLanguageService(host);
  return init({ typescript: ts }).create({
    languageService,
    project: { projectService: { logger: { info: (message: string) => logged.push(message) } } },
  });
}

/** What an editor shows of a diagnostic. */
function shown(d: ts.Diagnostic) {
  return {
    file: path.basename(d.file!.fileName),
    start: d.start,
    length: d.length,
    category: ts.DiagnosticCategory[d.category],
    code: d.code,
    message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
    source: d.source,
    related: d.relatedInformation?.map((r) => ({
      file: path.basename(r.file!.fileName),
      start: r.start,
      length: r.length,
      message: ts.flattenDiagnosticMessageText(r.messageText, "\n"),
    })),
  };
}

test("the warning tspc prints shows in the editor, at the return type; an edit makes it an error; the fix makes it go", () => {
  const source = (station: string, registration: string) => HEADER + station + GET_STATION + registration;
  const host = new Host({ "server.ts": source(STATION, "mcp.tool(get_station);\n") });
  const service = withPlugin(host);
  const at = (text: string) => text.indexOf("): Station {") + 3;

  let text = source(STATION, "mcp.tool(get_station);\n");
  expect(service.getSemanticDiagnostics(host.path("server.ts")).map(shown)).toEqual([
    {
      file: "server.ts",
      start: at(text),
      length: "Station".length,
      category: "Warning",
      code: 93001,
      message: WARNING,
      source: "typemcp",
      related: undefined,
    },
  ]);

  text = source(STATION, "mcp.tool(get_station, { structuredOutput: true });\n");
  host.edit("server.ts", text);
  expect(service.getSemanticDiagnostics(host.path("server.ts")).map(shown)).toEqual([
    {
      file: "server.ts",
      start: at(text),
      length: "Station".length,
      category: "Error",
      code: 93001,
      message: ERROR,
      source: "typemcp",
      related: undefined,
    },
  ]);

  host.edit("server.ts", source(FIXED_STATION, "mcp.tool(get_station, { structuredOutput: true });\n"));
  expect(service.getSemanticDiagnostics(host.path("server.ts"))).toEqual([]);
});

test("a prompt's and a resource's diagnostics show in the editor as tspc prints them", () => {
  const text =
    HEADER +
    `function review(code: string, options: { strict: boolean }): string { return code + options.strict; }\nmcp.prompt(review);\n` +
    `function profile(id: string): string { return id; }\nmcp.resource("users://{user}", profile);\n`;
  const host = new Host({ "server.ts": text });
  const error = (start: number, length: number, code: number, message: string) => ({
    file: "server.ts",
    start,
    length,
    category: "Error",
    code,
    message,
    source: "typemcp",
    related: undefined,
  });
  expect(withPlugin(host).getSemanticDiagnostics(host.path("server.ts")).map(shown)).toEqual([
    error(
      text.indexOf("{ strict: boolean }"),
      "{ strict: boolean }".length,
      93004,
      "Function review: parameter options cannot be a prompt argument, which is text: its type must be a string, a number or a boolean (their literal types and unions of one of them, enums, template literal types, Integer, and types constrained with tags, included), not { strict: boolean; }",
    ),
    error(
      text.indexOf('"users://{user}"'),
      '"users://{user}"'.length,
      93003,
      'Resource template "users://{user}": the variable {user} names no parameter of function profile (its parameters: id): each variable is passed to the parameter of its name',
    ),
    error(
      text.indexOf("string): string { return id"),
      "string".length,
      93003,
      'Function profile: parameter id is required, but the URI template "users://{user}" has no variable {id} to give it a value: add one, or make the parameter optional',
    ),
  ]);
});

test("a ctx.elicit<T>() form that cannot be written shows in the editor at the call; the fix makes it go", () => {
  const source = (field: string) =>
    `import type { ToolContext } from "typemcp";\ninterface Booking {\n  ${field};\n}\n` +
    `export async function book(ctx: ToolContext) {\n  return ctx.elicit<Booking>("Book");\n}\n`;
  const text = source("when: Date");
  const host = new Host({ "server.ts": text });
  const service = withPlugin(host);
  expect(service.getSemanticDiagnostics(host.path("server.ts")).map(shown)).toEqual([
    {
      file: "server.ts",
      start: text.indexOf("ctx.elicit"),
      length: 'ctx.elicit<Booking>("Book")'.length,
      category: "Error",
      code: 93006,
      message:
        "The form of this ctx.elicit call cannot be written from Booking\n  Booking.when: a Date is not allowed: use string with @format date-time (or date), which the answer holds as its text",
      source: "typemcp",
      related: undefined,
    },
  ]);
  host.edit("server.ts", source("/** @format date-time */ when: string"));
  expect(service.getSemanticDiagnostics(host.path("server.ts"))).toEqual([]);
});

test("typemcp's diagnostics come after the compiler's own, which are unchanged", () => {
  const text = HEADER + STATION + GET_STATION + `mcp.tool(get_station);\nconst n: number = "one";\n`;
  const host = new Host({ "server.ts": text });
  const plain = ts.createLanguageService(host).getSemanticDiagnostics(host.path("server.ts")).map(shown);
  expect(plain.map((d) => d.code)).toEqual([2322]);
  expect(withPlugin(host).getSemanticDiagnostics(host.path("server.ts")).map(shown)).toEqual([
    ...plain,
    expect.objectContaining({ code: 93001, category: "Warning" }),
  ]);
});

test("a type declared in another file: the diagnostic is on the registration, the type's place is related information", () => {
  const stations = `${STATION}${GET_STATION}`;
  const server = `import { MCPServer } from "typemcp";\nimport { get_station } from "./stations";\nconst mcp = new MCPServer("Stations");\nmcp.tool(get_station);\n`;
  const host = new Host({ "stations.ts": stations, "server.ts": server });
  const service = withPlugin(host);
  expect(service.getSemanticDiagnostics(host.path("stations.ts"))).toEqual([]);
  expect(service.getSemanticDiagnostics(host.path("server.ts")).map(shown)).toEqual([
    {
      file: "server.ts",
      start: server.indexOf("mcp.tool("),
      length: "mcp.tool(get_station)".length,
      category: "Warning",
      code: 93001,
      message: WARNING,
      source: "typemcp",
      related: [
        {
          file: "stations.ts",
          start: stations.indexOf("): Station {") + 3,
          length: "Station".length,
          message: "The type typemcp reports on is declared here.",
        },
      ],
    },
  ]);
});

test("one ContractCompiler per program: files checked in one program share it; an edit makes a new program, and a new compiler", () => {
  const tool = (name: string) =>
    `import { mcp } from "./server";\n/** ${name}. */\nfunction ${name}(): string { return ""; }\nmcp.tool(${name});\n`;
  const host = new Host({ "server.ts": HEADER, "a.ts": tool("a"), "b.ts": tool("b") });
  const service = withPlugin(host);
  const original = compileModule.ContractCompiler;
  let constructed = 0;
  compileModule.ContractCompiler = class extends (original as new (checker: unknown) => object) {
    constructor(checker: unknown) {
      super(checker);
      constructed++;
    }
  };
  try {
    for (const file of ["a.ts", "b.ts", "server.ts", "a.ts"])
      expect(service.getSemanticDiagnostics(host.path(file))).toEqual([]);
    expect(constructed).toBe(1);
    host.edit("b.ts", tool("b") + "// edited\n");
    expect(service.getSemanticDiagnostics(host.path("a.ts"))).toEqual([]);
    expect(constructed).toBe(2);
  } finally {
    compileModule.ContractCompiler = original;
  }
});

test("registrations that already carry a contract, and other tool() methods, are left alone", () => {
  const text =
    HEADER +
    STATION +
    GET_STATION +
    `mcp.tool(get_station, {}, { v: 2, name: "get_station", params: ["name"], inputSchema: { type: "object" } });\n` +
    `class Other { tool(fn: () => unknown) { return fn; } }\nnew Other().tool(() => new Station("x"));\n`;
  const host = new Host({ "server.ts": text });
  expect(withPlugin(host).getSemanticDiagnostics(host.path("server.ts"))).toEqual([]);
});

test("the rest of the language service is the original's", () => {
  const text = HEADER + STATION + GET_STATION + "mcp.tool(get_station);\n";
  const host = new Host({ "server.ts": text });
  const service = withPlugin(host);
  const original = ts.createLanguageService(host);
  expect(service.getSyntacticDiagnostics(host.path("server.ts"))).toEqual([]);
  const at = text.indexOf("get_station(name");
  expect(ts.displayPartsToString(service.getQuickInfoAtPosition(host.path("server.ts"), at)!.displayParts)).toBe(
    ts.displayPartsToString(original.getQuickInfoAtPosition(host.path("server.ts"), at)!.displayParts),
  );
  expect(service.getProgram()!.getSourceFile(host.path("server.ts"))!.text).toBe(text);
});

test("a failure inside typemcp returns the compiler's diagnostics and is logged, never thrown", () => {
  const text = HEADER + STATION + GET_STATION + `mcp.tool(get_station);\nconst n: number = "one";\n`;
  const host = new Host({ "server.ts": text });
  const languageService = ts.createLanguageService(host);
  const broken = new Proxy(languageService, {
    get: (target, key) =>
      key === "getProgram"
        ? () => {
            throw new Error("program exploded");
          }
        : Reflect.get(target, key),
  });
  const logged: string[] = [];
  const service = init({ typescript: ts }).create({
    languageService: broken,
    project: { projectService: { logger: { info: (m: string) => logged.push(m) } } },
  });
  expect(service.getSemanticDiagnostics(host.path("server.ts")).map((d) => d.code)).toEqual([2322]);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/^typemcp: could not check .*server\.ts: Error: program exploded/);
  // Without a logger at all, still no throw.
  expect(
    init({ typescript: ts })
      .create({ languageService: broken })
      .getSemanticDiagnostics(host.path("server.ts"))
      .map((d) => d.code),
  ).toEqual([2322]);
});

test("an editor running another TypeScript version gets its language service back untouched, and a log line", () => {
  const host = new Host({ "server.ts": HEADER });
  const languageService = ts.createLanguageService(host);
  const logged: string[] = [];
  const other = { ...ts, version: "4.9.5" } as typeof ts;
  expect(
    init({ typescript: other }).create({
      languageService,
      project: { projectService: { logger: { info: (m: string) => logged.push(m) } } },
    }),
  ).toBe(languageService);
  expect(logged).toEqual([
    `typemcp: language-service plugin disabled: the editor runs TypeScript 4.9.5, typemcp loaded ${ts.version} (select the workspace's TypeScript version in the editor)`,
  ]);
});
