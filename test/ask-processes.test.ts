/**
 * A call that asks the client, served by two processes behind a round-robin proxy, as a load
 * balancer spreads 2026-07-28 requests: each retry lands on the other process, which goes on
 * from the signed requestState when both hold one key (TYPEMCP_REQUEST_STATE_KEY), and refuses
 * it, saying why, when each made its own. examples/everything/server.ts, built with tspc, driven
 * by the official v2 client over Streamable HTTP.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { ROOT } from "./support/build";
import { serveHttp, type HttpProcess } from "./support/http-server";

const BUILT = path.join(ROOT, ".build", "everything-processes");
const KEY = "a shared key of at least thirty-two bytes";

beforeAll(() => {
  fs.rmSync(BUILT, { recursive: true, force: true });
  const tspc = spawnSync(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "ts-patch", "bin", "tspc.js"),
      "-p",
      path.join(ROOT, "examples", "everything"),
      "--outDir",
      BUILT,
    ],
    { encoding: "utf8" },
  );
  expect(tspc.stdout + tspc.stderr).toBe("");
}, 120_000);

/** A proxy that sends each request to the next backend in turn, and counts the tools/call requests each got. */
async function roundRobin(backends: string[]) {
  let next = 0;
  const calls = backends.map(() => 0);
  const server = http.createServer((request, response) => {
    const index = next++ % backends.length;
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      if (body.includes('"tools/call"')) calls[index]++;
      const target = new URL(backends[index]);
      const forwarded = http.request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: request.method,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function askedThroughProxy(env: [Record<string, string>, Record<string, string>]) {
  const processes: HttpProcess[] = await Promise.all(env.map((e) => serveHttp(path.join(BUILT, "server.js"), {}, e)));
  const proxy = await roundRobin(processes.map((p) => p.url));
  const client = new Client(
    { name: "behind-a-proxy", version: "1.0.0" },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  client.setRequestHandler("elicitation/create", (request) => ({
    action: "accept",
    content: String(request.params.message).includes("color")
      ? { color: "teal" }
      : ({ name: "Ada" } as Record<string, string>),
  }));
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
  const outcome = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} }).then(
    (result) => ({ text: (result.content as { text: string }[])[0].text }),
    (error: { code?: number; message?: string }) => ({ code: error.code, message: error.message }),
  );
  await client.close();
  await proxy.close();
  const stderr = processes.map((p) => p.stderr());
  await Promise.all(processes.map((p) => p.stop()));
  return { outcome, calls: proxy.calls, stderr };
}

test("with one key, three rounds on alternating processes end in the answer", async () => {
  const { outcome, calls } = await askedThroughProxy([
    { TYPEMCP_REQUEST_STATE_KEY: KEY },
    { TYPEMCP_REQUEST_STATE_KEY: KEY },
  ]);
  expect(outcome).toEqual({ text: "Ada likes teal" });
  // Round 1 and 3 on one process, round 2 on the other.
  expect([...calls].sort()).toEqual([1, 2]);
}, 60_000);

test("with a key each, the retry on the other process is refused with the reason and what to do", async () => {
  const { outcome } = await askedThroughProxy([{}, {}]);
  expect(outcome).toEqual({
    code: -32602,
    message:
      "Invalid or expired requestState: it was not signed by this process: when several processes serve one endpoint, give them one key (the requestStateKey option, or TYPEMCP_REQUEST_STATE_KEY)",
  });
}, 60_000);
