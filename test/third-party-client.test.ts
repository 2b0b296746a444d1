/**
 * A client that is not the official SDK: Vercel's AI SDK MCP client (`@ai-sdk/mcp`, its own
 * protocol implementation), over stdio and over Streamable HTTP. It speaks 2026-07-28 first;
 * against typemcp it stays there (no fallback to `initialize`), gets the same tools and results
 * as the official clients, and reports nothing along the way.
 *
 * `@ai-sdk/mcp` is installed here, into .build/ai-sdk, not as a devDependency: every release
 * that speaks 2026-07-28 (2.x) declares Node >= 22, and `npm ci` on Node 20 would warn about it
 * and the two packages it pins (docs/contributing.md, "Set up").
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./support/build";
import { npm } from "./support/consumer";
import { fixtures, FIXTURES_OUT } from "./support/fixtures";
import { serveHttp, type HttpProcess } from "./support/http-server";
import { withoutServerInfo } from "./support/observe";

/** The release tested: the 2.x line is the one that speaks 2026-07-28. */
const AI_SDK_MCP = "2.0.99";
const INSTALLED = path.join(ROOT, ".build", "ai-sdk");
const SERVE = path.join(__dirname, "support", "serve.js");
// The client script runs from the folder @ai-sdk/mcp is installed in, where its imports resolve.
const CLIENT = path.join(INSTALLED, "ai-sdk-client.mjs");
const MODULE = path.join(FIXTURES_OUT, "seed_get_forecast", "tool.js");
const forecast = fixtures().find((f) => f.name === "seed_get_forecast")!;
const SERVER = { name: "Weather", version: "1.0.0" };

/** @ai-sdk/mcp at AI_SDK_MCP in .build/ai-sdk (installed from the registry when it is not there yet), and the client script beside it. */
function installClient(): void {
  const manifest = path.join(INSTALLED, "node_modules", "@ai-sdk", "mcp", "package.json");
  if (!fs.existsSync(manifest) || JSON.parse(fs.readFileSync(manifest, "utf8")).version !== AI_SDK_MCP) {
    fs.rmSync(INSTALLED, { recursive: true, force: true });
    fs.mkdirSync(INSTALLED, { recursive: true });
    fs.writeFileSync(
      path.join(INSTALLED, "package.json"),
      JSON.stringify({ private: true, dependencies: { "@ai-sdk/mcp": AI_SDK_MCP } }, null, 2),
    );
    npm(["install", "--no-audit", "--no-fund"], INSTALLED);
  }
  fs.copyFileSync(path.join(__dirname, "support", "ai-sdk-client.mjs"), CLIENT);
}

let http: HttpProcess;
beforeAll(async () => {
  installClient();
  http = await serveHttp(MODULE);
}, 300_000);
afterAll(() => http.stop());

const transports: [string, () => string[]][] = [
  ["stdio", () => ["stdio", process.execPath, SERVE, MODULE]],
  ["Streamable HTTP", () => ["http", http.url]],
];

test.each(transports)(
  "@ai-sdk/mcp over %s: 2026-07-28, the same tools and results, nothing reported",
  async (_, transport) => {
    const calls = forecast.expected.calls!;
    const { stdout } = await promisify(execFile)(process.execPath, [CLIENT, ...transport(), JSON.stringify(calls)]);
    const observed = JSON.parse(stdout) as {
      protocolVersion: string;
      serverInfo: unknown;
      tools: unknown[];
      results: Record<string, unknown>[];
      reported: unknown[];
    };
    expect(observed.protocolVersion).toBe("2026-07-28");
    expect(observed.serverInfo).toEqual(SERVER);
    expect(observed.tools).toEqual(forecast.expected.tools);
    expect(observed.results).toHaveLength(calls.length);
    observed.results.forEach((result, i) => {
      // The AI SDK fills in what the wire leaves out (isError: false) and keeps resultType; the rest is the fixture's.
      const { resultType, isError, ...rest } = withoutServerInfo(result, SERVER);
      expect(resultType).toBe("complete");
      expect({ ...rest, ...(isError ? { isError } : {}) }).toEqual(calls[i].result);
    });
    expect(observed.reported).toEqual([]);
  },
);
