import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

const SERVE = path.join(__dirname, "serve.js");

export interface HttpProcess {
  child: ChildProcess;
  url: string;
  /** What the process wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** A compiled fixture served over Streamable HTTP by its own process, on a free port (with `auth` verified by jwt(jwtOptions) when given). */
export function serveHttp(
  module: string,
  options: object = {},
  env: Record<string, string> = {},
  jwtOptions?: object,
): Promise<HttpProcess> {
  const args = [SERVE, module, JSON.stringify({ transport: "http", port: 0, ...options })];
  if (jwtOptions) args.push(JSON.stringify(jwtOptions));
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let errors = "";
    child.stderr!.on("data", (chunk) => (errors += chunk));
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${errors}`)));
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n")[0];
      if (!out.includes("\n")) return;
      const { port } = JSON.parse(line) as { port: number };
      resolve({
        child,
        url: `http://127.0.0.1:${port}/mcp`,
        stderr: () => errors,
        stop: () =>
          new Promise((done) => {
            child.removeAllListeners("exit");
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}
