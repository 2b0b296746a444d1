/**
 * typemcp as a user gets it: `npm pack`, the tarball installed into a fresh project from the
 * registry with each supported toolchain (TypeScript 5.9 + ts-patch 3, TypeScript 6.0 +
 * ts-patch 4), the README's quick start built there with `tspc`, then called as the README
 * says: by a client configuration, by the client script, by the one-line check, and over HTTP
 * with the README's lines and `curl` requests, as CommonJS and as ESM; and with TypeScript 7
 * (`npm install typescript`, nothing else), docs/typescript-7.md's quick start built with its one
 * command, `npx typemcp build`, and served.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { createServer } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "./support/build";
import { npm, STATION } from "./support/consumer";
import { documentedBlock } from "./support/documentation";

/** The quick start's blocks (`<!-- quickstart:<name> -->` before a fence), so this test follows it word for word. */
const quickstart = (name: string) => documentedBlock(`quickstart:${name}`);

/** Where the README's client configuration says the project is. */
const PROJECT_PLACEHOLDER = "/absolute/path/to/weather";

/** One `curl` command of the README: its URL, headers and body. */
interface CurlRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** `-i`: the command prints the response's headers too. */
  showsHeaders: boolean;
}

/** The `curl` commands of a block (continuation lines joined), read as what they send. */
function curlRequests(block: string): CurlRequest[] {
  return block
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => line.startsWith("curl "))
    .map((line) => {
      const [, flags, url] = /^curl (-\w+) (\S+)/.exec(line)!;
      const headers = Object.fromEntries(
        [...line.matchAll(/-H '([^:']+): ([^']*)'/g)].map(([, name, value]) => [name, value]),
      );
      return { url, headers, body: /-d '([^']*)'/.exec(line)![1], showsHeaders: flags.includes("i") };
    });
}

/** The JSON-RPC message of a server-sent event stream holding one `event: message`. */
function eventMessage(text: string): unknown {
  expect(text).toMatch(/^event: message\n/);
  return JSON.parse(/^data: (.*)$/m.exec(text)![1]);
}

/** A port no one listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something answers HTTP at `url`. */
async function listening(url: string, server: ChildProcess): Promise<void> {
  for (
    const started = Date.now();
    Date.now() - started < 30_000;
    await new Promise((resolve) => setTimeout(resolve, 100))
  ) {
    if (server.exitCode !== null) throw new Error(`the server exited with status ${server.exitCode}`);
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
  }
  throw new Error(`nothing answered at ${url}`);
}

const TOOLCHAINS = [
  { typescript: "~5.9.3", tsPatch: "^3.3.0" },
  { typescript: "~6.0.3", tsPatch: "^4.0.1" },
];

let tarball: string;
const packed = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-pack-"));
beforeAll(() => {
  tarball = path.join(packed, npm(["pack", "--silent", "--pack-destination", packed], ROOT).trim().split("\n").pop()!);
}, 120_000);
afterAll(() => fs.rmSync(packed, { recursive: true, force: true }));

const WEATHER_SCHEMA = {
  title: "WeatherData",
  type: "object",
  properties: {
    temperature: { type: "number", description: "Degrees Celsius." },
    humidity: { type: "number", description: "Relative humidity, 0 to 1." },
    conditions: { type: "string" },
  },
  required: ["temperature", "humidity", "conditions"],
  additionalProperties: false,
};

/** The quick start's server (the README's, docs/typescript-7.md's), built and started with these arguments for Node: the official client gets its exact schemas and results over stdio. */
async function expectQuickStartServed(args: string[]): Promise<void> {
  const client = new Client({ name: "consumer", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args }));
  try {
    const input = (properties: object, required: string[], title: string) => ({
      type: "object",
      title,
      properties,
      required,
      additionalProperties: false,
    });
    expect((await client.listTools()).tools).toEqual([
      {
        name: "get_weather",
        description: "Current weather for a city.",
        inputSchema: input({ city: { type: "string" } }, ["city"], "get_weatherArguments"),
        outputSchema: WEATHER_SCHEMA,
      },
      {
        name: "get_forecast",
        description: "Daily forecast for a city.",
        inputSchema: input(
          { city: { type: "string" }, days: { type: "integer" } },
          ["city", "days"],
          "get_forecastArguments",
        ),
        outputSchema: {
          type: "object",
          title: "get_forecastOutput",
          properties: { result: { type: "array", items: { $ref: "#/$defs/WeatherData" } } },
          required: ["result"],
          $defs: { WeatherData: WEATHER_SCHEMA },
        },
      },
    ]);
    const day = (temperature: number) => ({ temperature, humidity: 0.83, conditions: "Overcast" });
    expect(await client.callTool({ name: "get_forecast", arguments: { city: "Oslo", days: 2 } })).toEqual({
      content: [
        { type: "text", text: JSON.stringify(day(16.2), null, 2) },
        { type: "text", text: JSON.stringify(day(17.2), null, 2) },
      ],
      structuredContent: { result: [day(16.2), day(17.2)] },
    });
  } finally {
    await client.close();
  }
}

describe.each(TOOLCHAINS)("TypeScript $typescript with ts-patch $tsPatch", ({ typescript, tsPatch }) => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-consumer-"));

  function tspc(): { status: number | null; output: string } {
    const run = spawnSync(path.join(project, "node_modules", ".bin", "tspc"), ["-p", "."], {
      cwd: project,
      encoding: "utf8",
    });
    return { status: run.status, output: run.stdout + run.stderr };
  }

  beforeAll(() => {
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }, null, 2));
    fs.writeFileSync(path.join(project, "tsconfig.json"), quickstart("tsconfig.json"));
    fs.mkdirSync(path.join(project, "src"));
    fs.writeFileSync(path.join(project, "src", "server.ts"), quickstart("src/server.ts"));
    npm(
      [
        "install",
        "--no-audit",
        "--no-fund",
        tarball,
        `typescript@${typescript}`,
        `ts-patch@${tsPatch}`,
        "@types/node@^20",
      ],
      project,
    );
    // The README's client, installed as it says.
    const [command, ...args] = quickstart("client-install").trim().split(" ");
    expect(command).toBe("npm");
    npm([...args, "--no-audit", "--no-fund"], project);
  }, 300_000);

  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  test("the tarball holds the runtime, the transformer and their type declarations, nothing else", () => {
    const installed = path.join(project, "node_modules", "typemcp");
    for (const file of [
      "dist/runtime/index.js",
      "dist/runtime/index.d.ts",
      "dist/transformer/index.js",
      "dist/transformer/index.d.ts",
      "README.md",
      "CHANGELOG.md",
      "LICENSE",
      "package.json",
    ]) {
      expect(fs.existsSync(path.join(installed, file))).toBe(true);
    }
    expect(fs.existsSync(path.join(installed, "fixtures"))).toBe(false);
    // No source maps: their sources (.ts) are not shipped, so a stack trace must name the .js that is.
    const shipped = fs.readdirSync(path.join(installed, "dist"), { recursive: true, encoding: "utf8" });
    expect(shipped.filter((file) => file.endsWith(".map"))).toEqual([]);
    // (A comment line of its own: typemcp build's code names such comments, to handle them.)
    expect(
      shipped.filter(
        (file) =>
          file.endsWith(".js") &&
          /^\/\/# sourceMappingURL=/m.test(fs.readFileSync(path.join(installed, "dist", file), "utf8")),
      ),
    ).toEqual([]);
    // With source maps on (as under tsx), the frame that threw is a line of a shipped file.
    const run = spawnSync(
      process.execPath,
      ["--enable-source-maps", "-e", 'new (require("typemcp").MCPServer)("x").tool(function f() {})'],
      { cwd: project, encoding: "utf8" },
    );
    const frame = /\((\S*node_modules\/typemcp\/\S*):(\d+):\d+\)/;
    expect(run.stderr).toMatch(frame);
    const [, file, line] = frame.exec(run.stderr)!;
    expect(fs.readFileSync(file, "utf8").split("\n")[Number(line) - 1]).toMatch(
      /throw new Error\(.*has no compiled schema/,
    );
    const version = (name: string) =>
      JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")).version as string;
    expect(version("typescript").startsWith(typescript.slice(1, 4))).toBe(true);
    expect(version("ts-patch").startsWith(tsPatch.slice(1, 2))).toBe(true);
    expect(fs.existsSync(path.join(installed, "test"))).toBe(false);
  });

  test("tspc builds the README's server with the plugin, and the official client started as the client configuration says calls it over stdio", async () => {
    const build = tspc();
    expect(build.output).toBe("");
    expect(build.status).toBe(0);

    const { command, args } = JSON.parse(quickstart("client-config")).mcpServers.weather as {
      command: string;
      args: string[];
    };
    expect(command).toBe("node");
    await expectQuickStartServed(args.map((arg) => arg.replace(PROJECT_PLACEHOLDER, project)));
  });

  test("the README's one-line check answers exactly what the README shows", () => {
    const command = quickstart("try")
      .split("\n")
      .find((line) => line.startsWith("echo "))!;
    const answer = execFileSync("sh", ["-c", command], { cwd: project, encoding: "utf8" });
    expect(answer).toBe(quickstart("answer"));
  });

  test("the README's client script prints exactly what the README shows", () => {
    fs.writeFileSync(path.join(project, "client.mjs"), quickstart("client.mjs"));
    expect(execFileSync(process.execPath, ["client.mjs"], { cwd: project, encoding: "utf8" })).toBe(
      quickstart("client-output"),
    );
  });

  const GET_WEATHER = {
    content: [
      { type: "text", text: JSON.stringify({ temperature: 16.2, humidity: 0.83, conditions: "Overcast" }, null, 2) },
    ],
    structuredContent: { temperature: 16.2, humidity: 0.83, conditions: "Overcast" },
  };
  const MODERN_GET_WEATHER = {
    ...GET_WEATHER,
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "Weather", version: "1.0.0" } },
  };

  test("the README's HTTP lines build as CommonJS and as ESM, and answer the README's curl requests", async () => {
    const runs = quickstart("http")
      .split("\n")
      .filter((line) => line.includes("mcp.run(") && !line.startsWith("//"));
    expect(runs).toEqual([expect.not.stringContaining("stateless"), expect.stringContaining("stateless: true")]);
    // The quick start's server with `mcp.run();` replaced, as the README says; on a free port
    // instead of 3000, which may be taken on the machine running the tests.
    const variants = runs.flatMap((run, i) =>
      ["ts", "mts"].map((extension) => ({
        run,
        source: path.join(project, "src", `http${i}.${extension}`),
        built: path.join(project, "dist", `http${i}.${extension === "ts" ? "js" : "mjs"}`),
      })),
    );
    const server = quickstart("src/server.ts");
    expect(server).toContain("mcp.run(); // stdio\n");
    for (const { run, source } of variants) fs.writeFileSync(source, server.replace("mcp.run(); // stdio", run));
    try {
      // No TS1309 (top-level await in CommonJS), no other diagnostic.
      expect(tspc()).toEqual({ status: 0, output: "" });
      for (const { run, built } of variants) {
        const port = await freePort();
        fs.writeFileSync(built, fs.readFileSync(built, "utf8").replace("port: 3000", `port: ${port}`));
        const serving = spawn(process.execPath, [built], { cwd: project, stdio: "ignore" });
        const send = async ({ url, headers, body }: CurlRequest) =>
          fetch(url.replace(":3000/", `:${port}/`), { method: "POST", headers, body });
        try {
          await listening(`http://127.0.0.1:${port}/mcp`, serving);
          // 2026-07-28: one request, served the same with or without stateless.
          const [call] = curlRequests(quickstart("curl"));
          const answer = await send(call);
          expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "application/json"]);
          expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: MODERN_GET_WEATHER });
          if (!run.includes("stateless")) {
            // 2025-11-25: initialize, then the session on every request.
            const [initialize, legacyCall] = curlRequests(quickstart("curl-session"));
            expect(initialize.showsHeaders).toBe(true);
            const initialized = await send(initialize);
            expect(initialized.status).toBe(200);
            expect(eventMessage(await initialized.text())).toMatchObject({
              jsonrpc: "2.0",
              id: 1,
              result: { serverInfo: { name: "Weather" } },
            });
            const session = initialized.headers.get("mcp-session-id")!;
            expect(session).toMatch(/^[0-9a-f-]{36}$/);
            expect(legacyCall.headers["Mcp-Session-Id"]).toMatch(/^<.*>$/);
            const legacyAnswer = await send({
              ...legacyCall,
              headers: { ...legacyCall.headers, "Mcp-Session-Id": session },
            });
            expect(legacyAnswer.status).toBe(200);
            expect(eventMessage(await legacyAnswer.text())).toEqual({ jsonrpc: "2.0", id: 2, result: GET_WEATHER });
          }
        } finally {
          serving.kill();
        }
      }
    } finally {
      for (const { source, built } of variants) for (const file of [source, built]) fs.rmSync(file, { force: true });
    }
  });

  test("the deployment guide's cluster serves one port from a process per core", async () => {
    const source = path.join(project, "src", "cluster.ts");
    const built = path.join(project, "dist", "cluster.js");
    fs.writeFileSync(
      source,
      quickstart("src/server.ts").replace("mcp.run(); // stdio", documentedBlock("deployment:cluster")),
    );
    try {
      expect(tspc()).toEqual({ status: 0, output: "" });
      const port = await freePort();
      fs.writeFileSync(built, fs.readFileSync(built, "utf8").replace("port: 3000", `port: ${port}`));
      const serving = spawn(process.execPath, [built], { cwd: project, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      serving.stderr!.on("data", (chunk) => (stderr += chunk));
      try {
        const url = `http://127.0.0.1:${port}/mcp`;
        await listening(url, serving);
        // Every worker says where it serves, once listening: one line per core.
        const workers = os.availableParallelism();
        for (let i = 0; i < 100 && stderr.split("\n").length <= workers; i++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(stderr).toBe(`typemcp: Weather serves MCP at ${url}\n`.repeat(workers));
        // Many clients at once, each on its own connection (the cluster hands out connections).
        const [call] = curlRequests(quickstart("curl"));
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(url, { method: "POST", headers: { ...call.headers, connection: "close" }, body: call.body }),
          ),
        );
        for (const answer of answers)
          expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: MODERN_GET_WEATHER });
      } finally {
        serving.kill();
      }
    } finally {
      for (const file of [source, built]) fs.rmSync(file, { force: true });
    }
  });

  test("a typemcp warning is printed by tspc with its location; tspc exits 2 and still emits", () => {
    fs.writeFileSync(path.join(project, "src", "station.ts"), STATION);
    const build = tspc();
    expect(build.status).toBe(2);
    expect(build.output).toContain(
      "src/station.ts(10,37): warning TS93001: Function get_station: return type Station is not serializable for structured output",
    );
    expect(build.output).toContain("get_station: result: Station is a class with no declared properties");
    expect(fs.existsSync(path.join(project, "dist", "station.js"))).toBe(true);
  });

  // Last: it patches the project's TypeScript for good.
  test("under a persistent patch (ts-patch install), tsc builds what tspc builds, and typemcp runs on tsc's own TypeScript", () => {
    const dist = () =>
      Object.fromEntries(
        fs
          .readdirSync(path.join(project, "dist"))
          .map((f) => [f, fs.readFileSync(path.join(project, "dist", f), "utf8")]),
      );
    const live = tspc();
    const built = dist();
    expect(built["server.js"]).toContain(`JSON.parse('{"v":2,"name":"get_weather"`);
    fs.rmSync(path.join(project, "dist"), { recursive: true });

    execFileSync(path.join(project, "node_modules", ".bin", "ts-patch"), ["install", "-s"], { cwd: project });
    // How many TypeScripts the build loaded: tsc's own (lib/_tsc.js, the whole library once
    // patched), and a second if typemcp's require("typescript") had compiled lib/typescript.js.
    const probe = path.join(project, "probe.js");
    fs.writeFileSync(
      probe,
      `process.on("exit", () => require("fs").writeFileSync(${JSON.stringify(probe + ".json")}, JSON.stringify(new Set(Object.values(require.cache).map((m) => m.exports).filter((e) => typeof e?.createProgram === "function")).size)));\n`,
    );
    const tsc = spawnSync(
      process.execPath,
      ["-r", probe, path.join(project, "node_modules", "typescript", "bin", "tsc"), "-p", "."],
      { cwd: project, encoding: "utf8" },
    );
    expect({ status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual(live);
    expect(dist()).toEqual(built);
    expect(JSON.parse(fs.readFileSync(probe + ".json", "utf8"))).toBe(1);
  });
});

describe("TypeScript 7: npm install typescript typemcp, then npx typemcp build", () => {
  const DOC = fs.readFileSync(path.join(ROOT, "docs", "typescript-7.md"), "utf8");
  /** docs/typescript-7.md's fenced block after `<!-- ts7:<name> -->`: the test follows it word for word. */
  const block = (name: string) => {
    const match = new RegExp(`<!-- ts7:${name.replace(/[./]/g, "\\$&")} -->\n\`\`\`\\w*\n([\\s\\S]*?)\`\`\``).exec(DOC);
    if (!match) throw new Error(`docs/typescript-7.md has no block ts7:${name}`);
    return match[1];
  };
  const project = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-consumer-ts7-"));
  const run = (command: string) => spawnSync("sh", ["-c", command], { cwd: project, encoding: "utf8" });

  beforeAll(() => {
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "consumer-ts7", private: true }, null, 2),
    );
    fs.writeFileSync(path.join(project, "tsconfig.json"), block("tsconfig.json"));
    fs.mkdirSync(path.join(project, "src"));
    fs.writeFileSync(path.join(project, "src", "server.ts"), block("src/server.ts"));
    // The documented install, the tarball in place of its relative path.
    const install = block("install").trim();
    expect(install).toBe("npm install ../typemcp-0.1.0.tgz typescript @types/node@^20");
    npm(["install", "--no-audit", "--no-fund", tarball, "typescript", "@types/node@^20"], project);
  }, 300_000);

  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  test("npm installs TypeScript 7 as typescript, and no other TypeScript", () => {
    const version = JSON.parse(
      fs.readFileSync(path.join(project, "node_modules", "typescript", "package.json"), "utf8"),
    ).version as string;
    expect(Number(version.split(".")[0])).toBeGreaterThanOrEqual(7);
    const typescripts = fs
      .readdirSync(path.join(project, "node_modules"))
      .filter((name) => name.startsWith("typescript"));
    expect(typescripts).toEqual(["typescript"]);
  });

  test("the one documented command builds the server; the official client gets the exact schemas and results over stdio", async () => {
    const [build, start] = block("build").trim().split("\n");
    expect(build).toBe("npx typemcp build");
    const built = run(build);
    expect({ status: built.status, stderr: built.stderr }).toEqual({ status: 0, stderr: "" });
    expect(built.stdout).toBe("2 tool registrations built: no errors, 0 warnings.\n");
    expect(fs.readFileSync(path.join(project, "dist", "server.js"), "utf8")).toContain(
      `mcp.tool(get_weather, void 0, JSON.parse('{"v":2,"name":"get_weather"`,
    );
    expect(fs.existsSync(path.join(project, "dist", "server.js.map"))).toBe(false);

    expect(start).toBe("node dist/server.js");
    await expectQuickStartServed([path.join(project, "dist", "server.js")]);
  });

  test("typemcp's warning is printed with its location; warnings do not fail the build, and the output is still written", () => {
    fs.writeFileSync(path.join(project, "src", "station.ts"), STATION);
    const built = run("npx typemcp build");
    expect(built.stdout).toBe(
      "src/station.ts(10,37): warning TS93001: Function get_station: return type Station is not serializable for structured output, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)\n" +
        "  get_station: result: Station is a class with no declared properties\n" +
        "3 tool registrations built: no errors, 1 warning.\n",
    );
    expect(built.status).toBe(0);
    expect(fs.existsSync(path.join(project, "dist", "station.js"))).toBe(true);
    fs.rmSync(path.join(project, "src", "station.ts"));
  });

  test("a type error: tsc's message as tsc prints it, exit status 1", () => {
    fs.writeFileSync(path.join(project, "src", "broken.ts"), `const n: number = "one";\nexport { n };\n`);
    const built = run("npx typemcp build");
    expect(built.stdout).toContain(
      "src/broken.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    expect(built.stdout.endsWith("2 tool registrations built: no errors, 0 warnings.\n")).toBe(true);
    expect(built.status).toBe(1);
    fs.rmSync(path.join(project, "src", "broken.ts"));
  });

  test("typemcp check on TypeScript 7: the count, exit 0", () => {
    expect(run("npx typemcp check")).toMatchObject({
      status: 0,
      stdout: "2 tool registrations checked: no errors, 0 warnings.\n",
      stderr: "",
    });
  });

  test("the entry points say what to run on TypeScript 7: --help works, the transformer names typemcp build, the editor plugin steps aside, an unbuilt tool names typemcp build", () => {
    expect(run("npx typemcp --help").stdout).toMatch(/^Usage: typemcp <command>/);
    const transformer = run(`node -e 'require("typemcp/transformer").default({}, {})'`);
    expect(transformer.stderr).toContain(
      "has no transformer API, so neither tspc nor ts-patch can run typemcp's transformer on it. Build with `npx typemcp build`",
    );
    // The language-service plugin, as an editor's tsserver (a TypeScript 5) would load it here: it steps aside and says why.
    const plugin = run(
      `node -e 'const service = {}; const logged = []; const created = require("typemcp/language-service")({ typescript: { version: "5.9.3" } }).create({ languageService: service, project: { projectService: { logger: { info: (m) => logged.push(m) } } } }); console.log(JSON.stringify({ same: created === service, logged }))'`,
    );
    expect(JSON.parse(plugin.stdout)).toEqual({
      same: true,
      logged: [
        expect.stringMatching(
          /^typemcp: language-service plugin disabled: the project installed TypeScript 7\.\d+\.\d+, whose language server loads no plugins; run `npx typemcp check --watch`/,
        ),
      ],
    });
    fs.writeFileSync(
      path.join(project, "unbuilt.js"),
      `const { MCPServer } = require("typemcp");\nnew MCPServer("x").tool(function f() {});\n`,
    );
    const unbuilt = run("node unbuilt.js");
    expect(unbuilt.stderr).toContain(
      "has no compiled schema: the typemcp transformer did not run on this file. TypeScript 7 is installed, which runs no transformer: build with `npx typemcp build`",
    );
  });
});
