import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "./build";

/** The built CLI, as `npx typemcp` runs it. */
export const CLI = path.join(ROOT, "dist", "cli", "index.js");

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], cwd: string = ROOT, env: Record<string, string> = {}): CliRun {
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * A small project written under .build/<folder> inside the package (replacing what was
 * there), so that `import ... from "typemcp"` resolves to this package by self-reference,
 * as in a user's project. Returns its folder.
 */
export function writeProject(folder: string, files: Record<string, string>): string {
  const dir = path.join(ROOT, ".build", folder);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return dir;
}

/** tsconfig.json of a small project: strict, node16, CommonJS (what the fixtures use); ES2022 only, no @types (fast). */
export function tsconfig(compilerOptions: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      compilerOptions: {
        target: "ES2022",
        module: "node16",
        moduleResolution: "node16",
        strict: true,
        skipLibCheck: true,
        lib: ["ES2022"],
        types: [],
        noEmit: true,
        ...compilerOptions,
      },
      ...rest,
    },
    null,
    2,
  );
}
