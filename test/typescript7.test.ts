/**
 * One type model, two checkers: every fixture built by `typemcp build` on TypeScript 7 (its own
 * compiler emitting, typemcp asking its checker API; test/global-setup.ts) against the same
 * fixtures built with the transformer on TypeScript 5.9. The emitted JavaScript is compared
 * byte for byte, contracts included; the diagnostics line for line; the built servers serve
 * exactly expected.json; `typemcp check` and `typemcp manifest` print the same both ways.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Manifest, MCPServer, ToolContract } from "typemcp";
import { emittedForms, emittedRegistrations } from "./support/emitted-contracts";
import { fixtureBuild, fixtures, FIXTURES_OUT, type ExpectedCall } from "./support/fixtures";
import { connectClient } from "./support/in-memory";
import { observe } from "./support/observe";
import { CLI, runCli, tsconfig, writeProject } from "./support/cli";
import { ROOT } from "./support/build";
import {
  canonical,
  FIXTURES_TS7,
  FIXTURES_TS7_OUT,
  KNOWN_ORDER_DIFFERENCES,
  runCli7,
  TS71_DIR,
  WITH_TS7,
  WITH_TS71,
  writeFixturesTs7Config,
} from "./support/ts7";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { anyJson, mutantsOf, valuesOf, type Json } from "./support/json-arbitraries";
import type { CliRun } from "./support/cli";

const cases = fixtures();
// The fixtures built by `typemcp build` on TypeScript 7, beside the transformer's build (test/global-setup.ts).
/** A project under .build/<folder> (see writeProject), its sources in src/ built to dist/. */
function srcProject(
  folder: string,
  files: Record<string, string>,
  compilerOptions: Record<string, unknown> = {},
): string {
  return writeProject(folder, {
    "tsconfig.json": tsconfig(
      { rootDir: "src", outDir: "dist", noEmit: false, ...compilerOptions },
      { include: ["src"] },
    ),
    ...Object.fromEntries(Object.entries(files).map(([name, text]) => [`src/${name}`, text])),
  });
}

const built: CliRun = runCli7(["build", writeFixturesTs7Config()]);
const modules = (dir: string) =>
  Object.fromEntries(cases.map((c) => [c.name, fs.readFileSync(path.join(dir, c.name, "tool.js"), "utf8")]));

/** The registrations of an emitted module by `<fixture>/<tool>`. */
function contractsOf(name: string, js: string): Map<string, { text: string; contract: ToolContract }> {
  return new Map(emittedRegistrations(js).map((r) => [`${name}/${r.contract?.name ?? r.fn}`, r]));
}

describe("typemcp build on TypeScript 7 and the transformer on TypeScript 5.9, the fixtures", () => {
  const ts5 = modules(FIXTURES_OUT);
  const ts7 = modules(FIXTURES_TS7_OUT);

  test("every emitted file is the same, byte for byte, but for the contracts of the tools whose union members TypeScript 7 orders otherwise", () => {
    const differing: string[] = [];
    for (const { name } of cases) {
      if (ts5[name] === ts7[name]) continue;
      const [a, b] = [contractsOf(name, ts5[name]), contractsOf(name, ts7[name])];
      for (const [tool, registration] of a) if (registration.text !== b.get(tool)?.text) differing.push(tool);
      // Outside the contracts, the text is the same.
      const strip = (js: string) => js.replace(/JSON\.parse\('[^\n]*?'\)(?=\))/g, "JSON.parse(...)");
      expect([name, strip(ts7[name])]).toEqual([name, strip(ts5[name])]);
    }
    expect(differing.sort()).toEqual([...KNOWN_ORDER_DIFFERENCES].sort());
  });

  test("every contract is the same, the known ones up to the order of their union members and properties", () => {
    let compared = 0;
    for (const { name } of cases) {
      const [a, b] = [contractsOf(name, ts5[name]), contractsOf(name, ts7[name])];
      expect([...b.keys()]).toEqual([...a.keys()]);
      for (const [tool, { contract }] of a) {
        const other = b.get(tool)!.contract;
        if (KNOWN_ORDER_DIFFERENCES.includes(tool)) expect(canonical(other)).toEqual(canonical(contract));
        else expect([tool, JSON.stringify(other)]).toEqual([tool, JSON.stringify(contract)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  test("every ctx.elicit<T>() form is the same, byte for byte, in the same call", () => {
    let compared = 0;
    for (const { name } of cases) {
      const [a, b] = [emittedForms(ts5[name]), emittedForms(ts7[name])];
      expect([name, b.map((f) => [f.args, f.text])]).toEqual([name, a.map((f) => [f.args, f.text])]);
      compared += a.filter((f) => f.form !== undefined).length;
    }
    // fixtures/forms: its eight calls, the refused ones with their error.
    expect(compared).toBe(8);
  });

  test("typemcp build prints the transformer's diagnostics, as tsc prints them, and fails on the error among them", () => {
    const expected = fixtureBuild().typemcpDiagnostics.map(
      (d) => `fixtures/${d.file}(${d.line},${d.column}): ${d.category} TS${d.code}: ${d.message}\n`,
    );
    const errors = fixtureBuild().typemcpDiagnostics.filter((d) => d.category === "error").length;
    const warnings = fixtureBuild().typemcpDiagnostics.length - errors;
    const lines = built.stdout.split(/(?=^\S)/m);
    expect(lines.slice(0, -1).sort()).toEqual([...expected].sort());
    // As many registrations as typemcp check counts on TypeScript 5.9.
    // The fixtures register tools, and one prompt and one resource (fixtures/auth).
    const registrations = /^(\d+ registrations \(\d+ tools, 1 prompt, 1 resource\)) checked/m.exec(
      runCli(["check", "fixtures/tsconfig.json"]).stdout,
    )![1];
    expect(lines.at(-1)).toBe(
      `${registrations} built: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warnings.\n`,
    );
    expect([built.status, built.stderr]).toEqual([1, ""]);
  });

  test("no source map is left behind: the project writes none", () => {
    const maps = cases.filter((c) => fs.existsSync(path.join(FIXTURES_TS7_OUT, c.name, "tool.js.map")));
    expect(maps).toEqual([]);
    expect(Object.values(ts7).filter((js) => js.includes("sourceMappingURL"))).toEqual([]);
  });
});

describe("TypeScript 7.1: its API at typescript/sync, not 7.0's typescript/unstable/sync", () => {
  const version = (JSON.parse(fs.readFileSync(path.join(TS71_DIR, "package.json"), "utf8")) as { version: string })
    .version;
  const folder = path.join(ROOT, ".build", "fixtures-ts7.1");
  const built71 = runCli(["build", writeFixturesTs7Config(folder)], ROOT, WITH_TS71);

  test("the installed package is 7.1 and exports the API only at 7.1's place", () => {
    expect(version).toMatch(/^7\.1\./);
    const exported = Object.keys(
      (JSON.parse(fs.readFileSync(path.join(TS71_DIR, "package.json"), "utf8")) as { exports: object }).exports,
    );
    expect(exported).toEqual(expect.arrayContaining(["./sync", "./ast", "./ast/is"]));
    expect(exported.filter((subpath) => subpath.startsWith("./unstable/"))).toEqual([]);
  });

  test("typemcp build on the fixtures prints what it prints on 7.0 and writes every file byte for byte as on 7.0", () => {
    expect(built71).toEqual(built);
    const seven = modules(FIXTURES_TS7_OUT);
    expect(modules(path.join(folder, "out"))).toEqual(seven);
  });

  test("check and manifest print what they print on 7.0", () => {
    for (const args of [
      ["check", "fixtures/tsconfig.json"],
      ["manifest", "fixtures/tsconfig.json"],
    ])
      expect(runCli(args, ROOT, WITH_TS71)).toEqual(runCli7(args));
  });
});

test.each([
  ["7.0", WITH_TS7],
  ["7.1", WITH_TS71],
])("typemcp doctor on TypeScript %s: tspc cannot build it, typemcp build does, in one line", (_, env) => {
  const dir = srcProject("doctor-ts7", { "server.ts": "export {};\n" });
  const version = (
    JSON.parse(fs.readFileSync(path.join(env.TYPEMCP_TYPESCRIPT, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  expect(runCli(["doctor"], dir, env)).toEqual({
    status: 0,
    stdout: `TypeScript ${version} is installed, which ts-patch cannot run: \`npx tspc\` stops inside ts-patch (TypeError: Cannot read properties of undefined (reading 'LineFeed')) before typemcp loads. Build with \`npx typemcp build\` instead.\n`,
    stderr: "",
  });
});

describe("a TypeScript typemcp does not know: one line saying what was found and what typemcp supports, exit 2", () => {
  /** A package folder holding only a package.json, as a TypeScript of that version and those exports would have it. */
  const fakeTypeScript = (folder: string, manifest: object) =>
    writeProject(folder, { "package.json": JSON.stringify({ name: "typescript", ...manifest }) });
  const project = () => srcProject("unknown-ts-project", { "server.ts": "export {};\n" });

  test("an 8.x", () => {
    const ts8 = fakeTypeScript("typescript-8", { version: "8.0.0", exports: { "./sync": "./sync.js" } });
    for (const command of ["build", "check", "manifest", "doctor"])
      expect(runCli([command], project(), { TYPEMCP_TYPESCRIPT: ts8 })).toEqual({
        status: 2,
        stdout: "",
        stderr:
          "typemcp: TypeScript 8.0.0 is newer than typemcp knows: typemcp supports TypeScript 5.x, 6.x, 7.0 and 7.1 (npm install --save-dev typescript@~7.0.2)\n",
      });
  });

  test("a 7.x whose API is at neither 7.0's place nor 7.1's", () => {
    const moved = fakeTypeScript("typescript-7-moved", { version: "7.2.0", exports: { "./api/sync": "./sync.js" } });
    for (const command of ["build", "check", "manifest"])
      expect(runCli([command], project(), { TYPEMCP_TYPESCRIPT: moved })).toEqual({
        status: 2,
        stdout: "",
        stderr:
          "typemcp: TypeScript 7.2.0 exports its API at neither typescript/sync (7.1) nor typescript/unstable/sync (7.0), the places typemcp knows: typemcp supports TypeScript 5.x, 6.x, 7.0 and 7.1 (npm install --save-dev typescript@~7.0.2)\n",
      });
  });
});

describe.each(cases)("$name, built on TypeScript 7, served", ({ name, expected }) => {
  test("tools/list and calls through the SDK client are expected.json's", async () => {
    const module = path.join(FIXTURES_TS7_OUT, name, "tool.js");
    if (expected.registrationError !== undefined) {
      expect(() => require(module)).toThrow(expected.registrationError);
      return;
    }
    const { mcp } = require(module) as { mcp: MCPServer };
    const client = await connectClient(mcp);
    try {
      const observed = await observe(client, expected);
      const known = (tool: string) => KNOWN_ORDER_DIFFERENCES.includes(`${name}/${tool}`);
      const anyKnown = (expected.tools as { name: string }[]).some((tool) => known(tool.name));
      expect(anyKnown ? canonical(observed.tools) : observed.tools).toEqual(
        anyKnown ? canonical(expected.tools) : expected.tools,
      );
      // A known tool's results: the same data; its texts (JSON of the data, the values an enum
      // admits) list properties and members in the schema's order.
      const data = (call: ExpectedCall) =>
        known(call.tool)
          ? { tool: call.tool, error: call.error, result: { ...(call.result as object), content: undefined } }
          : call;
      expect(observed.calls.map(data)).toEqual((expected.calls ?? []).map(data));
    } finally {
      await client.close();
    }
  });
});

describe("typemcp check and manifest on TypeScript 7", () => {
  test("check prints exactly what it prints on TypeScript 5.9: the compiler's diagnostics and typemcp's", () => {
    const ts5 = runCli(["check", "fixtures/tsconfig.json"]);
    const ts7 = runCli7(["check", "fixtures/tsconfig.json"]);
    expect(ts7).toEqual(ts5);
    // 15 errors of registrations, 4 of fixtures/forms' ctx.elicit calls.
    expect(ts7.stdout).toMatch(
      /^\d+ registrations \(\d+ tools, 1 prompt, 1 resource\) checked: 19 errors, 2 warnings\.$/m,
    );
  });

  test("a tool name registered twice on one server: the same errors as TypeScript 5's (a const through an import, a readonly property, a class's @tool methods)", () => {
    const dir = writeProject("ts7-duplicates", {
      "tsconfig.json": tsconfig({ experimentalDecorators: true }, { include: ["*.ts"] }),
      "a.ts": `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("a");\nexport function get_weather(city: string): string { return city; }\nmcp.tool(get_weather);\nmcp.tool(get_weather);\n`,
      "b.ts": `import { mcp } from "./a";\nfunction get_weather(city: string, days: number): number { return days; }\nmcp.tool(get_weather);\n`,
      "c.ts":
        `import { MCPServer, tool } from "typemcp";\nclass Host { readonly mcp = new MCPServer("c"); add() { this.mcp.tool(function f(): string { return ""; }); this.mcp.tool(function f(): string { return ""; }); } }\n` +
        `let moving = new MCPServer("d");\nmoving.tool(function g(): string { return ""; });\nmoving.tool(function g(): string { return ""; });\n` +
        `class Tools {\n  @tool() h(): string { return ""; }\n  @tool({ name: "h" }) other(): string { return ""; }\n}\nexport { Host, Tools };\n`,
    });
    const ts7 = runCli7(["check"], dir);
    expect(ts7).toEqual(runCli(["check"], dir));
    expect(ts7.stdout.match(/already registered on this server, at [^:]+:\d+:\d+/g)).toEqual([
      "already registered on this server, at a.ts:4:1",
      "already registered on this server, at a.ts:4:1",
      "already registered on this server, at c.ts:2:57",
      "already registered on this server, at c.ts:7:4",
    ]);
  });

  test("check reports the compiler's own errors with file(line,col), as tsc does", () => {
    const dir = writeProject("ts7-type-error", {
      "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
      "a.ts": `import { MCPServer } from "typemcp";\nconst mcp = new MCPServer("t");\nconst n: number = "one";\nfunction f(x: bigint): string { return ""; }\nmcp.tool(f);\n`,
    });
    const ts7 = runCli7(["check"], dir);
    expect(ts7).toEqual(runCli(["check"], dir));
    expect(ts7.stdout).toBe(
      "a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
        "a.ts(4,15): error TS93002: Function f: parameter x cannot be described as JSON Schema\n  f: x: bigint is not JSON-serializable (JSON.stringify throws on bigint): declare number (Number(value)) or string (String(value)) instead\n" +
        "1 tool registration checked: 2 errors, 0 warnings.\n",
    );
    expect(ts7.status).toBe(1);
  });

  test("manifest prints the same contracts, the known ones up to the order of their properties", () => {
    const ts5 = runCli(["manifest", "fixtures/tsconfig.json"]);
    const ts7 = runCli7(["manifest", "fixtures/tsconfig.json"]);
    expect([ts7.status, ts7.stderr]).toEqual([ts5.status, ts5.stderr]);
    const [a, b] = [JSON.parse(ts5.stdout), JSON.parse(ts7.stdout)].map((m: Manifest) => m.tools);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    const differing = Object.keys(a).filter((tool) => JSON.stringify(a[tool]) !== JSON.stringify(b[tool]));
    expect(differing.map((tool) => KNOWN_ORDER_DIFFERENCES.find((known) => known.endsWith(`/${tool}`)))).not.toContain(
      undefined,
    );
    expect(canonical(b)).toEqual(canonical(a));
  });
});

/** The TypeScripts a command runs on: the project's 5.9, and 7.0 and 7.1 chosen with TYPEMCP_TYPESCRIPT. */
const TYPESCRIPTS: { typescript: string; env: Record<string, string> }[] = [
  { typescript: "5.9", env: {} },
  { typescript: "7.0", env: WITH_TS7 },
  { typescript: "7.1", env: WITH_TS71 },
];

/** `typemcp <command> --watch` in `dir`: its output so far, and a wait for its next "Watching for file changes." line. */
function startWatch(command: "build" | "check", dir: string, env: Record<string, string>) {
  const child = spawn(process.execPath, [CLI, command, "--watch"], { cwd: dir, env: { ...process.env, ...env } });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  let seen = 0;
  return {
    output: () => output,
    /** Resolves once the command has run again (the first time: once it runs and watches). */
    next: async (): Promise<string> => {
      const from = output.length;
      seen++;
      for (let waited = 0; (output.match(/Watching for file changes\./g) ?? []).length < seen; waited += 25) {
        if (waited > 60_000) throw new Error(`no run after a change:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return output.slice(from);
    },
    stop: async () => {
      child.kill("SIGINT");
      if (child.exitCode === null) await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** A change saved as `sed -i` saves it, and most editors: a new file written, then renamed over the old one. */
const renameSave = (file: string, from: RegExp, to: string) =>
  execFileSync("sed", ["-E", "-i", `s/${from.source}/${to}/`, file]);

const greeter = (parameters: string) =>
  `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("w");\nfunction greet(${parameters}): string { return ""; }\nmcp.tool(greet);\n`;

describe.each(TYPESCRIPTS)("typemcp build --watch on TypeScript $typescript", ({ typescript, env }) => {
  test("every save is built: five saves by rename in a row, a save in place, a new file, a syntax error and its fix, the new file removed", async () => {
    const dir = srcProject(`watch-${typescript}`, { "server.ts": greeter("name: string") });
    const server = path.join(dir, "src", "server.ts");
    const watching = startWatch("build", dir, env);
    const params = (file = "server.js") =>
      emittedRegistrations(fs.readFileSync(path.join(dir, "dist", file), "utf8"))[0].contract.params;
    const rebuilt = (output: string, file = "src/server.ts") =>
      expect(output).toMatch(
        new RegExp(`^\\[[\\d:]+\\] File change detected \\(${file.replace(".", "\\.")}\\): building again\\.\\n`),
      );
    try {
      expect(await watching.next()).toMatch(/^1 tool registration built: no errors, 0 warnings\.\n\[[\d:]+\] Watching/);
      expect(params()).toEqual(["name"]);
      for (let i = 1; i <= 5; i++) {
        renameSave(server, /greet\([^)]*\)/, `greet(name: string, edit${i}: number)`);
        rebuilt(await watching.next());
        expect(params()).toEqual(["name", `edit${i}`]);
      }
      // In place: the same file written over.
      fs.writeFileSync(server, greeter("name: string, inPlace: boolean"));
      rebuilt(await watching.next());
      expect(params()).toEqual(["name", "inPlace"]);
      // A new file: the program takes it in, its contract is in its output.
      fs.writeFileSync(
        path.join(dir, "src", "extra.ts"),
        `import { mcp } from "./server";\nfunction extra(count: number): number { return count; }\nmcp.tool(extra);\n`,
      );
      const added = await watching.next();
      rebuilt(added, "src/extra.ts");
      expect(added).toContain("2 tool registrations built: no errors, 0 warnings.\n");
      expect(params("extra.js")).toEqual(["count"]);
      // A stray `*//`: tsc's diagnostic, with its file and place, and the build goes on watching.
      renameSave(server, /^function greet/, "\\/** Greets. *\\/\\/\\nfunction greet");
      const broken = await watching.next();
      rebuilt(broken);
      expect(broken).toContain("src/server.ts(3,15): error TS1161: Unterminated regular expression literal.\n");
      expect(broken).not.toMatch(/^typemcp: /m);
      renameSave(server, /\*\/\/$/, "*\\/");
      const fixed = await watching.next();
      expect(fixed).toContain("2 tool registrations built: no errors, 0 warnings.\n");
      expect(params()).toEqual(["name", "inPlace"]);
      expect(fs.readdirSync(path.join(dir, "dist")).sort()).toEqual(["extra.js", "server.js"]);
      // A file removed leaves the program: its registration is no longer counted.
      fs.rmSync(path.join(dir, "src", "extra.ts"));
      const removed = await watching.next();
      rebuilt(removed, "src/extra.ts");
      expect(removed).toContain("1 tool registration built: no errors, 0 warnings.\n");
    } finally {
      await watching.stop();
    }
  }, 240_000);
});

describe.each(TYPESCRIPTS)(
  "typemcp build on TypeScript $typescript: the compiler's diagnostics first, with their places, and counted",
  ({ typescript, env }) => {
    const ts7 = typescript !== "5.9";
    const build = (folder: string, source: string) => {
      const dir = srcProject(`${folder}-${typescript}`, { "server.ts": source });
      return { dir, run: runCli(["build"], dir, env) };
    };
    /** What tsc wrote and nothing else: no source map typemcp asked for is left, nor its sourceMappingURL line. */
    const expectOnlyTscOutput = (dir: string) => {
      expect(fs.readdirSync(path.join(dir, "dist"))).toEqual(["server.js"]);
      expect(fs.readFileSync(path.join(dir, "dist", "server.js"), "utf8")).not.toContain("sourceMappingURL");
    };

    test("a type error: tsc's line, and the summary counts it with typemcp's, exit 1", () => {
      const { run } = build("tsc-error", `${greeter("name: string")}const n: number = "one";\nexport { n };\n`);
      expect(run).toEqual({
        status: 1,
        stdout:
          "src/server.ts(5,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
          "1 tool registration built: 1 error, 0 warnings.\n",
        stderr: "",
      });
    });

    test("an unterminated string: tsc's diagnostics, then (TypeScript 7) the file whose JavaScript does not parse, located; no crash, no stray map", () => {
      const { dir, run } = build("unterminated", greeter("name: string").replace('return ""', 'return "Overcast'));
      const tsc =
        "src/server.ts(3,59): error TS1002: Unterminated string literal.\n" +
        "src/server.ts(5,1): error TS1005: '}' expected.\n";
      expect(run).toEqual({
        status: 1,
        stdout: ts7
          ? tsc +
            "src/server.ts(3,47): error TS93005: The JavaScript TypeScript 7 emitted for this file does not parse (Unterminated string constant at dist/server.js(7,12)), so typemcp could not write the contracts of its 1 tool registration into it: fix the syntax error and build again\n" +
            "1 tool registration built: 3 errors, 0 warnings.\n"
          : `${tsc}1 tool registration built: 2 errors, 0 warnings.\n`,
        stderr: "",
      });
      expectOnlyTscOutput(dir);
    });

    test("a stray *//: tsc's TS1161 with its place, then (TypeScript 7) the file whose JavaScript does not parse; no crash, no stray map", () => {
      const { dir, run } = build(
        "stray-comment-end",
        greeter("name: string").replace("function greet", "/** Greets. *//\nfunction greet"),
      );
      const tsc = "src/server.ts(3,15): error TS1161: Unterminated regular expression literal.\n";
      expect(run).toEqual({
        status: 1,
        stdout: ts7
          ? tsc +
            "src/server.ts(3,16): error TS93005: The JavaScript TypeScript 7 emitted for this file does not parse (Unterminated regular expression at dist/server.js(6,17)), so typemcp could not write the contracts of its 1 tool registration into it: fix the syntax error and build again\n" +
            "1 tool registration built: 2 errors, 0 warnings.\n"
          : `${tsc}1 tool registration built: 1 error, 0 warnings.\n`,
        stderr: "",
      });
      expectOnlyTscOutput(dir);
    });
  },
);

test("tsc's errors are counted from its output, plain and --pretty (as on a terminal) alike", () => {
  const { tscErrorCount } = require(
    path.join(ROOT, "dist", "transformer", "ts7", "build.js"),
  ) as typeof import("../transformer/ts7/build");
  const dir = srcProject("tsc-count", {
    "a.ts": `const n: number = "one";\nexport { n };\n`,
    "b.ts": `const s: string = 1;\nconst t: string = 2;\nexport { s, t };\n`,
  });
  const tsc = (pretty: boolean) =>
    spawnSync(
      process.execPath,
      [
        path.join(ROOT, "node_modules", "typescript-7", "bin", "tsc"),
        "-p",
        ".",
        "--noEmit",
        "--pretty",
        String(pretty),
      ],
      { cwd: dir, encoding: "utf8" },
    ).stdout;
  expect(tscErrorCount(tsc(false), false)).toBe(3);
  expect(tscErrorCount(tsc(true), true)).toBe(3);
  expect(tscErrorCount("", false)).toBe(0);
  expect(tscErrorCount("", true)).toBe(0);
});

test("typemcp check --watch on TypeScript 7 sees five saves by rename in a row", async () => {
  const dir = writeProject("ts7-check-watch", {
    "tsconfig.json": tsconfig({}, { include: ["*.ts"] }),
    "server.ts": greeter("name: string"),
  });
  const watching = startWatch("check", dir, WITH_TS7);
  try {
    expect(await watching.next()).toMatch(/^1 tool registration checked: no errors, 0 warnings\.\n/);
    for (let i = 1; i <= 5; i++) {
      renameSave(path.join(dir, "server.ts"), /greet\([^)]*\)/, `greet(name: string, edit${i}: number)`);
      const checked = await watching.next();
      expect(checked).toMatch(
        /File change detected \(server\.ts\): checking again\.\n1 tool registration checked: no errors, 0 warnings\.\n/,
      );
    }
    renameSave(path.join(dir, "server.ts"), /return ""/, "return 1");
    expect(await watching.next()).toContain(
      "server.ts(3,55): error TS2322: Type 'number' is not assignable to type 'string'.\n1 tool registration checked: 1 error, 0 warnings.\n",
    );
  } finally {
    await watching.stop();
  }
}, 120_000);

test("the transformer entry, handed TypeScript 7 (by ts-patch, ts-jest), says to build with typemcp build instead of failing inside", () => {
  const plugin = (
    require(path.join(FIXTURES_TS7, "..", "..", "dist", "transformer", "index.js")) as {
      default: (program: object, config: object, extras: object) => unknown;
    }
  ).default;
  expect(() => plugin({}, {}, { ts: { version: "7.0.2" } })).toThrow(
    'typemcp: TypeScript 7.0.2 has no transformer API, so neither tspc nor ts-patch can run typemcp\'s transformer on it. Build with `npx typemcp build` (TypeScript 7\'s own compiler, with every tool\'s schemas written in), and remove { "transform": "typemcp/transformer" } from tsconfig.json; or install TypeScript 5 or 6 with ts-patch to build with tspc.',
  );
});

test("typemcp build on TypeScript 5.9 emits with the transformer, as tspc does; on 7 it writes the same JavaScript, the same summary", () => {
  const write = (folder: string) =>
    srcProject(folder, { "tool.ts": fs.readFileSync(path.join(ROOT, "fixtures", "decorators", "tool.ts"), "utf8") });
  const [five, seven] = [write("build-ts5"), write("build-ts7")];
  const ts5 = runCli(["build"], five);
  const ts7 = runCli7(["build"], seven);
  expect(ts5).toEqual({
    status: 0,
    stdout: expect.stringMatching(/ tool registrations built: no errors, 0 warnings\.\n$/),
    stderr: "",
  });
  expect(ts7).toEqual(ts5);
  const js = fs.readFileSync(path.join(five, "dist", "tool.js"), "utf8");
  expect(js).toContain('JSON.parse(\'{"v":2,"name":"get_weather"');
  expect(fs.readFileSync(path.join(seven, "dist", "tool.js"), "utf8")).toBe(js);
});

test("prompts and resources: typemcp build on TypeScript 7 writes the contracts the transformer writes on 5.9, in the same places; the same diagnostics, summary and manifest", () => {
  const source =
    `import { MCPServer, type Integer, type ToolContext } from "typemcp";\nexport const mcp = new MCPServer("kinds");\n` +
    `interface Profile {\n  name: string;\n  age?: Integer;\n}\n` +
    `/**\n * Review code.\n * @param code The code.\n */\nfunction review_code(code: string, language: "ts" | "py" = "ts", strict?: boolean): string { return code + language + strict; }\n` +
    `/** A profile. */\nasync function profile(id: Integer, ctx: ToolContext): Promise<Profile> { return { name: String(id) + ctx.requestId }; }\n` +
    `function files(segments: string[]): Uint8Array { return new Uint8Array(segments.length); }\n` +
    `function search({ q, limit = 10 }: { q: string; limit?: Integer }): string { return q + limit; }\n` +
    `function echo(text: string): string { return text; }\n` +
    `function wrong(options: { strict: boolean }): string { return String(options); }\n` +
    `class Opaque {\n  constructor(private secret: string) {}\n}\nfunction opaque(): Opaque { return new Opaque(""); }\n` +
    `mcp.tool(echo);\n` +
    `mcp.prompt(review_code);\n` +
    `mcp.prompt(review_code, { name: "review", complete: { language: () => ["ts"] } });\n` +
    `mcp.resource("users://{id}/profile", profile);\n` +
    `mcp.resource("files://{/segments*}", files, { mimeType: "application/pdf" });\n` +
    `mcp.resource("search://items{?q,limit}", search);\n` +
    `mcp.resource("config://app", () => "text");\n` +
    `mcp.resource("config://opaque", opaque);\n` +
    `mcp.prompt(wrong);\n` +
    `mcp.resource("users://{user}", echo);\n`;
  const [five, seven] = [
    srcProject("kinds-ts5", { "server.ts": source }),
    srcProject("kinds-ts7", { "server.ts": source }),
  ];
  const ts5 = runCli(["build"], five);
  const ts7 = runCli7(["build"], seven);
  expect(ts7).toEqual(ts5);
  expect(ts5).toEqual({
    status: 1,
    stdout:
      'src/server.ts(16,21): error TS93003: Function echo: parameter text is required, but the URI template "users://{user}" has no variable {text} to give it a value: add one, or make the parameter optional\n' +
      "src/server.ts(17,25): error TS93004: Function wrong: parameter options cannot be a prompt argument, which is text: its type must be a string, a number or a boolean (their literal types and unions of one of them, enums, template literal types, Integer, and types constrained with tags, included), not { strict: boolean; }\n" +
      "src/server.ts(21,20): warning TS93001: Function opaque: return type Opaque cannot be described as JSON Schema, so the resource's contents are sent as the function returns them, unchecked (declare the data it returns)\n  opaque: result: Opaque is a class with no declared properties\n" +
      'src/server.ts(31,14): error TS93003: Resource template "users://{user}": the variable {user} names no parameter of function echo (its parameters: text): each variable is passed to the parameter of its name\n' +
      "10 registrations (1 tool, 3 prompts, 6 resources) built: 3 errors, 1 warning.\n",
    stderr: "",
  });
  const js = fs.readFileSync(path.join(five, "dist", "server.js"), "utf8");
  expect(fs.readFileSync(path.join(seven, "dist", "server.js"), "utf8")).toBe(js);
  expect(js).toContain(
    `mcp.resource("files://{/segments*}", files, { mimeType: "application/pdf" }, JSON.parse('{"v":2,"kind":"resource","name":"files","uri":"files://{/segments*}","template":true,"params":["segments"],`,
  );
  expect(js).toContain(`mcp.resource("config://app", () => "text", void 0, JSON.parse('{"v":2,"kind":"resource",`);
  expect(js).toContain(`mcp.prompt(review_code, void 0, JSON.parse('{"v":2,"kind":"prompt","name":"review_code",`);
  for (const command of [["check"], ["manifest"], ["manifest", "--list"]])
    expect([command, runCli7(command, seven)]).toEqual([command, runCli(command, five)]);
});

/**
 * The oracle (test/oracle.test.ts) holds the transformer's schemas to TypeScript's verdicts on
 * thousands of values; here the same kinds of values, drawn from each type fixture's schema,
 * mutated and arbitrary, get the same verdict from the schemas `typemcp build` publishes on
 * TypeScript 7: what the oracle shows of one holds of the other.
 */
test("every value drawn for the type fixtures gets the same verdict from TypeScript 7's schemas as from the transformer's", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  let judged = 0;
  const differ: string[] = [];
  for (const { name } of cases.filter((c) => c.name.startsWith("type_"))) {
    const ts5 = contractsOf(name, fs.readFileSync(path.join(FIXTURES_OUT, name, "tool.js"), "utf8"));
    const ts7 = contractsOf(name, fs.readFileSync(path.join(FIXTURES_TS7_OUT, name, "tool.js"), "utf8"));
    [...ts5].forEach(([tool, { contract }], i) => {
      const root = contract.inputSchema as Record<string, unknown>;
      const schema = (root.properties as Record<string, Record<string, unknown>> | undefined)?.value;
      if (!schema) return;
      const [a, b] = [ajv.compile(root), ajv.compile(ts7.get(tool)!.contract.inputSchema)];
      const seed = 20260102 + i;
      const values: Json[] = [
        ...fc.sample(valuesOf(schema, root), { seed, numRuns: 25 }),
        ...fc
          .sample(mutantsOf(schema, root, "broad"), { seed, numRuns: 45 })
          .flatMap((mutant) => (mutant ? [mutant.value] : [])),
        ...fc.sample(anyJson(3), { seed, numRuns: 12 }),
      ];
      for (const value of values) {
        judged++;
        if (a({ value }) !== b({ value }))
          differ.push(`${tool} ${JSON.stringify(value)}: transformer ${!b({ value })}, TypeScript 7 ${b({ value })}`);
      }
    });
  }
  expect(differ).toEqual([]);
  expect(judged).toBeGreaterThan(4000);
});

describe.each([
  { typescript: "7.0", env: WITH_TS7 },
  { typescript: "7.1", env: WITH_TS71 },
])("typemcp build on TypeScript $typescript keeps the project's own source maps right", ({ typescript, env }) => {
  /** Generated line:column → source line:column, of every segment of a map's mappings. */
  function segments(mappings: string): Map<string, string> {
    const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const found = new Map<string, string>();
    let [sourceLine, sourceColumn] = [0, 0];
    mappings.split(";").forEach((line, generatedLine) => {
      let generatedColumn = 0;
      for (const segment of line ? line.split(",") : []) {
        const values: number[] = [];
        let [value, shift] = [0, 0];
        for (const c of segment) {
          const digit = digits.indexOf(c);
          value += (digit & 31) << shift;
          if (digit & 32) shift += 5;
          else {
            values.push(value & 1 ? -(value >>> 1) : value >>> 1);
            [value, shift] = [0, 0];
          }
        }
        generatedColumn += values[0];
        if (values.length < 4) continue;
        sourceLine += values[2];
        sourceColumn += values[3];
        found.set(`${generatedLine}:${generatedColumn}`, `${sourceLine}:${sourceColumn}`);
      }
    });
    return found;
  }

  test.each([["sourceMap"], ["inlineSourceMap"]])(
    "%s: every mapping tsc writes is still there, moved right by the contracts inserted before it on its line",
    (option) => {
      const dir = srcProject(
        `ts${typescript}-${option}`,
        {
          "server.ts":
            `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("m");\nfunction a(x: string): string { return x; }\nfunction b(y: number): number { return y; }\n` +
            `mcp.tool(a); mcp.tool(b, { title: "B" }); const after = [a, b].length;\nexport { after };\n`,
        },
        { [option]: true },
      );
      // The same project, built by TypeScript 7's tsc alone into plain/.
      fs.writeFileSync(
        path.join(dir, "tsconfig.plain.json"),
        JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { outDir: "plain" } }),
      );
      expect(runCli(["build"], dir, env)).toMatchObject({ status: 0, stderr: "" });
      const plain = spawnSync(
        process.execPath,
        [path.join(env.TYPEMCP_TYPESCRIPT, "bin", "tsc"), "-p", "tsconfig.plain.json"],
        { cwd: dir, encoding: "utf8" },
      );
      expect(plain.status).toBe(0);
      const mapOf = (folder: string) => {
        const js = fs.readFileSync(path.join(dir, folder, "server.js"), "utf8");
        const url = /\/\/# sourceMappingURL=(.*)$/.exec(js)![1];
        const map = url.startsWith("data:")
          ? JSON.parse(Buffer.from(url.split(",")[1], "base64").toString("utf8"))
          : JSON.parse(fs.readFileSync(path.join(dir, folder, url), "utf8"));
        return { js, map: map as { mappings: string; sources: string[] } };
      };
      const [ours, theirs] = [mapOf("dist"), mapOf("plain")];
      // The inserted texts, by generated line: where each starts in our file, and its length.
      const ourLines = ours.js.split("\n");
      const theirLines = theirs.js.split("\n");
      expect(ourLines.length).toBe(theirLines.length);
      const inserted = new Map<number, { at: number; length: number }[]>();
      ourLines.forEach((line, i) => {
        for (const match of line.matchAll(/(, void 0)?, JSON\.parse\('[^']*'\)/g))
          inserted.set(i, [...(inserted.get(i) ?? []), { at: match.index!, length: match[0].length }]);
      });
      expect([...inserted.values()].flat()).toHaveLength(2);
      const moved = new Map<string, string>();
      for (const [at, source] of segments(theirs.map.mappings)) {
        const [line, column] = at.split(":").map(Number);
        let shift = 0;
        for (const insertion of inserted.get(line) ?? []) if (insertion.at - shift <= column) shift += insertion.length;
        moved.set(`${line}:${column + shift}`, source);
      }
      expect(segments(ours.map.mappings)).toEqual(moved);
      expect(ours.map.sources).toEqual(theirs.map.sources);
    },
  );
});

describe("typemcp build on TypeScript 7.1: one compiler process, the API's, types and emit alike", () => {
  /** The processes `typemcp build` starts (test/support/spawn-log.js), as [executable's name, arguments]. */
  function buildLogged(dir: string, env: Record<string, string>): { run: CliRun; started: [string, string[]][] } {
    const log = path.join(dir, "spawned.jsonl");
    fs.rmSync(log, { force: true });
    const run = runCli(["build"], dir, {
      ...env,
      TYPEMCP_SPAWN_LOG: log,
      NODE_OPTIONS: `--require ${path.join(ROOT, "test", "support", "spawn-log.js")}`,
    });
    const lines = fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n") : [];
    const started = lines.map((line) => JSON.parse(line) as [string, string[]]);
    return { run, started: started.map(([command, args]) => [path.basename(command), args]) };
  }
  const isApi = ([, args]: [string, string[]]) => args.includes("--api");
  const server = greeter("name: string");

  test("on 7.1 the API process alone: no tsc runs, and the build is 7.0's, byte for byte", () => {
    const [dir70, dir71] = ["7.0", "7.1"].map((v) => srcProject(`one-process-${v}`, { "server.ts": server }));
    const on70 = buildLogged(dir70, WITH_TS7);
    const on71 = buildLogged(dir71, WITH_TS71);
    const summary = { status: 0, stdout: "1 tool registration built: no errors, 0 warnings.\n", stderr: "" };
    expect(on70.run).toEqual(summary);
    expect(on71.run).toEqual(summary);
    // 7.0: TypeScript 7's tsc (-p the project), and the API process beside it.
    expect(on70.started.filter(isApi)).toHaveLength(1);
    expect(on70.started.filter((started) => !isApi(started)).map(([, args]) => args.slice(0, 2))).toEqual([
      ["-p", path.join(dir70, "tsconfig.json")],
    ]);
    expect(on71.started).toHaveLength(1);
    expect(on71.started.filter(isApi)).toHaveLength(1);
    const out = (dir: string) =>
      Object.fromEntries(
        fs.readdirSync(path.join(dir, "dist")).map((f) => [f, fs.readFileSync(path.join(dir, "dist", f), "utf8")]),
      );
    expect(Object.keys(out(dir71))).toEqual(["server.js"]);
    expect(out(dir71)).toEqual(out(dir70));
  });

  test("a tsconfig.json error prints as on 7.0, located in tsconfig.json, and fails the build", () => {
    const runs = [WITH_TS7, WITH_TS71].map((env, i) => {
      const dir = srcProject(`tsconfig-error-${i}`, { "server.ts": server }, { bogus: 1 });
      return runCli(["build"], dir, env);
    });
    expect(runs[0]).toMatchObject({ status: 1, stderr: "" });
    expect(runs[0].stdout).toMatch(/^tsconfig\.json\(\d+,\d+\): error TS5023: Unknown compiler option 'bogus'\.\n/);
    expect(runs[1]).toEqual(runs[0]);
  });

  test("an incremental project is built by tsc on 7.1 too: its .tsbuildinfo is written beside its tsconfig.json, as tsc writes it", () => {
    const dir = srcProject("incremental-7.1", { "server.ts": server }, { incremental: true });
    const { run, started } = buildLogged(dir, WITH_TS71);
    expect(run).toEqual({ status: 0, stdout: "1 tool registration built: no errors, 0 warnings.\n", stderr: "" });
    expect(started.filter((s) => !isApi(s)).map(([, args]) => args.slice(0, 2))).toEqual([
      ["-p", path.join(dir, "tsconfig.json")],
    ]);
    expect(fs.readdirSync(path.join(dir, "dist"))).toEqual(["server.js"]);
    expect(fs.existsSync(path.join(dir, "tsconfig.tsbuildinfo"))).toBe(true);
    expect(
      emittedRegistrations(fs.readFileSync(path.join(dir, "dist", "server.js"), "utf8"))[0].contract.params,
    ).toEqual(["name"]);
  });

  test("the compiler's diagnostics print as 7.1's tsc prints them, plain and --pretty, with the files it writes", () => {
    const dir = srcProject("tsc-output-7.1", {
      "a.ts": `const n: number = "one";\nexport { n };\n`,
      "b.ts": `const s: string = 1;\nconst t: string = 2;\nexport { s, t };\n`,
      "c.ts": `export const u: boolean = 0;\n`,
    });
    fs.writeFileSync(
      path.join(dir, "tsconfig.plain.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { outDir: "plain" } }),
    );
    // The build's own function, in a process of its own (TypeScript 7's API is made of ES modules).
    const script = `
      const { Ts7Session } = require(${JSON.stringify(path.join(ROOT, "dist", "transformer", "ts7", "session.js"))});
      const { buildInProcess } = require(${JSON.stringify(path.join(ROOT, "dist", "transformer", "ts7", "emit.js"))});
      const outputs = [];
      (async () => {
        for (const pretty of [false, true]) {
          const session = new Ts7Session(${JSON.stringify(path.join(dir, "tsconfig.json"))}, ${JSON.stringify(TS71_DIR)}, { emit: true });
          const { tsc } = buildInProcess(session, pretty);
          outputs.push({ status: tsc.status, output: tsc.output, errors: tsc.errors });
          await session.close();
        }
        process.stdout.write(JSON.stringify(outputs));
      })();`;
    const ours = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" })) as {
      status: number;
      output: string;
      errors: number;
    }[];
    const tsc = (pretty: boolean) =>
      spawnSync(
        process.execPath,
        [path.join(TS71_DIR, "bin", "tsc"), "-p", path.join(dir, "tsconfig.plain.json"), "--pretty", String(pretty)],
        { cwd: ROOT, encoding: "utf8" },
      );
    for (const [i, pretty] of [false, true].entries()) {
      const theirs = tsc(pretty);
      expect(ours[i]).toEqual({ status: theirs.status, output: theirs.stdout, errors: 4 });
    }
    const files = (folder: string) =>
      Object.fromEntries(
        fs.readdirSync(path.join(dir, folder)).map((f) => [f, fs.readFileSync(path.join(dir, folder, f), "utf8")]),
      );
    expect(files("dist")).toEqual(files("plain"));
  });
});
