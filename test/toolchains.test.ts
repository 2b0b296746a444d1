/**
 * docs/toolchains.md, followed word for word, commands included (test/support/recipes.ts), in
 * fresh projects set up as the README says with the packed tarball: in the quick start's
 * project, the jest recipe (its install, its files, `npx jest`: ts-jest with ts-patch's compiler),
 * the ts-node recipe (its install, then the server run from source as an MCP client starts
 * it), `npx typemcp check`, and the language-service plugin loaded by a real tsserver from
 * node_modules; and the manifest example (`typemcp manifest`, then plain `tsc`, then `node`),
 * in the README's quick start project (TypeScript 5.9) and in docs/typescript-7.md's
 * (TypeScript 7), served to the official SDK client.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as semver from "semver";
import { MCPServer, type Manifest } from "typemcp";
import { STATION } from "./support/consumer";
import { documentedBlock, documentText } from "./support/documentation";
import { connectClient } from "./support/in-memory";
import {
  installedAsReadme,
  installedVersion,
  readmeQuickStart,
  runAsWritten,
  shell,
  typescript7QuickStart,
} from "./support/recipes";

const STATION_WARNING =
  "Function get_station: return type Station is not serializable for structured output, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)\n  get_station: result: Station is a class with no declared properties";

/** get_weather of the documented jest example, as tools/list publishes it. */
const GET_WEATHER = {
  name: "get_weather",
  description: "Current weather for a city.",
  inputSchema: {
    type: "object",
    title: "get_weatherArguments",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    title: "WeatherData",
    properties: { temperature: { type: "number", description: "Degrees Celsius." }, conditions: { type: "string" } },
    required: ["temperature", "conditions"],
    additionalProperties: false,
  },
};

describe("in the quick start's project: jest, ts-node, typemcp check, the editor plugin", () => {
  /** The folder the README's Install leaves, and the quick start's project in it. */
  let folder: string;
  let project: string;
  const write = (files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(project, name), text);
  };

  beforeAll(() => {
    folder = installedAsReadme();
    project = readmeQuickStart(folder);
    // The jest recipe, then the ts-node recipe, into the same project, as the page says.
    runAsWritten(documentedBlock("toolchains:jest-install"), project);
    write({
      "jest.config.js": documentedBlock("toolchains:jest.config.js"),
      "src/weather.ts": documentedBlock("toolchains:src/weather.ts"),
      "src/weather.test.ts": documentedBlock("toolchains:src/weather.test.ts"),
    });
    runAsWritten(documentedBlock("toolchains:ts-node-install"), project);
    write({ "src/server.ts": documentedBlock("toolchains:src/server.ts") });
  }, 300_000);

  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  test("jest with ts-jest and ts-patch's compiler runs the documented test: the transformer ran, the schemas are exact", () => {
    // jest's cache in the project (it goes to the temporary folder), not shared with other runs.
    fs.mkdirSync(path.join(project, ".tmp"));
    const run = shell(documentedBlock("toolchains:jest"), project, { TMPDIR: path.join(project, ".tmp") });
    const output = run.stdout + run.stderr;
    expect(output).toContain("PASS src/weather.test.ts");
    expect(output).toContain("Tests:       1 passed, 1 total");
    expect(output).not.toContain("WARN");
    expect(run.status).toBe(0);
  });

  test("the quick start's build takes the jest test as it is: tspc builds the project with no diagnostic", () => {
    expect(shell("npx tspc", project)).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(fs.existsSync(path.join(project, "dist", "weather.test.js"))).toBe(true);
  });

  test("ts-node with ts-patch's compiler serves the documented server from source, started as the page says an MCP client starts it; the SDK client gets the exact schemas over stdio", async () => {
    const [command, ...args] = documentedBlock("toolchains:ts-node").trim().split(" ");
    expect(command).toBe("npx");
    const client = new Client({ name: "toolchains", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command, args, cwd: project, stderr: "pipe" }));
    try {
      expect((await client.listTools()).tools).toEqual([GET_WEATHER]);
      expect(await client.callTool({ name: "get_weather", arguments: { city: "London" } })).toEqual({
        content: [{ type: "text", text: JSON.stringify({ temperature: 16.2, conditions: "Overcast" }, null, 2) }],
        structuredContent: { temperature: 16.2, conditions: "Overcast" },
      });
    } finally {
      await client.close();
    }
  });

  test("npx typemcp check, as CI runs it, reports the warning and passes; typemcp manifest --list is what the server lists", () => {
    write({ "src/station.ts": STATION });
    expect(shell(documentedBlock("toolchains:check"), project)).toEqual({
      status: 0,
      stdout: `src/station.ts(10,37): warning TS93001: ${STATION_WARNING}\n3 tool registrations checked: no errors, 1 warning.\n`,
      stderr: "",
    });
    const list = shell("npx typemcp manifest --list", project);
    expect(list.stderr).toBe(`src/station.ts(10,37): warning TS93001: ${STATION_WARNING}\n`);
    expect(JSON.parse(list.stdout)).toEqual({
      tools: [
        GET_WEATHER,
        {
          name: "get_station",
          description: "Look up a weather station by name.",
          inputSchema: {
            type: "object",
            title: "get_stationArguments",
            properties: { name: { type: "string" } },
            required: ["name"],
            additionalProperties: false,
          },
        },
      ],
      prompts: [],
      resources: [],
      resourceTemplates: [],
    });
    expect(list.status).toBe(0);
  });

  /** One tsserver session: sends the requests, resolves with the response to the last one. */
  function tsserver(requests: object[]): Promise<{ body: unknown; success: boolean }> {
    const server = spawn(
      process.execPath,
      [path.join(project, "node_modules", "typescript", "lib", "tsserver.js"), "--disableAutomaticTypingAcquisition"],
      { cwd: project, stdio: ["pipe", "pipe", "ignore"] },
    );
    const last = requests.length;
    return new Promise((resolve, reject) => {
      let buffered = "";
      server.on("error", reject);
      server.on("exit", (code) => reject(new Error(`tsserver exited (${code}) before answering`)));
      server.stdout.setEncoding("utf8");
      server.stdout.on("data", (chunk: string) => {
        buffered += chunk;
        for (const line of buffered.split("\n")) {
          if (!line.startsWith("{")) continue;
          const message = JSON.parse(line) as { type: string; request_seq?: number; body: unknown; success: boolean };
          if (message.type === "response" && message.request_seq === last) {
            server.removeAllListeners("exit");
            server.stdin.end(`${JSON.stringify({ seq: last + 1, type: "request", command: "exit" })}\n`);
            resolve(message);
          }
        }
      });
      for (const [i, request] of requests.entries())
        server.stdin.write(`${JSON.stringify({ seq: i + 1, type: "request", ...request })}\n`);
    });
  }

  test("with the page's tsconfig.json, tsserver loads typemcp/language-service from node_modules and shows typemcp's warning with the compiler's diagnostics", async () => {
    write({ "tsconfig.json": documentedBlock("toolchains:tsconfig.json") });
    const file = path.join(project, "src", "station.ts");
    const response = await tsserver([
      { command: "open", arguments: { file } },
      { command: "semanticDiagnosticsSync", arguments: { file } },
    ]);
    expect(response).toMatchObject({ success: true });
    expect(response.body).toEqual([
      {
        start: { line: 10, offset: 37 },
        end: { line: 10, offset: 44 },
        text: STATION_WARNING,
        code: 93001,
        category: "warning",
        source: "typemcp",
      },
    ]);
  });
});

/**
 * The projects the manifest example is followed in, one per TypeScript the page says it works
 * on: the README's quick start, as written (TypeScript 5.9), and docs/typescript-7.md's, as
 * written (the latest TypeScript, 7). `major` is the TypeScript each installs.
 */
const MANIFEST_PROJECTS = [
  { name: "the README's quick start", setUp: readmeQuickStart, major: 5 },
  { name: "docs/typescript-7.md's quick start", setUp: typescript7QuickStart, major: 7 },
];

describe.each(MANIFEST_PROJECTS)(
  "the manifest example, in $name: typemcp manifest, then plain tsc",
  ({ setUp, major }) => {
    let folder: string;
    let project: string;

    beforeAll(() => {
      folder = installedAsReadme();
      project = setUp(folder);
      fs.writeFileSync(path.join(project, "tsconfig.json"), documentedBlock("manifest:tsconfig.json"));
      fs.writeFileSync(path.join(project, "src", "server.ts"), documentedBlock("manifest:src/server.ts"));
    }, 300_000);

    afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

    test("the page's commands as written: the manifest (before it exists, and the same again), tsc with no plugin, node; the SDK client gets the exact schemas over stdio", async () => {
      expect(semver.major(installedVersion(project, "typescript"))).toBe(major);
      const [manifest, build, start] = documentedBlock("manifest:commands").trim().split("\n");
      expect(runAsWritten(manifest, project)).toBe("");
      const first = fs.readFileSync(path.join(project, "src", "manifest.json"), "utf8");
      expect(runAsWritten(manifest, project)).toBe("");
      expect(fs.readFileSync(path.join(project, "src", "manifest.json"), "utf8")).toBe(first);

      // The documented three-argument form type-checks against the JSON import's types.
      const threeArguments = /`(mcp\.tool\(get_weather, \{ title: [^`]*manifest\.tools\.get_weather\))`/.exec(
        documentText("docs/toolchains.md"),
      )![1];
      const titled = path.join(project, "src", "titled.ts");
      fs.writeFileSync(
        titled,
        `import { MCPServer } from "typemcp";\nimport manifest from "./manifest.json";\nconst mcp = new MCPServer("Titled");\n` +
          `function get_weather(city: string) { return { temperature: 16.2, conditions: city }; }\n${threeArguments};\n`,
      );
      // Plain tsc: no ts-patch, no plugin.
      expect(runAsWritten(build, project)).toBe("");
      fs.rmSync(titled);
      expect(fs.readFileSync(path.join(project, "dist", "server.js"), "utf8")).not.toContain('"inputSchema"');

      const [command, ...args] = start.trim().split(" ");
      expect(command).toBe("node");
      const client = new Client({ name: "toolchains", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: project, stderr: "pipe" }));
      try {
        const weather = {
          title: "WeatherData",
          type: "object",
          properties: {
            temperature: { type: "number", description: "Degrees Celsius." },
            conditions: { type: "string" },
          },
          required: ["temperature", "conditions"],
          additionalProperties: false,
        };
        const tools = [
          {
            name: "get_weather",
            description: "Current weather for a city.",
            inputSchema: {
              type: "object",
              title: "get_weatherArguments",
              properties: { city: { type: "string" } },
              required: ["city"],
              additionalProperties: false,
            },
            outputSchema: weather,
          },
          {
            name: "get_forecast",
            description: "Daily forecast for a city.",
            inputSchema: {
              type: "object",
              title: "get_forecastArguments",
              properties: { city: { type: "string" }, days: { type: "integer" } },
              required: ["city", "days"],
              additionalProperties: false,
            },
            outputSchema: {
              type: "object",
              title: "get_forecastOutput",
              properties: { result: { type: "array", items: { $ref: "#/$defs/WeatherData" } } },
              required: ["result"],
              $defs: { WeatherData: weather },
            },
          },
        ];
        expect((await client.listTools()).tools).toEqual(tools);
        expect(JSON.parse(runAsWritten("npx typemcp manifest --list", project))).toEqual({
          tools,
          prompts: [],
          resources: [],
          resourceTemplates: [],
        });
        expect(await client.callTool({ name: "get_forecast", arguments: { city: "Oslo", days: 1 } })).toEqual({
          content: [{ type: "text", text: JSON.stringify({ temperature: 16.2, conditions: "Overcast" }, null, 2) }],
          structuredContent: { result: [{ temperature: 16.2, conditions: "Overcast" }] },
        });
        expect(await client.callTool({ name: "get_forecast", arguments: { city: "Oslo", days: "two" } })).toEqual({
          content: [
            {
              type: "text",
              text: 'Error executing tool get_forecast: 1 validation error for get_forecastArguments\ndays\n  Input should be a valid integer [input_value="two"]',
            },
          ],
          isError: true,
        });
      } finally {
        await client.close();
      }
    });

    test("run-time options go along with a manifest entry passed third, as the page says", async () => {
      const manifest = (JSON.parse(fs.readFileSync(path.join(project, "src", "manifest.json"), "utf8")) as Manifest)
        .tools;
      const mcp = new MCPServer("Weather");
      mcp.tool(
        function get_weather(city: string) {
          return { temperature: 16.2, conditions: city };
        },
        { title: "Weather now", annotations: { readOnlyHint: true } },
        manifest.get_weather,
      );
      const client = await connectClient(mcp);
      try {
        const { description, inputSchema, outputSchema } = manifest.get_weather;
        expect((await client.listTools()).tools).toEqual([
          {
            name: "get_weather",
            title: "Weather now",
            description,
            inputSchema,
            outputSchema,
            annotations: { readOnlyHint: true },
          },
        ]);
        expect((await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } })).structuredContent).toEqual(
          {
            temperature: 16.2,
            conditions: "Oslo",
          },
        );
      } finally {
        await client.close();
      }
    });
  },
);
