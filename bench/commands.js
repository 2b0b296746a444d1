// The build commands a user runs, for the benchmarks (timed in run.js, counted in
// instructions.js): `tsc`, `tspc` (ts-patch patching the compiler live, on every run), and
// `tsc` from a copy of this package's TypeScript patched for good (`ts-patch install`), each
// with the generated project's tsconfig, with and without typemcp's plugin.
"use strict";
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const COMMANDS = ["tsc", "tspc_without_plugin", "tspc", "patched_without_plugin", "patched"];
/**
 * TypeScript 7 (the native compiler, installed beside 5.9 as `typescript-7`, and 7.1 as
 * `typescript-7.1`): its tsc alone, and `typemcp build` (on 7.0 around tsc, on 7.1 in the API's
 * one process).
 */
const TS7_COMMANDS = ["tsc7", "typemcp_build7", "tsc71", "typemcp_build71"];
const COMMAND_LABELS = {
  tsc: "tsc",
  tspc_without_plugin: "tspc, no plugin",
  tspc: "tspc + typemcp",
  patched_without_plugin: "tsc patched (ts-patch install), no plugin",
  patched: "tsc patched + typemcp",
  tsc7: "TypeScript 7: tsc",
  typemcp_build7: "TypeScript 7: typemcp build",
  tsc71: "TypeScript 7.1: tsc",
  typemcp_build71: "TypeScript 7.1: typemcp build",
};
const TS7 = path.join(path.dirname(require.resolve("../package.json")), "node_modules", "typescript-7");
const TS71 = path.join(path.dirname(require.resolve("../package.json")), "node_modules", "typescript-7.1");
/** Each TypeScript 7 command's package. */
const TS7_PACKAGES = { tsc7: TS7, typemcp_build7: TS7, tsc71: TS71, typemcp_build71: TS71 };

/**
 * Each command as [script, tsconfig] for the project in `dir`/typemcp. Writes the project's
 * tsconfig without the plugin, and the patched copy of TypeScript in `dir`/patched, on the same
 * disk as the package it copies: only the patch differs.
 */
function buildCommands(dir) {
  const project = path.join(dir, "typemcp");
  const config = JSON.parse(fs.readFileSync(path.join(project, "tsconfig.json"), "utf8"));
  config.compilerOptions.plugins = [];
  fs.writeFileSync(path.join(project, "tsconfig.no-plugin.json"), JSON.stringify(config, null, 2) + "\n");
  const typescript = path.dirname(require.resolve("typescript/package.json"));
  const patched = path.join(dir, "patched", "typescript");
  fs.rmSync(patched, { recursive: true, force: true });
  fs.cpSync(typescript, patched, { recursive: true });
  const tsPatch = path.dirname(require.resolve("ts-patch/package.json"));
  execFileSync(process.execPath, [path.join(tsPatch, "bin", "ts-patch.js"), "install", "--silent", "--dir", patched], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const tsc = path.join(typescript, "bin", "tsc");
  const tspc = path.join(tsPatch, "bin", "tspc.js");
  const patchedTsc = path.join(patched, "bin", "tsc");
  const tsconfig = (name) => path.join(project, name);
  return {
    tsc: [tsc, tsconfig("tsconfig.json")],
    tspc_without_plugin: [tspc, tsconfig("tsconfig.no-plugin.json")],
    tspc: [tspc, tsconfig("tsconfig.json")],
    patched_without_plugin: [patchedTsc, tsconfig("tsconfig.no-plugin.json")],
    patched: [patchedTsc, tsconfig("tsconfig.json")],
  };
}

/**
 * A directory for the commands' output, in memory where the machine has a tmpfs: writing 500
 * files to a shared disk swings by hundreds of milliseconds, the same for every command.
 */
function outputRoot() {
  return fs.mkdtempSync(path.join(fs.existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir(), "typemcp-bench-"));
}

/** The arguments of one command's run: its script, then `-p <tsconfig> --outDir <out>/<name>`. */
function commandArgs(commands, name, out) {
  const [script, tsconfig] = commands[name];
  return [script, "-p", tsconfig, "--outDir", path.join(out, name)];
}

/**
 * One TypeScript 7 command's run, for the project in `dir`/typemcp, its output in `out`/<name>:
 * arguments for Node and the environment. `typemcp build` takes its output folder from the
 * tsconfig (written here, extending the project's without the plugin), TypeScript 7 as the
 * project's TypeScript from TYPEMCP_TYPESCRIPT.
 */
function ts7CommandRun(dir, name, out) {
  const project = path.join(dir, "typemcp");
  const outDir = path.join(out, name);
  const typescript = TS7_PACKAGES[name];
  if (name.startsWith("tsc"))
    return {
      args: [
        path.join(typescript, "bin", "tsc"),
        "-p",
        path.join(project, "tsconfig.no-plugin.json"),
        "--outDir",
        outDir,
      ],
      env: process.env,
    };
  const tsconfig = path.join(project, `tsconfig.${name}.json`);
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({ extends: "./tsconfig.no-plugin.json", compilerOptions: { outDir } }, null, 2) + "\n",
  );
  return {
    args: [path.join(__dirname, "..", "dist", "cli", "index.js"), "build", "-p", tsconfig],
    env: { ...process.env, TYPEMCP_TYPESCRIPT: typescript },
  };
}

/**
 * The TypeScript 7 commands three ways, for `--only=build7`: `node <script>` as the full bench
 * runs them; the binaries themselves (TypeScript 7's native tsc executable, typemcp's
 * dist/cli/index.js through its shebang); and through `npx`, in a folder whose
 * node_modules/.bin holds `tsc` and `typemcp` as an install puts them there.
 */
function ts7CommandWays(dir, name, out) {
  const { args, env } = ts7CommandRun(dir, name, out);
  const typescript = TS7_PACKAGES[name];
  const isTsc = name.startsWith("tsc");
  const load = require("node:module").createRequire(path.join(typescript, "package.json"));
  const exe = isTsc ? load("./lib/getExePath.js").default() : args[0];
  const npxFolder = path.join(dir, `npx-${path.basename(typescript)}`);
  const bin = path.join(npxFolder, "node_modules", ".bin");
  if (!fs.existsSync(bin)) {
    fs.mkdirSync(bin, { recursive: true });
    fs.symlinkSync(path.join(typescript, "bin", "tsc"), path.join(bin, "tsc"));
    fs.symlinkSync(path.join(__dirname, "..", "dist", "cli", "index.js"), path.join(bin, "typemcp"));
    fs.writeFileSync(path.join(npxFolder, "package.json"), '{ "name": "bench-npx", "private": true }\n');
  }
  fs.chmodSync(path.join(__dirname, "..", "dist", "cli", "index.js"), 0o755);
  return {
    node: { command: process.execPath, args, env, cwd: undefined },
    binary: { command: exe, args: args.slice(1), env, cwd: undefined },
    npx: { command: "npx", args: [isTsc ? "tsc" : "typemcp", ...args.slice(1)], env, cwd: npxFolder },
  };
}

module.exports = {
  COMMANDS,
  TS7_COMMANDS,
  COMMAND_LABELS,
  buildCommands,
  outputRoot,
  commandArgs,
  ts7CommandRun,
  ts7CommandWays,
};
