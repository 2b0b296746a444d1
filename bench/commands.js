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
/** TypeScript 7 (the native compiler, installed beside 5.9 as `typescript-7`): its tsc alone, and `typemcp build` around it. */
const TS7_COMMANDS = ["tsc7", "typemcp_build7"];
const COMMAND_LABELS = {
  tsc: "tsc",
  tspc_without_plugin: "tspc, no plugin",
  tspc: "tspc + typemcp",
  patched_without_plugin: "tsc patched (ts-patch install), no plugin",
  patched: "tsc patched + typemcp",
  tsc7: "TypeScript 7: tsc",
  typemcp_build7: "TypeScript 7: typemcp build",
};
const TS7 = path.join(path.dirname(require.resolve("../package.json")), "node_modules", "typescript-7");

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
  if (name === "tsc7")
    return {
      args: [path.join(TS7, "bin", "tsc"), "-p", path.join(project, "tsconfig.no-plugin.json"), "--outDir", outDir],
      env: process.env,
    };
  const tsconfig = path.join(project, "tsconfig.ts7.json");
  fs.writeFileSync(
    tsconfig,
    JSON.stringify({ extends: "./tsconfig.no-plugin.json", compilerOptions: { outDir } }, null, 2) + "\n",
  );
  return {
    args: [path.join(__dirname, "..", "dist", "cli", "index.js"), "build", "-p", tsconfig],
    env: { ...process.env, TYPEMCP_TYPESCRIPT: TS7 },
  };
}

module.exports = { COMMANDS, TS7_COMMANDS, COMMAND_LABELS, buildCommands, outputRoot, commandArgs, ts7CommandRun };
