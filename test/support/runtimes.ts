/**
 * The runtimes users deploy typemcp on, and the MCP Inspector, as npm installs them: each brings
 * its binary from the registry in a platform package (`@cloudflare/workerd-linux-64` through
 * miniflare's `workerd`, `@oven/bun-linux-x64`, `@deno/linux-x64-glibc`). They are installed
 * once into .build/runtimes, shared by every run after (a run reinstalls only when a pinned
 * version changes), and each binary is run once before a suite uses it: a runtime that cannot
 * be installed or does not start fails the suite with what it printed.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import * as path from "node:path";
import { Readable } from "node:stream";
import { ROOT } from "./build";
import { npm } from "./consumer";

/**
 * The releases tested. miniflare pins the workerd it drives (miniflare 4.20260730.0: workerd
 * 2026-07-30); it and the Inspector declare Node 22 but run on Node 20, as this checks.
 */
export const RUNTIME_PACKAGES = {
  miniflare: "4.20260730.0",
  bun: "1.4.5",
  deno: "2.9.6",
  "@modelcontextprotocol/inspector": "2.12.0",
};

export const RUNTIMES = path.join(ROOT, ".build", "runtimes");

export interface Runtimes {
  /** The bun and deno binaries, as `npx bun` and `npx deno` would run them. */
  bun: string;
  deno: string;
  /** The Inspector's launcher (`npx @modelcontextprotocol/inspector`), a Node script. */
  inspector: string;
  /** test/support/workerd.mjs beside miniflare, where its import resolves. */
  workerd: string;
}

const bin = (name: string) => path.join(RUNTIMES, "node_modules", ".bin", name);

/** What `command --version` prints, or an error with everything it printed. */
function version(command: string, args: string[] = ["--version"]): string {
  const run = spawnSync(command, args, { encoding: "utf8" });
  if (run.status !== 0)
    throw new Error(
      `${command} ${args.join(" ")} exited with ${run.error ?? `status ${run.status}`}:\n${run.stdout}${run.stderr}`,
    );
  return run.stdout.trim();
}

/** RUNTIME_PACKAGES in .build/runtimes (installed from the registry when any differs), each binary checked. */
export function installRuntimes(): Runtimes {
  const installed = (name: string) => {
    const manifest = path.join(RUNTIMES, "node_modules", name, "package.json");
    return fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version;
  };
  if (Object.entries(RUNTIME_PACKAGES).some(([name, pinned]) => installed(name) !== pinned)) {
    fs.rmSync(RUNTIMES, { recursive: true, force: true });
    fs.mkdirSync(RUNTIMES, { recursive: true });
    fs.writeFileSync(
      path.join(RUNTIMES, "package.json"),
      JSON.stringify({ private: true, dependencies: RUNTIME_PACKAGES }, null, 2),
    );
    npm(["install", "--no-audit", "--no-fund"], RUNTIMES);
  }
  const workerd = path.join(RUNTIMES, "workerd.mjs");
  fs.copyFileSync(path.join(__dirname, "workerd.mjs"), workerd);
  const runtimes = {
    bun: bin("bun"),
    deno: bin("deno"),
    inspector: path.join(
      RUNTIMES,
      "node_modules",
      "@modelcontextprotocol",
      "inspector",
      "clients",
      "launcher",
      "build",
      "index.js",
    ),
    workerd,
  };
  // Each binary runs here: the platform package npm chose holds one for this machine.
  const found = {
    bun: version(runtimes.bun),
    deno: version(runtimes.deno).split("\n")[0],
    workerd: version(bin("workerd")),
    inspector: version(process.execPath, [runtimes.inspector, "--version"]),
  };
  const expected = {
    bun: RUNTIME_PACKAGES.bun,
    deno: expect.stringMatching(new RegExp(`^deno ${RUNTIME_PACKAGES.deno.replace(/\./g, "\\.")} `)),
    workerd: `workerd ${RUNTIME_PACKAGES.miniflare.replace(/^4\.(\d{4})(\d\d)(\d\d)\.\d+$/, "$1-$2-$3")}`,
    inspector: expect.stringContaining(RUNTIME_PACKAGES["@modelcontextprotocol/inspector"]),
  };
  expect(found).toEqual(expected);
  return runtimes;
}

/** A port no one listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves once something answers HTTP at `url`; fails when `exited` says the server has stopped. */
export async function listening(url: string, exited: () => string | undefined): Promise<void> {
  for (
    const started = Date.now();
    Date.now() - started < 60_000;
    await new Promise((resolve) => setTimeout(resolve, 100))
  ) {
    const stopped = exited();
    if (stopped !== undefined) throw new Error(`the server stopped before answering at ${url}: ${stopped}`);
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

/** Statuses whose response has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that sends its requests with `Host: host` (fetch itself may not set it), over
 * node:http: what a client reaching the server by that name through a load balancer sends. The
 * response body streams, as server-sent events need.
 */
export function fetchAs(host: string): typeof fetch {
  return (async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init.headers));
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    return new Promise<Response>((resolve, reject) => {
      const request = httpRequest(
        url,
        { method: init.method ?? "GET", headers: { ...headers, host }, signal: init.signal ?? undefined },
        (response) => {
          const status = response.statusCode ?? 0;
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            for (const one of Array.isArray(value) ? value : [value ?? ""]) responseHeaders.append(name, one);
          resolve(
            new Response(NO_BODY.has(status) ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
              status,
              headers: responseHeaders,
            }),
          );
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  }) as typeof fetch;
}
