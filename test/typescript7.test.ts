/**
 * One type model, two checkers: every fixture built by `typemcp build` on TypeScript 7 (its own
 * compiler emitting, typemcp asking its checker API; test/global-setup.ts) against the same
 * fixtures built with the transformer on TypeScript 5.9. The emitted JavaScript is compared
 * byte for byte, contracts included; the diagnostics line for line; the built servers serve
 * exactly expected.json; `typemcp check` and `typemcp manifest` print the same both ways.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { MCPServer, ToolContract } from "typemcp";
import { emittedRegistrations } from "./support/emitted-contracts";
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
  WITH_TS7,
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

  test("typemcp build prints the transformer's diagnostics, as tsc prints them, and fails on the error among them", () => {
    const expected = fixtureBuild().typemcpDiagnostics.map(
      (d) => `fixtures/${d.file}(${d.line},${d.column}): ${d.category} TS${d.code}: ${d.message}\n`,
    );
    const errors = fixtureBuild().typemcpDiagnostics.filter((d) => d.category === "error").length;
    const warnings = fixtureBuild().typemcpDiagnostics.length - errors;
    const lines = built.stdout.split(/(?=^\S)/m);
    expect(lines.slice(0, -1).sort()).toEqual([...expected].sort());
    // As many registrations as typemcp check counts on TypeScript 5.9.
    const registrations = /^(\d+) tool registrations checked/m.exec(
      runCli(["check", "fixtures/tsconfig.json"]).stdout,
    )![1];
    expect(lines.at(-1)).toBe(
      `${registrations} tool registrations built: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warnings.\n`,
    );
    expect([built.status, built.stderr]).toEqual([1, ""]);
  });

  test("no source map is left behind: the project writes none", () => {
    const maps = cases.filter((c) => fs.existsSync(path.join(FIXTURES_TS7_OUT, c.name, "tool.js.map")));
    expect(maps).toEqual([]);
    expect(Object.values(ts7).filter((js) => js.includes("sourceMappingURL"))).toEqual([]);
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
    expect(ts7.stdout).toMatch(/^\d+ tool registrations checked: 9 errors, 2 warnings\.$/m);
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
    const [a, b] = [JSON.parse(ts5.stdout), JSON.parse(ts7.stdout)] as Record<string, ToolContract>[];
    expect(Object.keys(b)).toEqual(Object.keys(a));
    const differing = Object.keys(a).filter((tool) => JSON.stringify(a[tool]) !== JSON.stringify(b[tool]));
    expect(differing.map((tool) => KNOWN_ORDER_DIFFERENCES.find((known) => known.endsWith(`/${tool}`)))).not.toContain(
      undefined,
    );
    expect(canonical(b)).toEqual(canonical(a));
  });
});

describe("typemcp build --watch on TypeScript 7", () => {
  test("builds, then builds again when a source changes: the new contract is in the emitted call", async () => {
    const source = (parameter: string) =>
      `import { MCPServer } from "typemcp";\nexport const mcp = new MCPServer("w");\nfunction greet(${parameter}): string { return ""; }\nmcp.tool(greet);\n`;
    const dir = srcProject("ts7-watch", { "server.ts": source("name: string") });
    const child = spawn(process.execPath, [CLI, "build", "--watch"], {
      cwd: dir,
      env: { ...process.env, ...WITH_TS7 },
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const waitFor = async (count: number) => {
      for (let waited = 0; (output.match(/Watching for file changes\./g) ?? []).length < count; waited += 50) {
        if (waited > 60_000) throw new Error(`no build after a change:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const emitted = () =>
      emittedRegistrations(fs.readFileSync(path.join(dir, "dist", "server.js"), "utf8"))[0].contract;
    try {
      await waitFor(1);
      expect(output).toContain("1 tool registration built: no errors, 0 warnings.\n");
      expect(emitted().params).toEqual(["name"]);
      fs.writeFileSync(path.join(dir, "src", "server.ts"), source("name: string, times: number"));
      await waitFor(2);
      expect(output).toMatch(/File change detected \(src\/server\.ts\): building again\./);
      expect(emitted().params).toEqual(["name", "times"]);
      expect(emitted().inputSchema).toEqual({
        type: "object",
        title: "greetArguments",
        properties: { name: { type: "string" }, times: { type: "number" } },
        required: ["name", "times"],
        additionalProperties: false,
      });
    } finally {
      child.kill("SIGINT");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }, 120_000);
});

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
  expect(js).toContain('JSON.parse(\'{"v":1,"name":"get_weather"');
  expect(fs.readFileSync(path.join(seven, "dist", "tool.js"), "utf8")).toBe(js);
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

describe("typemcp build on TypeScript 7 keeps the project's own source maps right", () => {
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
        `ts7-${option}`,
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
      expect(runCli7(["build"], dir)).toMatchObject({ status: 0, stderr: "" });
      const plain = spawnSync(
        process.execPath,
        [path.join(ROOT, "node_modules", "typescript-7", "bin", "tsc"), "-p", "tsconfig.plain.json"],
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
