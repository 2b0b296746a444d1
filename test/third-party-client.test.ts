/**
 * A client that is not the official SDK: Vercel's AI SDK MCP client (`@ai-sdk/mcp`, its own
 * protocol implementation), over stdio and over Streamable HTTP. It speaks 2026-07-28 first;
 * against typemcp it stays there (no fallback to `initialize`), gets the same tools and results
 * as the official clients, and reports nothing along the way.
 */
import { execFile } from "node:child_process";
import * as path from "node:path";
import { promisify } from "node:util";
import { fixtures, FIXTURES_OUT } from "./support/fixtures";
import { serveHttp, type HttpProcess } from "./support/http-server";
import { withoutServerInfo } from "./support/observe";

const SERVE = path.join(__dirname, "support", "serve.js");
const CLIENT = path.join(__dirname, "support", "ai-sdk-client.mjs");
const MODULE = path.join(FIXTURES_OUT, "seed_get_forecast", "tool.js");
const forecast = fixtures().find((f) => f.name === "seed_get_forecast")!;
const SERVER = { name: "Weather", version: "1.0.0" };

let http: HttpProcess;
beforeAll(async () => {
  http = await serveHttp(MODULE);
});
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
