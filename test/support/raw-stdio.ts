import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as path from "node:path";

const SERVE = path.join(__dirname, "serve.js");

/** A served fixture driven line by line, as a client nobody controls would: raw JSON-RPC over stdio. */
export interface RawServer {
  child: ChildProcessWithoutNullStreams;
  /** Writes one line (an object is serialized; a string goes as is, malformed or not). */
  send(message: object | string): void;
  /** The next message the server writes. */
  next(): Promise<Record<string, unknown>>;
  /** Sends a request and waits for the message answering its id. */
  request(method: string, params?: object): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Everything written to stdout so far, as it came. */
  stdout(): string;
}

let nextId = 1;

export function spawnRaw(module: string): RawServer {
  const child = spawn(process.execPath, [SERVE, module], { stdio: ["pipe", "pipe", "pipe"] });
  const queue: Record<string, unknown>[] = [];
  const waiting: ((m: Record<string, unknown>) => void)[] = [];
  let buffer = "";
  let errors = "";
  let output = "";
  child.stderr.on("data", (chunk) => (errors += chunk));
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    output += chunk;
    let newline: number;
    while ((newline = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const message = JSON.parse(line) as Record<string, unknown>;
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else queue.push(message);
    }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const send = (message: object | string) =>
    child.stdin.write((typeof message === "string" ? message : JSON.stringify(message)) + "\n");
  const next = () =>
    new Promise<Record<string, unknown>>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve)));
  return {
    child,
    send,
    next,
    async request(method, params) {
      const id = nextId++;
      send({ jsonrpc: "2.0", id, method, params });
      for (;;) {
        const message = await next();
        if (message.id === id) return message;
      }
    },
    exited,
    stderr: () => errors,
    stdout: () => output,
  };
}

/** A raw server past the initialize handshake. */
export async function initialized(module: string): Promise<RawServer> {
  const server = spawnRaw(module);
  await server.request("initialize", {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "raw", version: "1" },
  });
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}
