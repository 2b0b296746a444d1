/**
 * typemcp on the runtimes users deploy it on, and under the MCP Inspector, each installed from
 * the npm registry with its own binary (test/support/runtimes.ts), followed as
 * docs/deployment.md's "On Cloudflare Workers, Deno and Bun" and the README's Inspector commands
 * say, in the README's quick start project: the Worker bundled by the page's esbuild line and
 * served on workerd with its wrangler.toml's date and flags, `deno serve` and `bun` serving the
 * same module, each driven over HTTP by the official client (`@modelcontextprotocol/client`) on
 * both revisions; Deno and Bun started over stdio by it as a client application's configuration
 * says; the Inspector's CLI over stdio and over HTTP.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { documentedBlock } from "./support/documentation";
import { installedAsReadme, readmeQuickStart, runAsWritten } from "./support/recipes";
import { fetchAs, freePort, installRuntimes, listening, RUNTIMES, type Runtimes } from "./support/runtimes";

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

const arguments_ = (title: string, properties: object, required: string[]) => ({
  type: "object",
  title,
  properties,
  required,
  additionalProperties: false,
});

/** The quick start's tools, exactly as tools/list gives them. */
const TOOLS = [
  {
    name: "get_weather",
    description: "Current weather for a city.",
    inputSchema: arguments_("get_weatherArguments", { city: { type: "string" } }, ["city"]),
    outputSchema: WEATHER_SCHEMA,
  },
  {
    name: "get_forecast",
    description: "Daily forecast for a city.",
    inputSchema: arguments_("get_forecastArguments", { city: { type: "string" }, days: { type: "integer" } }, [
      "city",
      "days",
    ]),
    outputSchema: {
      type: "object",
      title: "get_forecastOutput",
      properties: { result: { type: "array", items: { $ref: "#/$defs/WeatherData" } } },
      required: ["result"],
      $defs: { WeatherData: WEATHER_SCHEMA },
    },
  },
];

const day = (temperature: number) => ({ temperature, humidity: 0.83, conditions: "Overcast" });
const GET_WEATHER = {
  content: [{ type: "text", text: JSON.stringify(day(16.2), null, 2) }],
  structuredContent: day(16.2),
};
/** A good call and a bad one, with their exact results. */
const CALLS = [
  {
    request: { name: "get_forecast", arguments: { city: "Oslo", days: 2 } },
    result: {
      content: [
        { type: "text", text: JSON.stringify(day(16.2), null, 2) },
        { type: "text", text: JSON.stringify(day(17.2), null, 2) },
      ],
      structuredContent: { result: [day(16.2), day(17.2)] },
    },
  },
  {
    request: { name: "get_forecast", arguments: { city: "Oslo", days: 1.5 } },
    result: {
      content: [
        {
          type: "text",
          text: "Error executing tool get_forecast: 1 validation error for get_forecastArguments\ndays\n  Input should be a valid integer [input_value=1.5]",
        },
      ],
      isError: true,
    },
  },
];
const SERVER_INFO = { name: "Weather", version: "1.0.0" };
const META = { "io.modelcontextprotocol/serverInfo": SERVER_INFO };
const REVISIONS = ["2026-07-28", "2025-11-25"] as const;
type Revision = (typeof REVISIONS)[number];

/** The host the deployment page's handler allows, which the clients here name. */
const HOST = "mcp.example.com";

/** The official client on `revision` over `transport`: the exact tools, and the exact results of a good call and a bad one. */
async function expectServed(transport: () => StdioClientTransport | StreamableHTTPClientTransport, revision: Revision) {
  const client = new Client(
    { name: "runtimes", version: "1.0.0" },
    revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport());
  try {
    expect(client.getProtocolEra()).toBe(revision === "2026-07-28" ? "modern" : "legacy");
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    expect((await client.listTools()).tools).toEqual(TOOLS);
    // Each call twice: a schema's second result is copied by generated code, or, where the runtime
    // forbids generating code (workerd), by the closures again (runtime/validation/generate.ts).
    for (const { request, result } of [...CALLS, ...CALLS]) {
      const answer = await client.callTool(request);
      // A 2026-07-28 result carries the server's identity.
      expect(answer).toEqual(revision === "2026-07-28" ? { ...result, _meta: META } : result);
    }
  } finally {
    await client.close();
  }
}

/** A documented server command, started in the project with the runtimes on PATH; what it printed is kept. */
interface Serving {
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

function start(command: string, cwd: string, env: Record<string, string> = {}): Serving {
  let output = "";
  // exec: the runtime is the process started, and the one stopped.
  const child = spawn("sh", ["-c", `exec ${command}`], {
    cwd,
    env: { ...process.env, ...env, PATH: `${path.join(RUNTIMES, "node_modules", ".bin")}:${process.env.PATH}` },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return {
    process: child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const stoppedWith = (serving: Serving) => () =>
  serving.process.exitCode === null && serving.process.signalCode === null
    ? undefined
    : `exit ${serving.process.exitCode ?? serving.process.signalCode}:\n${serving.output()}`;

/** A documented block's lines but the last, run as written; the last, the server, returned. */
function buildThenServe(block: string, project: string): string {
  const lines = block.trim().split("\n");
  runAsWritten(lines.slice(0, -1).join("\n"), project);
  return lines[lines.length - 1];
}

/** A 2026-07-28 tools/call as the README's curl line sends it, to `url` with fetch (whose Host is the URL's). */
async function curlFrom(url: string): Promise<Response> {
  const line = documentedBlock("quickstart:curl").replace(/\\\n\s*/g, " ");
  const headers = Object.fromEntries(
    [...line.matchAll(/-H '([^:']+): ([^']*)'/g)].map(([, name, value]) => [name, value]),
  );
  return fetch(url, { method: "POST", headers, body: /-d '([^']*)'/.exec(line)![1] });
}

let runtimes: Runtimes;
/** The folder the README's Install leaves, and the quick start's project in it. */
let folder: string;
let project: string;

beforeAll(() => {
  runtimes = installRuntimes();
  folder = installedAsReadme();
  project = readmeQuickStart(folder);
  // The page's handler module: the deployment page's serverless function in place of mcp.run().
  const server = documentedBlock("quickstart:src/server.ts");
  expect(server).toContain("mcp.run(); // stdio\n");
  fs.writeFileSync(
    path.join(project, "src", "handler.mts"),
    server.replace("mcp.run(); // stdio", documentedBlock("deployment:handler")),
  );
}, 600_000);

afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

describe("Cloudflare Workers: the page's bundle on workerd", () => {
  /** wrangler.toml's settings (its lines are `key = value`, each value a JSON string, array or boolean). */
  let wrangler: Record<string, unknown>;
  let worker: Serving;
  let url: string;

  /** A Worker module served by workerd as wrangler.toml says, on a free port; resolves with its URL. */
  async function serveWorker(script: string): Promise<{ serving: Serving; url: string }> {
    const settings = {
      script,
      compatibilityDate: wrangler.compatibility_date,
      compatibilityFlags: wrangler.compatibility_flags,
      port: await freePort(),
    };
    const serving = start(`node ${runtimes.workerd} '${JSON.stringify(settings)}'`, project);
    for (let i = 0; i < 600 && !serving.output().includes('{"url"'); i++) {
      if (stoppedWith(serving)() !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ready = /\{"url":"([^"]+)"\}/.exec(serving.output());
    if (!ready) {
      await serving.stop();
      throw new Error(`workerd did not start ${script}:\n${serving.output()}`);
    }
    return { serving, url: ready[1] };
  }

  beforeAll(async () => {
    runAsWritten(documentedBlock("deployment:workers-bundle"), project);
    fs.writeFileSync(path.join(project, "wrangler.toml"), documentedBlock("deployment:wrangler.toml"));
    wrangler = Object.fromEntries(
      documentedBlock("deployment:wrangler.toml")
        .trim()
        .split("\n")
        .map((line) => /^(\w+) = (.*)$/.exec(line)!)
        .map(([, key, value]) => [key, JSON.parse(value)]),
    );
    expect(wrangler).toEqual({
      name: "weather",
      main: "worker/index.js",
      compatibility_date: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      compatibility_flags: ["nodejs_compat"],
      no_bundle: true,
    });
    ({ serving: worker, url } = await serveWorker(path.join(project, wrangler.main as string)));
  }, 300_000);

  afterAll(() => worker?.stop());

  test("workerd forbids code generated at run time: a Worker that calls new Function fails", async () => {
    const script = path.join(project, "generates", "index.js");
    fs.mkdirSync(path.dirname(script), { recursive: true });
    fs.writeFileSync(script, `export default { fetch: () => new Response(String(new Function("return 1")())) };\n`);
    const { serving, url: generates } = await serveWorker(script);
    try {
      const response = await fetch(generates, { headers: { accept: "text/plain" } });
      expect(response.status).toBe(500);
      expect(await response.text()).toMatch(/^EvalError: Code generation from strings disallowed for this context\n/);
    } finally {
      await serving.stop();
    }
  });

  test.each(REVISIONS)("the official client on %s: the exact tools, a good call and a bad one", async (revision) => {
    await expectServed(
      () => new StreamableHTTPClientTransport(new URL("/mcp", url), { fetch: fetchAs(HOST) }),
      revision,
    );
  });

  test("a Host the handler does not allow gets 403, and workerd reported nothing", async () => {
    expect((await curlFrom(new URL("/mcp", url).href)).status).toBe(403);
    expect(worker.output()).toBe(`{"url":"${url}"}\n`);
  });
});

describe.each([
  { runtime: "Deno", marker: "deployment:deno" },
  { runtime: "Bun", marker: "deployment:bun" },
])("$runtime serves the page's handler module", ({ marker }) => {
  let serving: Serving;
  let url: string;

  beforeAll(async () => {
    const command = buildThenServe(documentedBlock(marker), project);
    const port = await freePort();
    // The page's port 3000 may be taken here: deno serve's flag, or Bun's PORT.
    serving = start(command.replace("--port 3000", `--port ${port}`), project, { PORT: String(port) });
    url = `http://127.0.0.1:${port}/mcp`;
    await listening(url, stoppedWith(serving));
  }, 300_000);

  afterAll(() => serving?.stop());

  test.each(REVISIONS)(
    "the official client on %s over HTTP: the exact tools, a good call and a bad one",
    async (revision) => {
      await expectServed(() => new StreamableHTTPClientTransport(new URL(url), { fetch: fetchAs(HOST) }), revision);
    },
  );

  test("a Host the handler does not allow gets 403", async () => {
    expect((await curlFrom(url)).status).toBe(403);
  });
});

describe("Deno and Bun over stdio, started as the page's client configuration says", () => {
  const servers = () =>
    JSON.parse(documentedBlock("deployment:stdio-runtimes")).mcpServers as Record<
      string,
      { command: "deno" | "bun"; args: string[] }
    >;

  beforeAll(() => {
    // Deno reads dist/server.js as CommonJS because npm init -y says so.
    expect(JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8")).type).toBe("commonjs");
    runAsWritten(documentedBlock("quickstart:try").split("\n")[0], project);
  }, 300_000);

  test("the configuration names each runtime, and the quick start's dist/server.js", () => {
    expect(Object.entries(servers()).map(([name, { command, args }]) => [name, command, args.at(-1)])).toEqual([
      ["weather-deno", "deno", "/absolute/path/to/weather/dist/server.js"],
      ["weather-bun", "bun", "/absolute/path/to/weather/dist/server.js"],
    ]);
  });

  describe.each(["deno", "bun"] as const)("%s", (runtime) => {
    test.each(REVISIONS)("the official client on %s: the exact tools, a good call and a bad one", async (revision) => {
      const { args } = Object.values(servers()).find((server) => server.command === runtime)!;
      await expectServed(
        () =>
          new StdioClientTransport({
            command: runtimes[runtime],
            args: args.map((arg) => arg.replace("/absolute/path/to/weather", project)),
            cwd: project,
          }),
        revision,
      );
    });
  });
});

describe("the MCP Inspector's CLI, as the README runs it", () => {
  /** A documented `npx @modelcontextprotocol/inspector` line, with the Inspector installed here, and its flags after the package's name; stdout as JSON. */
  function inspector(line: string, flags = ""): unknown {
    expect(line.startsWith("npx @modelcontextprotocol/inspector --cli ")).toBe(true);
    const command = line.replace(
      "npx @modelcontextprotocol/inspector --cli",
      `${process.execPath} ${runtimes.inspector} --cli${flags}`,
    );
    return JSON.parse(runAsWritten(command, project));
  }

  beforeAll(() => runAsWritten(documentedBlock("quickstart:try").split("\n")[0], project), 300_000);

  test("over stdio on 2025-11-25, its default: the exact tools, and get_weather's result", () => {
    const [list, call] = documentedBlock("quickstart:inspector").trim().split("\n");
    expect(inspector(list)).toEqual({ tools: TOOLS });
    expect(inspector(call)).toEqual(GET_WEATHER);
  });

  test("over stdio on 2026-07-28 (--protocol-era modern): the same, with the server's identity", () => {
    const [list, call] = documentedBlock("quickstart:inspector").trim().split("\n");
    expect(inspector(list, " --protocol-era modern")).toEqual({ tools: TOOLS });
    expect(inspector(call, " --protocol-era modern")).toEqual({
      ...GET_WEATHER,
      _meta: META,
    });
  });

  test("over HTTP, against the README's HTTP server, on both revisions", async () => {
    const source = path.join(project, "src", "http.ts");
    const built = path.join(project, "dist", "http.js");
    const [run] = documentedBlock("quickstart:http").split("\n");
    fs.writeFileSync(source, documentedBlock("quickstart:src/server.ts").replace("mcp.run(); // stdio", run));
    runAsWritten(documentedBlock("quickstart:try").split("\n")[0], project);
    const port = await freePort();
    fs.writeFileSync(built, fs.readFileSync(built, "utf8").replace("port: 3000", `port: ${port}`));
    const serving = start(`node ${built}`, project);
    try {
      const url = `http://127.0.0.1:${port}/mcp`;
      await listening(url, stoppedWith(serving));
      const [line] = documentedBlock("quickstart:inspector-http").trim().split("\n");
      expect(line).toContain("http://127.0.0.1:3000/mcp");
      const call = line.replace(":3000/", `:${port}/`);
      expect(inspector(call)).toEqual(GET_WEATHER);
      expect(inspector(call, " --protocol-era modern")).toEqual({
        ...GET_WEATHER,
        _meta: META,
      });
    } finally {
      await serving.stop();
      for (const file of [source, built]) fs.rmSync(file, { force: true });
    }
  });
});
