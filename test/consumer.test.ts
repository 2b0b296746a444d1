/**
 * typemcp as a user gets it, the README and docs/ followed word for word, commands included
 * (test/support/recipes.ts): the README's Install (the packed tarball where it says), then its
 * quick start's commands run in a fresh folder, as written (TypeScript 5.9 + ts-patch 3) and
 * with the TypeScript 6.0 + ts-patch 4 it names, built with its command, `npx typemcp build`,
 * and with `tspc` (the same dist/, byte for byte), `typemcp doctor` naming tspc, and the server
 * called as the README says: by its one-line check, by a client configuration, by the client
 * script, over HTTP with the README's lines and `curl` requests, as CommonJS and as ESM; then
 * docs/deployment.md's load balancer, cluster and serverless function in the same project. The
 * README's commands without its pin (npm then gives TypeScript 7, and a ts-patch that cannot
 * run on it): `npx tspc` fails, `typemcp doctor` says in one line what to run instead, and the
 * quick start's own commands end with a working server. And docs/typescript-7.md's quick start,
 * as written (`npm install typescript`: the latest, 7), on TypeScript 5.9 (where the page says
 * `typemcp build` works too) and on TypeScript 7.1, a prerelease, built with its one command,
 * `npx typemcp build`, and served.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as semver from "semver";
import { STATION } from "./support/consumer";
import { documentedBlock, documentText } from "./support/documentation";
import {
  installedAsReadme,
  installedVersion,
  readmeQuickStart,
  runAsWritten,
  shell,
  typescript7QuickStart,
} from "./support/recipes";

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

/** A POST to 127.0.0.1:`port`/mcp with these headers, `host` included (fetch may not set it). */
function post(
  port: number,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
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

/**
 * The toolchains the README's quick start names: its own install, as written, and "Or
 * TypeScript 6", whose packages take the place of its own on the install line. `typescript`
 * and `tsPatch` are the versions each installs.
 */
const TOOLCHAINS = [
  { name: "as written", packages: [], typescript: "5.9.", tsPatch: "3." },
  { name: "with TypeScript 6", packages: ["typescript@~6.0.3", "ts-patch@^4.0.1"], typescript: "6.0.", tsPatch: "4." },
];

/** The README's build command: the first line of the block that builds and calls a tool. */
const readmeBuild = () => documentedBlock("quickstart:try").split("\n")[0];

/** What `npx typemcp build` prints for the quick start's server when all is well. */
const BUILT = "2 tool registrations built: no errors, 0 warnings.\n";

/** A built project's dist/, file by file. */
const distOf = (project: string) =>
  Object.fromEntries(
    fs
      .readdirSync(path.join(project, "dist"))
      .sort()
      .map((file) => [file, fs.readFileSync(path.join(project, "dist", file), "utf8")]),
  );

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

describe.each(TOOLCHAINS)("the README's quick start $name", ({ packages, typescript, tsPatch }) => {
  /** The folder the README's Install leaves, and the project the quick start makes in it. */
  let folder: string;
  let project: string;

  function tspc(): { status: number | null; output: string } {
    const run = spawnSync(path.join(project, "node_modules", ".bin", "tspc"), ["-p", "."], {
      cwd: project,
      encoding: "utf8",
    });
    return { status: run.status, output: run.stdout + run.stderr };
  }

  beforeAll(() => {
    // The README names the other toolchain with the very packages this run installs.
    if (packages.length) expect(documentText("README.md")).toContain(`\`${packages.join(" ")}\``);
    folder = installedAsReadme();
    project = readmeQuickStart(folder, packages);
    // The README's client, installed as it says.
    runAsWritten(documentedBlock("quickstart:client-install"), project);
  }, 300_000);

  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

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
    expect(installedVersion(project, "typescript").startsWith(typescript)).toBe(true);
    expect(installedVersion(project, "ts-patch").startsWith(tsPatch)).toBe(true);
    expect(fs.existsSync(path.join(installed, "test"))).toBe(false);
  });

  test("what a user installs with typemcp, all the way down, declares no Node later than the 20 typemcp asks for", () => {
    const node = semver.minVersion(
      (
        JSON.parse(fs.readFileSync(path.join(project, "node_modules", "typemcp", "package.json"), "utf8")) as {
          engines: { node: string };
        }
      ).engines.node,
    )!.version;
    expect(node).toBe("20.0.0");
    // npm's own query: every package reached from typemcp by its dependencies, as installed here.
    const reached = JSON.parse(runAsWritten("npm query '#typemcp *'", project)) as {
      name: string;
      version: string;
      engines?: { node?: string };
    }[];
    expect(reached.map((found) => found.name)).toEqual(
      expect.arrayContaining(["@modelcontextprotocol/server", "acorn"]),
    );
    expect(
      reached
        .filter(
          (found) => found.engines?.node && !semver.satisfies(node, found.engines.node, { includePrerelease: true }),
        )
        .map((found) => `${found.name}@${found.version}: node ${found.engines!.node}`),
    ).toEqual([]);
  });

  test("the README's build and one-line check, run as written: the build's one line, then exactly the answer the README shows", () => {
    // `npx typemcp build` exits 1 on an error, which stops the lines (sh -e) before the check.
    expect(runAsWritten(documentedBlock("quickstart:try"), project)).toBe(BUILT + documentedBlock("quickstart:answer"));
  });

  test("the README's build command builds its server; tspc builds the same dist/, byte for byte; typemcp doctor names tspc; the official client started as the client configuration says calls it over stdio", async () => {
    expect(readmeBuild()).toBe("npx typemcp build");
    fs.rmSync(path.join(project, "dist"), { recursive: true, force: true });
    expect(shell(readmeBuild(), project)).toEqual({ status: 0, stdout: BUILT, stderr: "" });
    const byTypemcp = distOf(project);
    expect(byTypemcp["server.js"]).toContain(`JSON.parse('{"v":2,"name":"get_weather"`);
    fs.rmSync(path.join(project, "dist"), { recursive: true });
    expect(tspc()).toEqual({ status: 0, output: "" });
    expect(distOf(project)).toEqual(byTypemcp);
    // This toolchain builds as it is: the doctor says so, and names tspc.
    expect(shell("npx typemcp doctor", project)).toEqual({
      status: 0,
      stdout: expect.stringMatching(
        /^TypeScript \d+\.\d+\.\d+ with ts-patch \d+\.\d+\.\d+: build with `npx tspc` \(or `npx typemcp build`, which builds the same\)\.\n$/,
      ),
      stderr: "",
    });

    const { command, args } = JSON.parse(documentedBlock("quickstart:client-config")).mcpServers.weather as {
      command: string;
      args: string[];
    };
    expect(command).toBe("node");
    await expectQuickStartServed(args.map((arg) => arg.replace(PROJECT_PLACEHOLDER, project)));
  });

  test("the README's client script prints exactly what the README shows", () => {
    fs.writeFileSync(path.join(project, "client.mjs"), documentedBlock("quickstart:client.mjs"));
    expect(execFileSync(process.execPath, ["client.mjs"], { cwd: project, encoding: "utf8" })).toBe(
      documentedBlock("quickstart:client-output"),
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
    const runs = documentedBlock("quickstart:http")
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
    const server = documentedBlock("quickstart:src/server.ts");
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
          const [call] = curlRequests(documentedBlock("quickstart:curl"));
          const answer = await send(call);
          expect([answer.status, answer.headers.get("content-type")]).toEqual([200, "application/json"]);
          expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: MODERN_GET_WEATHER });
          if (!run.includes("stateless")) {
            // 2025-11-25: initialize, then the session on every request.
            const [initialize, legacyCall] = curlRequests(documentedBlock("quickstart:curl-session"));
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
      documentedBlock("quickstart:src/server.ts").replace("mcp.run(); // stdio", documentedBlock("deployment:cluster")),
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
        const [call] = curlRequests(documentedBlock("quickstart:curl"));
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

  /**
   * The quick start's server with `mcp.run(); // stdio` replaced as a page says, in src/<name>.ts
   * (and .mts, for each of `extensions`), built by tspc with no diagnostic; `use` gets the built
   * files, with `port: 3000` made a free port in them (3000 may be taken on the machine running
   * the tests). The files are removed after.
   */
  async function withVariant(
    name: string,
    replacement: string,
    extensions: ("ts" | "mts")[],
    use: (built: { file: string; port: number }[]) => Promise<void>,
  ): Promise<void> {
    const server = documentedBlock("quickstart:src/server.ts");
    expect(server).toContain("mcp.run(); // stdio\n");
    const files = extensions.map((extension) => ({
      source: path.join(project, "src", `${name}.${extension}`),
      built: path.join(project, "dist", `${name}.${extension === "ts" ? "js" : "mjs"}`),
    }));
    try {
      for (const { source } of files) fs.writeFileSync(source, server.replace("mcp.run(); // stdio", replacement));
      expect(tspc()).toEqual({ status: 0, output: "" });
      const built = [];
      for (const { built: file } of files) {
        const port = await freePort();
        fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace("port: 3000", `port: ${port}`));
        built.push({ file, port });
      }
      await use(built);
    } finally {
      for (const { source, built } of files) for (const file of [source, built]) fs.rmSync(file, { force: true });
    }
  }

  test("the deployment guide's load balancer line: every interface, the host it names and no other, no sessions, and a warning that says what is exposed", async () => {
    await withVariant("balanced", documentedBlock("deployment:load-balancer"), ["ts"], async ([{ file, port }]) => {
      const serving = spawn(process.execPath, [file], { cwd: project, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      serving.stderr!.on("data", (chunk) => (stderr += chunk));
      try {
        await listening(`http://127.0.0.1:${port}/mcp`, serving);
        // Through the load balancer, a request names the host clients use.
        const [call] = curlRequests(documentedBlock("quickstart:curl"));
        const answer = await post(port, { ...call.headers, host: "mcp.example.com" }, call.body);
        expect([answer.status, JSON.parse(answer.body)]).toEqual([
          200,
          { jsonrpc: "2.0", id: 1, result: MODERN_GET_WEATHER },
        ]);
        // Any other host is refused, this machine's own address included.
        expect((await post(port, { ...call.headers, host: `127.0.0.1:${port}` }, call.body)).status).toBe(403);
        // A 2025-11-25 client gets no session: any instance can answer its next request.
        const [initialize] = curlRequests(documentedBlock("quickstart:curl-session"));
        const initialized = await post(port, { ...initialize.headers, host: "mcp.example.com" }, initialize.body);
        expect(initialized.status).toBe(200);
        expect(initialized.headers["mcp-session-id"]).toBeUndefined();
        expect(eventMessage(initialized.body)).toMatchObject({ id: 1, result: { serverInfo: { name: "Weather" } } });
        for (let i = 0; i < 100 && !stderr.includes("warning"); i++)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(stderr).toBe(
          `typemcp: Weather serves MCP at http://0.0.0.0:${port}/mcp\n` +
            `typemcp: warning: listening on 0.0.0.0, not loopback: every tool is callable by anyone who can reach port ${port}\n`,
        );
      } finally {
        serving.kill();
      }
    });
  });

  test("the deployment guide's serverless function: its default export answers the README's curl request as a Request, from CommonJS and from ESM", async () => {
    // What a platform that calls a function with a Request does, on Node: load the module, call
    // its default export's fetch with the request it received, whose Host names the URL's host.
    const driver = path.join(project, "platform.js");
    fs.writeFileSync(
      driver,
      `const { pathToFileURL } = require("node:url");
const [file, url, headers, body] = process.argv.slice(2);
(async () => {
  const handler = file.endsWith(".mjs") ? (await import(pathToFileURL(file).href)).default : require(file).default;
  const received = { ...JSON.parse(headers), host: new URL(url).host };
  const response = await handler.fetch(new Request(url, { method: "POST", headers: received, body }));
  console.log(JSON.stringify({ status: response.status, body: await response.text() }));
})();
`,
    );
    const [call] = curlRequests(documentedBlock("quickstart:curl"));
    const platform = (file: string, url: string) =>
      JSON.parse(
        execFileSync(process.execPath, [driver, file, url, JSON.stringify(call.headers), call.body], {
          cwd: project,
          encoding: "utf8",
        }),
      ) as { status: number; body: string };
    try {
      await withVariant("handler", documentedBlock("deployment:handler"), ["ts", "mts"], async (built) => {
        for (const { file } of built) {
          const answer = platform(file, "https://mcp.example.com/mcp");
          expect([answer.status, JSON.parse(answer.body)]).toEqual([
            200,
            { jsonrpc: "2.0", id: 1, result: MODERN_GET_WEATHER },
          ]);
          expect(platform(file, "https://elsewhere.example/mcp").status).toBe(403);
        }
      });
    } finally {
      fs.rmSync(driver);
    }
  });

  test("the quick start's tsconfig.json gives the project Node's types: code that reads process.env builds", () => {
    const source = path.join(project, "src", "environment.ts");
    fs.writeFileSync(source, "export const port = Number(process.env.PORT ?? 3000);\n");
    try {
      expect(tspc()).toEqual({ status: 0, output: "" });
    } finally {
      for (const file of [source, path.join(project, "dist", "environment.js")]) fs.rmSync(file, { force: true });
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
    const live = tspc();
    const built = distOf(project);
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
    expect(distOf(project)).toEqual(built);
    expect(JSON.parse(fs.readFileSync(probe + ".json", "utf8"))).toBe(1);
  });
});

describe("the README's quick start without its pin: npm gives TypeScript 7, and a ts-patch beside it that cannot run on it", () => {
  let folder: string;
  let project: string;
  let version: string;

  beforeAll(() => {
    folder = installedAsReadme();
    // The install line as typed by a user who leaves out the versions.
    project = readmeQuickStart(folder, ["typescript", "ts-patch"]);
    version = installedVersion(project, "typescript");
  }, 300_000);

  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  test("npm installs TypeScript 7, and tspc stops inside ts-patch before typemcp loads", () => {
    expect(version).toMatch(/^7\./);
    const tspc = shell("npx tspc", project);
    expect(tspc.status).not.toBe(0);
    expect(tspc.stderr).toContain("TypeError: Cannot read properties of undefined (reading 'LineFeed')");
    expect(fs.existsSync(path.join(project, "dist"))).toBe(false);
  });

  test("typemcp doctor says in one line what to run instead", () => {
    expect(shell("npx typemcp doctor", project)).toEqual({
      status: 0,
      stdout: `TypeScript ${version} is installed, which ts-patch cannot run: \`npx tspc\` stops inside ts-patch (TypeError: Cannot read properties of undefined (reading 'LineFeed')) before typemcp loads. Build with \`npx typemcp build\` instead.\n`,
      stderr: "",
    });
  });

  test("the README's build and one-line check, run as written, answer what the README shows; the official client gets the exact schemas and results", async () => {
    expect(runAsWritten(documentedBlock("quickstart:try"), project)).toBe(BUILT + documentedBlock("quickstart:answer"));
    await expectQuickStartServed([path.join(project, "dist", "server.js")]);
  });
});

/**
 * The TypeScripts docs/typescript-7.md's quick start is followed with: its own install, as
 * written (`typescript` with no version: the latest, 7), TypeScript 5.9, on which the page
 * says `typemcp build` works too, and TypeScript 7.1, a prerelease whose API is at
 * typescript/sync (the peer range admits it: the page's plain `npm install`, no
 * --legacy-peer-deps, no ERESOLVE). `version` is what each installs, `major` its major.
 */
const TYPESCRIPT_7_PAGE = [
  { name: "as written", packages: [], version: /^7\./, major: 7 },
  { name: "on TypeScript 5.9", packages: ["typescript@~5.9.3"], version: /^5\.9\./, major: 5 },
  { name: "on TypeScript 7.1", packages: ["typescript@7.1.0-beta"], version: /^7\.1\.0-beta$/, major: 7 },
];

describe.each(TYPESCRIPT_7_PAGE)(
  "docs/typescript-7.md's quick start $name: npx typemcp build",
  ({ packages, version, major }) => {
    let folder: string;
    let project: string;
    const run = (command: string) => shell(command, project);

    beforeAll(() => {
      folder = installedAsReadme();
      project = typescript7QuickStart(folder, packages);
    }, 300_000);

    afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

    test("npm installs that TypeScript as typescript, and no other TypeScript", () => {
      expect(installedVersion(project, "typescript")).toMatch(version);
      const typescripts = fs
        .readdirSync(path.join(project, "node_modules"))
        .filter((name) => name.startsWith("typescript"));
      expect(typescripts).toEqual(["typescript"]);
    });

    test("the one documented command builds the server; the official client gets the exact schemas and results over stdio", async () => {
      const [build, start] = documentedBlock("ts7:build").trim().split("\n");
      expect(build).toBe("npx typemcp build");
      expect(run(build)).toEqual({ status: 0, stdout: BUILT, stderr: "" });
      expect(fs.readFileSync(path.join(project, "dist", "server.js"), "utf8")).toContain(
        `mcp.tool(get_weather, void 0, JSON.parse('{"v":2,"name":"get_weather"`,
      );
      expect(fs.existsSync(path.join(project, "dist", "server.js.map"))).toBe(false);

      expect(start).toBe("node dist/server.js");
      await expectQuickStartServed([path.join(project, "dist", "server.js")]);
    });

    test("the page's tsconfig.json gives the project Node's types: code that reads process.env builds (TS2591 without them)", () => {
      const source = path.join(project, "src", "environment.ts");
      fs.writeFileSync(source, "export const port = Number(process.env.PORT ?? 3000);\n");
      try {
        expect(run("npx typemcp build")).toEqual({ status: 0, stdout: BUILT, stderr: "" });
      } finally {
        for (const file of [source, path.join(project, "dist", "environment.js")]) fs.rmSync(file, { force: true });
      }
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

    test("a type error: tsc's message as tsc prints it, counted in the summary, exit status 1", () => {
      fs.writeFileSync(path.join(project, "src", "broken.ts"), `const n: number = "one";\nexport { n };\n`);
      const built = run("npx typemcp build");
      expect(built.stdout).toContain(
        "src/broken.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      );
      expect(built.stdout.endsWith("2 tool registrations built: 1 error, 0 warnings.\n")).toBe(true);
      expect(built.status).toBe(1);
      fs.rmSync(path.join(project, "src", "broken.ts"));
    });

    test("typemcp check: the count, exit 0", () => {
      expect(run("npx typemcp check")).toEqual({
        status: 0,
        stdout: "2 tool registrations checked: no errors, 0 warnings.\n",
        stderr: "",
      });
    });

    test("the page's command beside the editor, npx typemcp check --watch: the diagnostics, then again on a change", async () => {
      const command = documentedBlock("ts7:check-watch").trim();
      expect(command).toBe("npx typemcp check --watch");
      // Its own process group, so that it can be stopped (Ctrl-C: SIGINT) with the npx it runs under.
      const watching = spawn("sh", ["-c", command], {
        cwd: project,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      watching.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
      const reported = async (count: number) => {
        for (let i = 0; i < 600 && (output.match(/Watching for file changes\./g) ?? []).length < count; i++) {
          if (watching.exitCode !== null) throw new Error(`the watch exited (${watching.exitCode}):\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        if ((output.match(/Watching for file changes\./g) ?? []).length < count)
          throw new Error(`no report ${count}:\n${output}`);
      };
      const broken = path.join(project, "src", "broken.ts");
      try {
        await reported(1);
        expect(output).toContain("2 tool registrations checked: no errors, 0 warnings.\n");
        fs.writeFileSync(broken, `const n: number = "one";\nexport { n };\n`);
        await reported(2);
        expect(output).toMatch(/File change detected \(src\/broken\.ts\): checking again\.\n/);
        expect(output).toContain(
          "src/broken.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n2 tool registrations checked: 1 error, 0 warnings.\n",
        );
      } finally {
        if (watching.exitCode === null) {
          const exited = new Promise((resolve) => watching.once("exit", resolve));
          process.kill(-watching.pid!, "SIGINT");
          await exited;
        }
        fs.rmSync(broken, { force: true });
      }
    });

    if (major === 7)
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
              new RegExp(
                `^typemcp: language-service plugin disabled: the project installed TypeScript ${installedVersion(project, "typescript").replace(/\./g, "\\.")}, whose language server loads no plugins; run \`npx typemcp check --watch\``,
              ),
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
  },
);
