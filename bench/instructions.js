// Instructions counted instead of seconds: typemcp against the floor per tools/call, and the
// typemcp build against plain tsc, with valgrind's callgrind. Wall-clock ratios on a shared
// machine move by more than the targets' margins from run to run; an instruction count does
// not. `node --predictable` makes V8 compile and collect garbage on the main thread, at the
// same points in every run, so a run counts the same to within a fraction of a percent.
//
//   npm run bench:instructions            (builds dist/ first; needs valgrind; ~27 minutes)
//   node bench/instructions.js [--n=500] [--warmup=30000] [--calls=20000] [--dry-run]
//
// --dry-run runs everything the count would run once, without valgrind (which it does not
// need), and counts nothing: that every run works, in seconds on a small --n.
//
// Per call: two runs of the same session that differ only in how many calls follow the
// warm-up, (count(warm-up + calls) − count(warm-up)) ÷ calls: what a call costs once the JIT
// has compiled the hot code (start-up and warm-up cancel out). Build: one fresh process per
// side, node and TypeScript included, as a `tsc` or `tspc` run would be, and the commands
// themselves (bench/commands.js). Prints a table and one line of JSON.
"use strict";
const { execFile, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { ROOT } = require("./generate");
const { prepare } = require("./servers");
const { COMMANDS, COMMAND_LABELS, buildCommands, outputRoot, commandArgs } = require("./commands");

function readSettings(argv) {
  const settings = { n: 500, warmup: 30000, calls: 20000 };
  for (const name of Object.keys(settings)) {
    const flag = argv.find((a) => a.startsWith(`--${name}=`));
    if (flag) settings[name] = Number(flag.split("=")[1]);
    if (!(settings[name] >= 1)) throw new Error(`bench: --${name} must be a positive number`);
  }
  const unknown = argv.filter(
    (a) => a !== "--dry-run" && !Object.keys(settings).some((name) => a.startsWith(`--${name}=`)),
  );
  if (unknown.length)
    throw new Error(`bench: unknown argument ${unknown.join(" ")} (--n=, --warmup=, --calls=, --dry-run)`);
  return { settings, dryRun: argv.includes("--dry-run") };
}

const log = (message) => process.stderr.write(`[instructions] ${message}\n`);

/** Instructions executed by `node --predictable <script> <args>` (all threads), from callgrind's summary; `script` from bench/ or absolute. */
function count(script, args) {
  return new Promise((resolve, reject) => {
    const command = [
      "--tool=callgrind",
      "--callgrind-out-file=/dev/null",
      process.execPath,
      "--predictable",
      path.resolve(__dirname, script),
      ...args.map(String),
    ];
    execFile("valgrind", command, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      const collected = /Collected : (\d+)/.exec(stderr);
      if (error || !collected)
        return reject(
          new Error(
            `bench: valgrind ${command.slice(2).join(" ")} failed: ${error?.message ?? ""}\n${stderr.slice(-2000)}`,
          ),
        );
      resolve(Number(collected[1]));
    });
  });
}

/** `node --predictable <script> <args>` as count() runs it, without valgrind: what a dry run checks. Counts nothing. */
function runOnce(script, args) {
  const command = ["--predictable", path.resolve(__dirname, script), ...args.map(String)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, command, { maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error)
        return reject(new Error(`bench: node ${command.join(" ")} failed: ${error.message}\n${stderr.slice(-2000)}`));
      resolve(null);
    });
  });
}

/** Runs the jobs two at a time (this machine's cores); each job is a function returning a promise. */
async function inPairs(jobs) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

async function main() {
  const { settings, dryRun } = readSettings(process.argv.slice(2));
  if (!dryRun) {
    try {
      execFileSync("valgrind", ["--version"], { stdio: "ignore" });
    } catch {
      throw new Error("bench: counting instructions needs valgrind (Debian: apt-get install valgrind)");
    }
  }
  const measure = dryRun ? runOnce : count;
  const dir = path.join(path.resolve(process.env.BENCH_DIR ?? path.join(ROOT, ".build", "bench")), `n${settings.n}`);
  log(`generating and building ${settings.n} tools in ${path.relative(ROOT, dir)}`);
  await prepare(dir, settings.n);

  const { warmup, calls } = settings;
  const session = (contender, k) => () => measure("inproc.js", ["calls", dir, contender, k]);
  const build = (side) => () => measure("build.js", [path.join(dir, "typemcp"), "once", side]);
  // The commands as a user runs them: tsc, and tspc and tsc patched for good, each with and
  // without the plugin: what ts-patch costs by itself, and what typemcp adds to it.
  const commands = buildCommands(dir);
  const outputs = outputRoot();
  const command = (name) => () => {
    const [script, ...args] = commandArgs(commands, name, outputs);
    return measure(script, args);
  };
  log(
    `${dryRun ? "dry run (nothing counted)" : "counting"}: 4 call sessions, 2 builds and ${COMMANDS.length} commands${dryRun ? "" : " under valgrind"}, two at a time`,
  );
  const jobs = [
    [`session typemcp ${warmup}`, session("typemcp", warmup)],
    [`session floor ${warmup}`, session("floor", warmup)],
    [`session typemcp ${warmup + calls}`, session("typemcp", warmup + calls)],
    [`session floor ${warmup + calls}`, session("floor", warmup + calls)],
    ["build plain", build("plain")],
    ["build typemcp", build("typemcp")],
    ...COMMANDS.map((name) => [`command ${name}`, command(name)]),
  ];
  const results = await inPairs(jobs.map(([, job]) => job)).finally(() =>
    fs.rmSync(outputs, { recursive: true, force: true }),
  );
  if (dryRun) {
    process.stdout.write(`dry run: ${jobs.length} runs completed, no instructions counted\n`);
    process.stdout.write(
      JSON.stringify({ bench: "typemcp-instructions", dry_run: true, settings, runs: jobs.map(([label]) => label) }) +
        "\n",
    );
    return;
  }
  const [typemcpShort, floorShort, typemcpLong, floorLong, plain, typemcp, ...counted] = results;
  const commandCounts = Object.fromEntries(COMMANDS.map((name, i) => [name, counted[i]]));
  const perCall = { typemcp: (typemcpLong - typemcpShort) / calls, floor: (floorLong - floorShort) / calls };
  const result = {
    call: { warmup, calls, instructions_per_call: perCall, floor_over_typemcp: perCall.floor / perCall.typemcp },
    build: { tools: settings.n, instructions: { plain, typemcp }, typemcp_over_plain: typemcp / plain },
    commands: {
      tools: settings.n,
      instructions: commandCounts,
      over_tsc: Object.fromEntries(COMMANDS.map((name) => [name, commandCounts[name] / commandCounts.tsc])),
      // What the plugin adds to the same command without it: typemcp's own share, ts-patch's apart.
      plugin_over_same_command: {
        tspc: commandCounts.tspc / commandCounts.tspc_without_plugin,
        patched: commandCounts.patched / commandCounts.patched_without_plugin,
      },
    },
    machine: { cpus: os.cpus().length, node: process.version },
  };
  const k = (n) => `${Math.round(n / 1000).toLocaleString("en-US")}k`;
  const g = (n) => `${(n / 1e9).toFixed(2)} G`;
  process.stdout.write(`## typemcp instruction counts (callgrind, node --predictable)

| measure | typemcp | reference | ratio |
|---|---|---|---|
| one tools/call in steady state, after ${warmup.toLocaleString("en-US")} calls (instructions; reference: the floor) | ${k(perCall.typemcp)} | ${k(perCall.floor)} | ${result.call.floor_over_typemcp.toFixed(3)}× the floor's throughput |
| build of ${settings.n} tools, whole process (instructions; reference: plain tsc) | ${g(typemcp)} | ${g(plain)} | ${result.build.typemcp_over_plain.toFixed(3)}× plain tsc |
${COMMANDS.filter((name) => name !== "tsc")
  .map(
    (name) =>
      `| command \`${COMMAND_LABELS[name]}\` at ${settings.n} tools (instructions; reference: \`tsc\`) | ${g(commandCounts[name])} | ${g(commandCounts.tsc)} | ${result.commands.over_tsc[name].toFixed(3)}× tsc |`,
  )
  .join("\n")}
${["tspc", "patched"].map((name) => `| the plugin alone: command \`${COMMAND_LABELS[name]}\` (reference: the same command, no plugin) | ${g(commandCounts[name])} | ${g(commandCounts[`${name}_without_plugin`])} | ${result.commands.plugin_over_same_command[name].toFixed(3)}× |`).join("\n")}

`);
  process.stdout.write(JSON.stringify({ bench: "typemcp-instructions", settings, ...result }) + "\n");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
