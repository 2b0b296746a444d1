/**
 * The `typemcp` CLI, built (dist/cli/index.js) and run as `npx typemcp` runs it: `manifest`
 * against what the transformer writes into the fixtures, `--list` against their exact
 * tools/list, `check` against the transformer's diagnostics, exit statuses, usage errors.
 * docs/toolchains.md's manifest example, end to end in a fresh project, is
 * test/toolchains.test.ts's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { MCPServer, type Manifest, type ToolContract } from "typemcp";
import { ROOT, type DiagnosticSummary } from "./support/build";
import { runCli, tsconfig, writeProject } from "./support/cli";
import { diagnosticsOf, fixtureBuild, FIXTURES, FIXTURES_OUT, type Expected } from "./support/fixtures";

const expectedOf = (fixture: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture, "expected.json"), "utf8")) as Expected;

/** A diagnostic as tsc prints it (no --pretty); `file` relative to the working directory. */
function printed(file: string, d: DiagnosticSummary): string {
  return `${file}(${d.line},${d.column}): ${d.category} TS${d.code}: ${d.message}\n`;
}

/** A project of some fixtures' tool files, with the fixtures' own compiler options. */
function fixturesProject(folder: string, names: string[]): string {
  const files = names.map((name) =>
    path.relative(path.join(ROOT, ".build", folder), path.join(FIXTURES, name, "tool.ts")),
  );
  return path.join(
    writeProject(folder, {
      "tsconfig.json": JSON.stringify({
        extends: "../../../fixtures/tsconfig.json",
        compilerOptions: { noEmit: true },
        files,
        include: [],
      }),
    }),
    "tsconfig.json",
  );
}

/** The contracts the transformer wrote into compiled fixtures: their modules loaded with registration recorded. */
function transformerContracts(names: string[]): ToolContract[] {
  const recorded: ToolContract[] = [];
  const original = MCPServer.prototype.tool;
  const spy = jest.spyOn(MCPServer.prototype, "tool").mockImplementation(function (
    this: MCPServer,
    fn,
    options,
    compiled,
  ) {
    recorded.push(compiled!);
    return original.call(this, fn, options, compiled);
  });
  try {
    for (const name of names) require(path.join(FIXTURES_OUT, name, "tool.js"));
  } finally {
    spy.mockRestore();
  }
  return recorded;
}

/** Fixtures whose tools take no run-time options (title, annotations): their tools/list is the manifest's. */
const COMPARED = [
  "seed_get_forecast",
  "seed_get_temperature",
  "seed_get_temperatures",
  "seed_structured_output_false",
  "seed_weather_class",
  "arrays",
  "scalars",
  "unions",
  "void_result",
  "numeric_record",
  "dates",
];

describe("typemcp manifest", () => {
  let manifest: Manifest;
  let listed: Record<string, unknown[]>;
  beforeAll(() => {
    const project = fixturesProject("cli/fixtures", COMPARED);
    const out = path.join(ROOT, ".build", "cli", "fixtures", "manifest.json");
    // --out: the file, nothing on stdout.
    expect(runCli(["manifest", project, "--out", out])).toEqual({ status: 0, stdout: "", stderr: "" });
    manifest = JSON.parse(fs.readFileSync(out, "utf8"));
    const list = runCli(["manifest", "--list", "-p", project]);
    expect([list.status, list.stderr]).toEqual([0, ""]);
    listed = JSON.parse(list.stdout);
  });

  test("each entry is exactly the contract the transformer writes into the registration, keyed by tool name", () => {
    const contracts = transformerContracts(COMPARED);
    expect(contracts.length).toBeGreaterThan(COMPARED.length);
    expect(Object.keys(manifest)).toEqual(["tools", "prompts", "resources"]);
    expect(Object.keys(manifest.tools)).toEqual(contracts.map((c) => c.name));
    for (const contract of contracts) expect(manifest.tools[contract.name]).toEqual(contract);
    expect([manifest.prompts, manifest.resources]).toEqual([{}, {}]);
  });

  test("--list prints exactly what tools/list answers, the fixtures' expected tools", () => {
    expect(listed).toEqual({
      tools: COMPARED.flatMap((name) => expectedOf(name).tools!),
      prompts: [],
      resources: [],
      resourceTemplates: [],
    });
  });

  test("a warning goes to stderr and the tool stays (text only); a refused registration is left out, its error on stderr, exit 1", () => {
    const names = ["seed_get_forecast", "seed_class_without_fields", "seed_class_without_fields_strict"];
    const run = runCli(["manifest", fixturesProject("cli/refused", names)]);
    expect(run.status).toBe(1);
    const contracts = (JSON.parse(run.stdout) as Manifest).tools;
    expect(Object.keys(contracts)).toEqual(["get_forecast", "get_station"]);
    expect(contracts.get_station).toEqual({
      v: 2,
      name: "get_station",
      description: "Look up a weather station by name.",
      params: ["name"],
      inputSchema: (expectedOf("seed_class_without_fields").tools![0] as { inputSchema: object }).inputSchema,
    });
    const diagnostics = names.flatMap((name) =>
      expectedOf(name).diagnostics.map((d) => printed(`fixtures/${name}/${d.file}`, d)),
    );
    expect(diagnostics).toHaveLength(2);
    expect(run.stderr).toBe(diagnostics.join(""));
  });

  test("one name twice on one server, in one file or from another: an error at each later registration naming the first, the first kept", () => {
    const dir = writeProject("cli/duplicates", DUPLICATES);
    const run = runCli(["manifest"], dir);
    expect(run.status).toBe(1);
    expect(Object.keys(JSON.parse(run.stdout).tools)).toEqual(["get_weather"]);
    expect(JSON.parse(run.stdout).tools.get_weather.description).toBe("Weather, as a sentence.");
    expect(run.stderr).toBe(DUPLICATE_ERRORS);
  });

  test("one name, two different schemas on two servers: a manifest holds one contract per name, an error at the second", () => {
    const dir = writeProject("cli/two-servers", {
      "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
      "a.ts": `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("a");\n/** Weather, as a sentence. */\nexport function get_weather(city: string): string { return city; }\nmcp.tool(get_weather);\n`,
      "b.ts": `import { MCPServer } from "typemcp";\nconst other = new MCPServer("b");\nfunction get_weather(city: string, days: number): number { return days; }\nother.tool(get_weather);\n`,
    });
    const run = runCli(["manifest"], dir);
    expect(run.status).toBe(1);
    expect(Object.keys(JSON.parse(run.stdout).tools)).toEqual(["get_weather"]);
    expect(run.stderr).toBe(
      'b.ts(4,1): error TS93003: Tool name "get_weather" is registered more than once with different schemas (first at a.ts:5:1): a manifest holds one contract per tool name; give one of them another name with { name: "..." }\n',
    );
    expect(runCli(["check"], dir)).toMatchObject({
      status: 0,
      stdout: "2 tool registrations checked: no errors, 0 warnings.\n",
    });
  });

  test("forms are no part of the manifest (they belong to their ctx.elicit calls); a form's error is reported, and fails it", () => {
    const form = (field: string) =>
      `import { MCPServer, type ToolContext } from "typemcp";\nexport const mcp = new MCPServer("f");\ninterface Booking { ${field} }\n` +
      `async function book(ctx: ToolContext): Promise<string> {\n  return (await ctx.elicit<Booking>("Book")).action;\n}\nmcp.tool(book);\n`;
    const files = (field: string) => ({
      "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
      "server.ts": form(field),
    });
    const clean = runCli(["manifest"], writeProject("cli/form-clean", files("day: string")));
    expect([clean.status, clean.stderr, Object.keys(JSON.parse(clean.stdout))]).toEqual([
      0,
      "",
      ["tools", "prompts", "resources"],
    ]);
    const dir = writeProject("cli/form-error", files("when: Date"));
    const run = runCli(["manifest"], dir);
    const error =
      "server.ts(5,17): error TS93006: The form of this ctx.elicit call cannot be written from Booking\n  Booking.when: a Date is not allowed: use string with @format date-time (or date), which the answer holds as its text\n";
    expect([run.status, run.stderr, Object.keys(JSON.parse(run.stdout).tools)]).toEqual([1, error, ["book"]]);
    expect(runCli(["check"], dir)).toEqual({
      status: 1,
      stdout: `${error}1 tool registration checked: 1 error, 0 warnings.\n`,
      stderr: "",
    });
  });

  test("prompts and resources: keyed by prompt name and URI, listed as prompts/list, resources/list and resources/templates/list answer; a clash between two servers an error at the second", () => {
    const dir = writeProject("cli/kinds", KINDS);
    const run = runCli(["manifest"], dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'b.ts(7,1): error TS93003: Prompt name "review" is registered more than once with different schemas (first at a.ts:14:1): a manifest holds one contract per prompt name; give one of them another name with { name: "..." }\n' +
        'b.ts(8,1): error TS93003: Resource URI "config://app" is registered more than once with different schemas (first at a.ts:16:1): a manifest holds one contract per resource URI; register each URI once\n',
    );
    const manifest = JSON.parse(run.stdout) as Manifest;
    expect(Object.keys(manifest.tools)).toEqual(["echo"]);
    expect(manifest.prompts).toEqual({
      review: {
        v: 2,
        kind: "prompt",
        name: "review",
        description: "Review code.",
        params: ["code", "strict"],
        arguments: [
          { name: "code", description: "The code.", required: true },
          { name: "strict", required: false },
        ],
        argumentsSchema: {
          type: "object",
          title: "reviewArguments",
          properties: { code: { type: "string", description: "The code." }, strict: { type: "boolean" } },
          required: ["code"],
          additionalProperties: false,
        },
        convert: { strict: "boolean" },
        completions: { strict: ["true", "false"] },
      },
    });
    const noArguments = (name: string) => ({
      params: [],
      arguments: [],
      argumentsSchema: { type: "object", title: `${name}Arguments`, properties: {}, additionalProperties: false },
    });
    expect(manifest.resources).toEqual({
      "users://{id}/profile": {
        v: 2,
        kind: "resource",
        name: "profile",
        description: "A profile.",
        uri: "users://{id}/profile",
        template: true,
        params: ["id"],
        arguments: [{ name: "id", required: true }],
        argumentsSchema: {
          type: "object",
          title: "profileArguments",
          properties: { id: { type: "integer" } },
          required: ["id"],
          additionalProperties: false,
        },
        convert: { id: "number" },
        contents: "json",
        outputSchema: {
          title: "Profile",
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
          additionalProperties: false,
        },
      },
      "config://app": {
        v: 2,
        kind: "resource",
        name: "app",
        uri: "config://app",
        ...noArguments("app"),
        contents: "text",
      },
      "files://{name}": {
        v: 2,
        kind: "resource",
        name: "file",
        uri: "files://{name}",
        template: true,
        params: ["name"],
        arguments: [{ name: "name", required: true }],
        argumentsSchema: {
          type: "object",
          title: "fileArguments",
          properties: { name: { type: "string" } },
          required: ["name"],
          additionalProperties: false,
        },
        contents: "text",
      },
    });

    const list = runCli(["manifest", "--list"], dir);
    expect([list.status, list.stderr]).toEqual([1, run.stderr]);
    const { echo } = manifest.tools;
    expect(JSON.parse(list.stdout)).toEqual({
      tools: [{ name: "echo", inputSchema: echo.inputSchema, description: "Echoes.", outputSchema: echo.outputSchema }],
      prompts: [{ name: "review", description: "Review code.", arguments: manifest.prompts.review.arguments }],
      resources: [{ uri: "config://app", name: "app", mimeType: "text/plain" }],
      resourceTemplates: [
        {
          uriTemplate: "users://{id}/profile",
          name: "profile",
          description: "A profile.",
          mimeType: "application/json",
        },
        { uriTemplate: "files://{name}", name: "file", mimeType: "text/plain" },
      ],
    });

    // Two servers may each have their own: check counts every registration, by kind.
    expect(runCli(["check"], dir)).toEqual({
      status: 0,
      stdout: "7 registrations (1 tool, 2 prompts, 4 resources) checked: no errors, 0 warnings.\n",
      stderr: "",
    });
  });

  test("a project with no registrations: an empty manifest, an empty list", () => {
    const dir = writeProject("cli/empty", {
      "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
      "index.ts": "export const answer = 42;\n",
    });
    expect(runCli(["manifest"], dir)).toEqual({
      status: 0,
      stdout: '{\n  "tools": {},\n  "prompts": {},\n  "resources": {}\n}\n',
      stderr: "",
    });
    expect(runCli(["manifest", "--list"], dir)).toEqual({
      status: 0,
      stdout: '{\n  "tools": [],\n  "prompts": [],\n  "resources": [],\n  "resourceTemplates": []\n}\n',
      stderr: "",
    });
  });
});

/** A project with a tool, two prompts and three resources (one a template), on two servers. */
const KINDS = {
  "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
  "a.ts":
    `import { MCPServer, type Integer } from "typemcp";\nexport const mcp = new MCPServer("a");\n` +
    `/** Echoes. */\nexport function echo(text: string): string { return text; }\n` +
    `/**\n * Review code.\n * @param code The code.\n */\nfunction review(code: string, strict?: boolean): string { return code + strict; }\n` +
    `interface Profile { name: string }\n/** A profile. */\nfunction profile(id: Integer): Profile { return { name: String(id) }; }\n` +
    `mcp.tool(echo);\nmcp.prompt(review);\nmcp.resource("users://{id}/profile", profile);\nmcp.resource("config://app", (): string => "x", { name: "app" });\n`,
  "b.ts":
    `import { MCPServer } from "typemcp";\nimport { echo } from "./a";\nconst other = new MCPServer("b");\n` +
    `function review(code: string): string { return code + echo(code); }\nfunction bytes(): Uint8Array { return new Uint8Array(); }\n` +
    `function file(name: string): string { return name; }\n` +
    `other.prompt(review);\nother.resource("config://app", bytes);\nother.resource("files://{name}", file);\n`,
};

/** A project registering one tool name three times on one server: twice in a.ts, once in b.ts through an import. */
const DUPLICATES = {
  "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
  "a.ts": `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("a");\n/** Weather, as a sentence. */\nexport function get_weather(city: string): string { return city; }\nmcp.tool(get_weather);\nmcp.tool(get_weather);\n`,
  "b.ts": `import { mcp } from "./a";\nfunction get_weather(city: string, days: number): number { return days; }\nmcp.tool(get_weather);\n`,
};
const DUPLICATE_ERRORS =
  'a.ts(6,1): error TS93003: Tool name "get_weather" is already registered on this server, at a.ts:5:1: give one of them another name with { name: "..." }\n' +
  'b.ts(3,1): error TS93003: Tool name "get_weather" is already registered on this server, at a.ts:5:1: give one of them another name with { name: "..." }\n';

describe("typemcp check", () => {
  test("a tool name registered twice on one server is an error, as in the manifest and the build", () => {
    const dir = writeProject("cli/check-duplicates", DUPLICATES);
    expect(runCli(["check"], dir)).toEqual({
      status: 1,
      stdout: `${DUPLICATE_ERRORS}3 tool registrations checked: 2 errors, 0 warnings.\n`,
      stderr: "",
    });
  });

  const HEADER = `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("t");\n`;
  const STATION = `class Station {\n  constructor(name: string) {\n    Object.assign(this, { name });\n  }\n}\n/** Look up a weather station by name. */\nfunction get_station(name: string): Station {\n  return new Station(name);\n}\n`;
  const WARNING =
    "warning TS93001: Function get_station: return type Station is not serializable for structured output, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)\n  get_station: result: Station is a class with no declared properties\n";

  test("a clean project: the count, exit 0", () => {
    const dir = writeProject("cli/check-clean", {
      "tsconfig.json": tsconfig({}, { include: ["src"] }),
      "src/server.ts": `${HEADER}/** Say hello. */\nfunction greet(name: string): string { return name; }\nmcp.tool(greet);\n`,
    });
    expect(runCli(["check"], dir)).toEqual({
      status: 0,
      stdout: "1 tool registration checked: no errors, 0 warnings.\n",
      stderr: "",
    });
  });

  test("warnings print, as tsc prints them, and do not fail", () => {
    const dir = writeProject("cli/check-warning", {
      "tsconfig.json": tsconfig({}, { include: ["src"] }),
      "src/server.ts": `${HEADER}${STATION}mcp.tool(get_station);\n`,
    });
    expect(runCli(["check"], dir)).toEqual({
      status: 0,
      stdout: `src/server.ts(9,37): ${WARNING}1 tool registration checked: no errors, 1 warning.\n`,
      stderr: "",
    });
    // --pretty: tsc's terminal format, file:line:col, the source line underlined.
    const pretty = runCli(["check", "--pretty"], dir);
    expect(pretty.status).toBe(0);
    // eslint-disable-next-line no-control-regex -- ANSI colour codes start with ESC
    const plain = pretty.stdout.replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain).not.toBe(pretty.stdout);
    expect(plain).toContain(`src/server.ts:9:37 - ${WARNING.split("\n")[0]}`);
    expect(plain).toContain(
      `9 function get_station(name: string): Station {\n${" ".repeat("9 function get_station(name: string): ".length)}~~~~~~~`,
    );
    expect(plain.endsWith("\n1 tool registration checked: no errors, 1 warning.\n")).toBe(true);
  });

  test("the compiler's errors and typemcp's, sorted by place, with file(line,col); exit 1", () => {
    const dir = writeProject("cli/check-errors", {
      "tsconfig.json": tsconfig({}, { include: ["src"] }),
      "src/server.ts": `${HEADER}${STATION}mcp.tool(get_station);\nmcp.tool(get_station, { name: "station", structuredOutput: true });\nconst n: number = "one";\n`,
      "src/lookup.ts": `import { mcp } from "./server";\ninterface Q { id: bigint }\nfunction lookup(query: Q): string { return ""; }\nmcp.tool(lookup);\n`,
    });
    const run = runCli(["check", path.join(dir, "tsconfig.json")], ROOT);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      ".build/cli/check-errors/src/lookup.ts(3,24): error TS93002: Function lookup: parameter query cannot be described as JSON Schema\n" +
        "  lookup: query.id: bigint is not JSON-serializable (JSON.stringify throws on bigint): declare number (Number(value)) or string (String(value)) instead\n" +
        `.build/cli/check-errors/src/server.ts(9,37): ${WARNING}` +
        ".build/cli/check-errors/src/server.ts(9,37): error TS93001: Function station: return type Station is not serializable for structured output\n" +
        "  station: result: Station is a class with no declared properties\n" +
        ".build/cli/check-errors/src/server.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
        "3 tool registrations checked: 3 errors, 1 warning.\n",
    );
  });

  test("on the fixtures it reports exactly the transformer's diagnostics of the build", () => {
    const build = fixtureBuild();
    const run = runCli(["check", "fixtures/tsconfig.json"]);
    const errors = build.typemcpDiagnostics.filter((d) => d.category === "error").length;
    const warnings = build.typemcpDiagnostics.filter((d) => d.category === "warning").length;
    expect(build.compilerDiagnostics).toBe("");
    expect(run.status).toBe(errors ? 1 : 0);
    const lines = run.stdout.split("\n");
    expect(lines.filter((l) => /^\S.*\(\d+,\d+\): (error|warning) TS/.test(l))).toHaveLength(
      build.typemcpDiagnostics.length,
    );
    for (const d of build.typemcpDiagnostics) expect(run.stdout).toContain(printed(`fixtures/${d.file}`, d));
    expect(lines.at(-2)).toMatch(
      new RegExp(
        `^\\d+ registrations \\(\\d+ tools, 1 prompt, 1 resource\\) checked: ${errors === 1 ? "1 error" : errors ? `${errors} errors` : "no errors"}, ${warnings} warnings?\\.$`,
      ),
    );
    expect(diagnosticsOf(build, "seed_class_without_fields")).toEqual(
      expectedOf("seed_class_without_fields").diagnostics,
    );
  });
});

describe("typemcp doctor: the project's build command, in one line", () => {
  const typescript = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "typescript", "package.json"), "utf8"))
    .version as string;
  const tsPatch = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "ts-patch", "package.json"), "utf8"))
    .version as string;
  const PLUGIN = { plugins: [{ transform: "typemcp/transformer" }] };

  test("TypeScript 5 with ts-patch and the plugin: tspc, exit 0", () => {
    const dir = writeProject("cli/doctor-tspc", { "tsconfig.json": tsconfig(PLUGIN, { include: ["*.ts"] }) });
    expect(runCli(["doctor"], dir)).toEqual({
      status: 0,
      stdout: `TypeScript ${typescript} with ts-patch ${tsPatch}: build with \`npx tspc\` (or \`npx typemcp build\`, which builds the same).\n`,
      stderr: "",
    });
  });

  test("the plugin in a tsconfig.json the project's extends: read as tsc reads it", () => {
    const dir = writeProject("cli/doctor-extends", {
      "base.json": tsconfig(PLUGIN),
      "tsconfig.json": JSON.stringify({ extends: "./base.json", include: ["*.ts"] }),
    });
    expect(runCli(["doctor"], dir).status).toBe(0);
  });

  test("ts-patch without the plugin: tspc would build without the schemas, exit 1", () => {
    const dir = writeProject("cli/doctor-no-plugin", { "tsconfig.json": tsconfig({}, { include: ["*.ts"] }) });
    expect(runCli(["doctor"], dir)).toEqual({
      status: 1,
      stdout: `TypeScript ${typescript} with ts-patch ${tsPatch}, but tsconfig.json has no { "transform": "typemcp/transformer" } plugin, so \`npx tspc\` builds without the tools' schemas: add it to compilerOptions.plugins, or build with \`npx typemcp build\`.\n`,
      stderr: "",
    });
  });

  test("no ts-patch where the project is: typemcp build, or ts-patch to install, exit 0", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-doctor-"));
    try {
      fs.writeFileSync(path.join(dir, "tsconfig.json"), tsconfig(PLUGIN, { include: ["*.ts"] }));
      expect(runCli(["doctor"], dir, { TYPEMCP_TYPESCRIPT: path.join(ROOT, "node_modules", "typescript") })).toEqual({
        status: 0,
        stdout: `TypeScript ${typescript} without ts-patch: build with \`npx typemcp build\` (or install ts-patch@^3.3.0 to build with \`npx tspc\`).\n`,
        stderr: "",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("arguments", () => {
  const SHORT =
    "Usage: typemcp build [tsconfig.json] [--watch]\n       typemcp check [tsconfig.json] [--pretty] [--watch]\n       typemcp manifest [tsconfig.json] [--list] [--out <file>]\n       typemcp doctor [tsconfig.json]\nRun typemcp --help for details.\n";

  test.each([
    [[], "typemcp: no command given"],
    [["serve"], 'typemcp: unknown command "serve"'],
    [["build", "--list"], "typemcp: unknown option --list for build"],
    [["manifest", "--lst"], "typemcp: unknown option --lst for manifest"],
    [["check", "--list"], "typemcp: unknown option --list for check"],
    [["manifest", "--out"], "typemcp: --out needs a value"],
    [["check", "a.json", "b.json"], "typemcp: more than one tsconfig.json given"],
  ])("%j: a usage message on stderr, exit 2", (args, message) => {
    expect(runCli(args)).toEqual({ status: 2, stdout: "", stderr: `${message}\n${SHORT}` });
  });

  test("--help prints the usage on stdout, exit 0", () => {
    const run = runCli(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: typemcp <command> \[tsconfig.json\] \[options\]\n/);
    expect(run.stdout).toContain("  manifest [tsconfig.json]");
    expect(run.stdout).toContain("  check [tsconfig.json]");
  });

  test("--version prints the package's version", () => {
    expect(runCli(["--version"])).toEqual({
      status: 0,
      stdout: `${JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version}\n`,
      stderr: "",
    });
  });

  test("a missing tsconfig.json is one line, no stack trace, exit 2", () => {
    const dir = writeProject("cli/no-config", { "index.ts": "export {};\n" });
    expect(runCli(["check"], dir)).toEqual({
      status: 2,
      stdout: "",
      stderr: "typemcp: cannot find tsconfig.json: pass the path of your tsconfig.json (or run in its folder)\n",
    });
    expect(runCli(["manifest", "nowhere/tsconfig.json"], dir)).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "typemcp: cannot find nowhere/tsconfig.json: pass the path of your tsconfig.json (or run in its folder)\n",
    });
  });

  test("a folder stands for its tsconfig.json", () => {
    writeProject("cli/folder", { "tsconfig.json": tsconfig({}, { include: ["*.ts"] }), "index.ts": "export {};\n" });
    expect(runCli(["check", "cli/folder"], path.join(ROOT, ".build"))).toEqual({
      status: 0,
      stdout: "0 registrations checked: no errors, 0 warnings.\n",
      stderr: "",
    });
  });

  test("errors in tsconfig.json itself are reported like tsc's, exit 1", () => {
    const dir = writeProject("cli/bad-config", {
      "tsconfig.json": `{ "compilerOptions": { "strictest": true, "lib": ["ES2022"], "types": [] }, "include": ["*.ts"] }`,
      "index.ts": "export {};\n",
    });
    const run = runCli(["check"], dir);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      "tsconfig.json(1,24): error TS5025: Unknown compiler option 'strictest'. Did you mean 'strict'?\n0 registrations checked: 1 error, 0 warnings.\n",
    );
  });
});
