/**
 * The README's and docs/'s recipes followed as a user follows them: in a fresh folder, with
 * the packed tarball where the README's Install leaves it (`typemcp/typemcp-0.1.0.tgz`), each
 * documented block of commands run as written by a shell, each documented file written as
 * shown (test/support/documentation.ts takes the blocks word for word).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ROOT } from "./build";
import { npm } from "./consumer";
import { documentedBlock, withPackages } from "./documentation";

/**
 * npm's notices, turned off through its environment so that the commands stay as written: no
 * audit or funding lines, no update check, and packages from the cache when it has them (the
 * suites install the same packages several times).
 */
const QUIET_NPM = {
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
  npm_config_prefer_offline: "true",
};

export interface ShellRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Documented shell lines run as written by `sh -e` in `cwd`: the first line that fails stops them, as a user would stop. */
export function shell(commands: string, cwd: string, env: Record<string, string> = {}): ShellRun {
  const run = spawnSync("sh", ["-e", "-c", commands], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...QUIET_NPM, ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** As `shell`, for lines that must succeed: their standard output, or an error with all they printed. */
export function runAsWritten(commands: string, cwd: string, env: Record<string, string> = {}): string {
  const run = shell(commands, cwd, env);
  if (run.status !== 0)
    throw new Error(
      `exit status ${run.status} in ${cwd} from:\n${commands}\n--- stdout\n${run.stdout}--- stderr\n${run.stderr}`,
    );
  return run.stdout;
}

/**
 * A fresh folder as the README's Install leaves it, as far as that can run here: the checkout
 * under test stands for the clone (its dependencies installed, dist/ just built by the second
 * tier, so `npm pack` runs without prepack, which would rebuild dist/ under the other suites'
 * feet), packed into the folder the Install's comment names. The comment must name the file
 * `npm pack` writes: the quick starts install it by that path. Returns the folder.
 */
export function installedAsReadme(): string {
  const pack = documentedBlock("quickstart:install")
    .split("\n")
    .find((line) => line.includes("npm pack"));
  const writes = pack && /# writes (\S+)$/.exec(pack)?.[1];
  if (!writes) throw new Error("the README's Install has no `npm pack` line saying `# writes <path>`");
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "typemcp-user-"));
  const into = path.join(folder, path.dirname(writes));
  fs.mkdirSync(into, { recursive: true });
  const packed = npm(["pack", "--ignore-scripts", "--silent", "--pack-destination", into], ROOT).trim();
  if (path.join(path.dirname(writes), packed) !== path.normalize(writes))
    throw new Error(`the README's Install says npm pack writes ${writes}; it writes ${packed}`);
  return folder;
}

/**
 * A project as a documented setup makes it: `commands` (a block that makes the project's folder,
 * goes into it and installs) run as written in `folder`, then `files` written into the folder
 * the commands ended in. Returns that folder.
 */
export function followSetup(folder: string, commands: string, files: Record<string, string>): string {
  const project = runAsWritten(`${commands}\npwd`, folder).trim().split("\n").pop()!;
  if (fs.realpathSync(path.dirname(project)) !== fs.realpathSync(folder))
    throw new Error(`the setup ended in ${project}, not in a new folder of ${folder}`);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    fs.writeFileSync(path.join(project, name), text);
  }
  return project;
}

/** The README's quick start: its commands (with `packages` in place of its own, if given), its tsconfig.json and server. */
export function readmeQuickStart(folder: string, packages: string[] = []): string {
  return followSetup(folder, withPackages(documentedBlock("quickstart:project"), packages), {
    "tsconfig.json": documentedBlock("quickstart:tsconfig.json"),
    "src/server.ts": documentedBlock("quickstart:src/server.ts"),
  });
}

/** docs/typescript-7.md's quick start: its commands (with `packages` in place of its own, if given), its tsconfig.json and server. */
export function typescript7QuickStart(folder: string, packages: string[] = []): string {
  return followSetup(folder, withPackages(documentedBlock("ts7:install"), packages), {
    "tsconfig.json": documentedBlock("ts7:tsconfig.json"),
    "src/server.ts": documentedBlock("ts7:src/server.ts"),
  });
}

/** The version of a package installed in a project. */
export function installedVersion(project: string, name: string): string {
  return (
    JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")) as { version: string }
  ).version;
}
