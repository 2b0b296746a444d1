/**
 * docs/toolchains.md, followed word for word in one fresh project with the
 * packed tarball installed (one npm install: TypeScript 5.9, ts-patch 3, jest + ts-jest,
 * ts-node): the jest example under ts-jest with ts-patch's compiler, the server run from
 * source by ts-node and called over stdio with the SDK client, the `typemcp` bin, and the
 * language-service plugin loaded by a real tsserver from node_modules.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ROOT } from "./support/build";
import { npm, STATION } from "./support/consumer";
import { documentedBlock } from "./support/documentation";

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

const project = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-toolchains-"));
const bin = (name: string) => path.join(project, "node_modules", ".bin", name);

beforeAll(() => {
  // npm test has just built dist/: pack it as it is (prepack would rebuild it under the other suites' feet).
  const tarball = path.join(
    project,
    npm(["pack", "--ignore-scripts", "--silent", "--pack-destination", project], ROOT).trim().split("\n").pop()!,
  );
  const files: Record<string, string> = {
    "package.json": JSON.stringify({ name: "toolchains", private: true }, null, 2),
    // The quick start's tsconfig.json with the language-service plugin too: the compilers must ignore that entry.
    "tsconfig.json": documentedBlock("toolchains:tsconfig.json"),
    "jest.config.js": documentedBlock("toolchains:jest.config.js"),
    "src/weather.ts": documentedBlock("toolchains:src/weather.ts"),
    "src/weather.test.ts": documentedBlock("toolchains:src/weather.test.ts"),
    "src/server.ts": documentedBlock("toolchains:src/server.ts"),
    "src/station.ts": STATION,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    fs.writeFileSync(path.join(project, name), text);
  }
  npm(
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      tarball,
      "typescript@~5.9.3",
      "ts-patch@^3.3.0",
      "jest@^29",
      "ts-jest@^29",
      "@types/jest@^29",
      "@modelcontextprotocol/client",
      "ts-node@^10",
      "@types/node@^20",
    ],
    project,
  );
}, 300_000);

afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

test("jest with ts-jest and ts-patch's compiler runs the documented test: the transformer ran, the schemas are exact", () => {
  const run = spawnSync(bin("jest"), ["--ci", "--cacheDirectory", path.join(project, ".jest-cache")], {
    cwd: project,
    encoding: "utf8",
  });
  const output = run.stdout + run.stderr;
  expect(output).toContain("PASS src/weather.test.ts");
  expect(output).toContain("Tests:       1 passed, 1 total");
  expect(output).not.toContain("WARN");
  expect(run.status).toBe(0);
});

test("ts-node with ts-patch's compiler serves the documented server from source; the SDK client gets the exact schemas over stdio", async () => {
  const [command, ...args] = documentedBlock("toolchains:ts-node").trim().split(" ");
  expect(command).toBe("npx");
  const client = new Client({ name: "toolchains", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command: bin(args[0]), args: args.slice(1), cwd: project, stderr: "pipe" }),
  );
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

test("the installed bin: typemcp check reports the warning and passes; typemcp manifest --list is what the server lists", () => {
  const check = spawnSync(bin("typemcp"), ["check"], { cwd: project, encoding: "utf8" });
  expect(check.stdout).toBe(
    `src/station.ts(10,37): warning TS93001: ${STATION_WARNING}\n3 tool registrations checked: no errors, 1 warning.\n`,
  );
  expect(check.status).toBe(0);
  const list = spawnSync(bin("typemcp"), ["manifest", "--list"], { cwd: project, encoding: "utf8" });
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

test("tsserver loads typemcp/language-service from node_modules and shows typemcp's warning with the compiler's diagnostics", async () => {
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
