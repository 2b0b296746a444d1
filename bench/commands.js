// The build commands a user runs, for the benchmarks (timed in run.js, counted in
// instructions.js): `tsc`, `tspc` (ts-patch patching the compiler live, on every run), and
// `tsc` from a copy of this package's TypeScript patched for good (`ts-patch install`), each
// with the generated project's tsconfig, with and without typemcp's plugin.
//
// Run alone, it times those commands at several project sizes, by the clock and in CPU time:
//   node bench/commands.js [--sizes=50,500,2000] [--rounds=5]     (builds dist/ first: npm run build)
// CPU time (user + system of each command's process) is what a loaded machine disturbs least:
// a build is one busy thread, so waiting for a core adds to its wall time, not to its CPU time.
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

/**
 * CPU time (ms, user + system) of the child processes waited for so far, from /proc (Linux):
 * Node gives only its own. Undefined where there is no /proc.
 */
function childrenCpuMs() {
  let stat;
  try {
    stat = fs.readFileSync("/proc/self/stat", "utf8");
  } catch {
    return undefined;
  }
  // After the command name in parentheses: fields 3 on; cutime and cstime are fields 16 and 17, in clock ticks.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}

/**
 * Times the five ts-patch commands at each size: `rounds` alternating rounds after an untimed
 * one (ts-patch patches the compiler into its cache on its first run; the files come into the
 * page cache), best of the rounds per command, by the clock and in CPU time. Returns one row
 * per size.
 */
function measureSizes(sizes, rounds, base) {
  const { generate } = require("./generate");
  const outputs = outputRoot();
  try {
    return sizes.map((n) => {
      const dir = path.join(base, `n${n}`);
      generate(dir, n);
      const commands = buildCommands(dir);
      const run = (name) => {
        const cpu = childrenCpuMs();
        const started = performance.now();
        execFileSync(process.execPath, commandArgs(commands, name, outputs), {
          stdio: ["ignore", "ignore", "inherit"],
        });
        return { wall: performance.now() - started, cpu: cpu === undefined ? NaN : childrenCpuMs() - cpu };
      };
      const times = Object.fromEntries(COMMANDS.map((name) => [name, []]));
      const load = [os.loadavg()[0]];
      for (const name of COMMANDS) run(name);
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 ? [...COMMANDS].reverse() : COMMANDS;
        for (const name of order) times[name].push(run(name));
        process.stderr.write(`[commands] ${n} tools: round ${round + 1} of ${rounds}\n`);
      }
      load.push(os.loadavg()[0]);
      const best = (measure) =>
        Object.fromEntries(COMMANDS.map((name) => [name, Math.min(...times[name].map((t) => t[measure]))]));
      const wall = best("wall");
      const cpu = best("cpu");
      const ratios = (b) => ({
        tspc_over_tsc: b.tspc_without_plugin / b.tsc,
        plugin_over_tspc: b.tspc / b.tspc_without_plugin,
        plugin_over_patched: b.patched / b.patched_without_plugin,
      });
      return { tools: n, wall_ms: wall, cpu_ms: cpu, wall: ratios(wall), cpu: ratios(cpu), load_average: load };
    });
  } finally {
    fs.rmSync(outputs, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const flag = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
  const sizes = flag("sizes", "50,500,2000").split(",").map(Number);
  const rounds = Number(flag("rounds", "5"));
  if (!sizes.every((n) => n >= 1) || !(rounds >= 1))
    throw new Error("usage: node bench/commands.js [--sizes=50,500,2000] [--rounds=5]");
  const base = path.resolve(process.env.BENCH_DIR ?? path.join(__dirname, "..", ".build", "bench"), "commands");
  const rows = measureSizes(sizes, rounds, base);
  const f = (x) => x.toFixed(3);
  const lines = [
    `${os.cpus().length} CPUs, node ${process.version}; best of ${rounds} round(s); ms by the clock / CPU ms`,
    "",
    "| tools | tsc | tspc, no plugin | tspc + typemcp | patched, no plugin | patched + typemcp | plugin ÷ tspc (clock / CPU) | plugin ÷ patched (clock / CPU) | load average (before, after) |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.tools} | ${COMMANDS.map((c) => `${Math.round(r.wall_ms[c])} / ${Math.round(r.cpu_ms[c])}`).join(" | ")} | ${f(r.wall.plugin_over_tspc)}× / ${f(r.cpu.plugin_over_tspc)}× | ${f(r.wall.plugin_over_patched)}× / ${f(r.cpu.plugin_over_patched)}× | ${r.load_average.map((l) => l.toFixed(1)).join(", ")} |`,
    ),
  ];
  process.stdout.write(lines.join("\n") + "\n" + JSON.stringify(rows) + "\n");
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
