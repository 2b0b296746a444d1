// Instructions counted instead of seconds: typemcp against the floor per tools/call, and the
// typemcp build against plain tsc, with valgrind's callgrind. Wall-clock ratios on a shared
// machine move by more than the targets' margins from run to run; an instruction count does
// not. `node --predictable` makes V8 compile and collect garbage on the main thread, at the
// same points in every run, so a run counts the same to within a fraction of a percent.
//
//   npm run bench:instructions            (builds dist/ first; needs valgrind; ~27 minutes)
//   node bench/instructions.js [--n=500] [--warmup=30000] [--calls=20000] [--dry-run]
//   node bench/instructions.js --per-call [--shapes=1] [--n=500] [--warmup=] [--calls=] [--dry-run]
//       where a tools/call's instructions go, on both revisions (see perCallBreakdown)
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
const { prepare, prepareTools, REVISIONS } = require("./servers");
const { VARIANTS } = require("./breakdown");
const { COMMANDS, COMMAND_LABELS, buildCommands, outputRoot, commandArgs } = require("./commands");

function readSettings(argv) {
  const settings = { n: 500, warmup: 30000, calls: 20000 };
  const perCall = argv.includes("--per-call");
  // --per-call: the project of one shape by default (get_weather's, bench/generate.js), --shapes=8 for all.
  if (perCall) settings.shapes = 1;
  for (const name of Object.keys(settings)) {
    const flag = argv.find((a) => a.startsWith(`--${name}=`));
    if (flag) settings[name] = Number(flag.split("=")[1]);
    if (!(settings[name] >= 1)) throw new Error(`bench: --${name} must be a positive number`);
  }
  const unknown = argv.filter(
    (a) => a !== "--dry-run" && a !== "--per-call" && !Object.keys(settings).some((name) => a.startsWith(`--${name}=`)),
  );
  if (unknown.length)
    throw new Error(
      `bench: unknown argument ${unknown.join(" ")} (--n=, --warmup=, --calls=, --dry-run, --per-call [--shapes=])`,
    );
  return { settings, dryRun: argv.includes("--dry-run"), perCall };
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

/**
 * Where a tools/call's instructions go, on both protocol revisions: per call in steady state,
 * typemcp, the floor and McpServer+Zod, and typemcp with its steps stubbed one after the other
 * (bench/breakdown.js), so that each step's cost is the difference between two counts; and a
 * fresh process's first call (the process that opens the connection and calls once, minus the
 * one that only opens it). Sessions of `warmup` and `warmup + calls` calls, as for the build.
 */
async function perCallBreakdown(settings, dryRun, measure) {
  const dir = path.join(
    path.resolve(process.env.BENCH_DIR ?? path.join(ROOT, ".build", "bench")),
    `calls-n${settings.n}-s${settings.shapes}`,
  );
  log(`generating and building ${settings.n} tools of ${settings.shapes} shape(s) in ${path.relative(ROOT, dir)}`);
  await prepareTools(dir, settings.n, settings.shapes);
  const { warmup, calls } = settings;
  const jobs = [];
  for (const revision of REVISIONS) {
    for (const contender of ["typemcp", "floor", "zod"])
      for (const k of [warmup, warmup + calls])
        jobs.push([
          `${revision} ${contender} ${k}`,
          () => measure("inproc.js", ["calls", dir, contender, k, revision]),
        ]);
    for (const variant of VARIANTS.slice(1))
      for (const k of [warmup, warmup + calls])
        jobs.push([`${revision} typemcp ${variant} ${k}`, () => measure("breakdown.js", [dir, variant, revision, k])]);
    for (const contender of ["typemcp", "floor", "zod"])
      for (const call of ["", "call"])
        jobs.push([
          `${revision} ${contender} open${call && " + first call"}`,
          () => measure("inproc.js", ["first", dir, contender, revision, call]),
        ]);
  }
  log(`${dryRun ? "dry run (nothing counted)" : "counting"}: ${jobs.length} runs, two at a time`);
  const results = await inPairs(jobs.map(([, job]) => job));
  if (dryRun) {
    process.stdout.write(`dry run: ${jobs.length} runs completed, no instructions counted\n`);
    process.stdout.write(
      JSON.stringify({ bench: "typemcp-instructions", dry_run: true, settings, runs: jobs.map(([label]) => label) }) +
        "\n",
    );
    return;
  }
  const counted = Object.fromEntries(jobs.map(([label], i) => [label, results[i]]));
  const perCall = (revision, name) =>
    (counted[`${revision} ${name} ${warmup + calls}`] - counted[`${revision} ${name} ${warmup}`]) / calls;
  const revisions = Object.fromEntries(
    REVISIONS.map((revision) => {
      const per = {
        typemcp: perCall(revision, "typemcp"),
        floor: perCall(revision, "floor"),
        zod: perCall(revision, "zod"),
        ...Object.fromEntries(VARIANTS.slice(1).map((v) => [`typemcp ${v}`, perCall(revision, `typemcp ${v}`)])),
      };
      const first = (c) => counted[`${revision} ${c} open + first call`] - counted[`${revision} ${c} open`];
      return [
        revision,
        {
          instructions_per_call: per,
          floor_over_typemcp: per.floor / per.typemcp,
          zod_over_typemcp: per.zod / per.typemcp,
          // Each step: the count with it, minus the count with it stubbed (the floor's work in its place).
          steps: {
            arguments_check: per.typemcp - per["typemcp no-args"],
            result_check_and_wire_copy: per["typemcp no-args"] - per["typemcp no-result"],
            call_bookkeeping: per["typemcp no-result"] - per["typemcp bare"],
            instance_and_sdk_over_floor: per["typemcp bare"] - per.floor,
          },
          first_call_instructions: { typemcp: first("typemcp"), floor: first("floor"), zod: first("zod") },
        },
      ];
    }),
  );
  const k = (n) => `${(n / 1000).toFixed(1)}k`;
  const m = (n) => `${(n / 1e6).toFixed(2)} M`;
  const rows = REVISIONS.flatMap((revision) => {
    const r = revisions[revision];
    const p = r.instructions_per_call;
    return [
      `| ${revision}: one tools/call, steady state | ${k(p.typemcp)} | ${k(p.floor)} | ${k(p.zod)} | ${r.floor_over_typemcp.toFixed(3)}× the floor's throughput, ${r.zod_over_typemcp.toFixed(3)}× McpServer's |`,
      `| ${revision}: typemcp's arguments check | ${k(r.steps.arguments_check)} | | | |`,
      `| ${revision}: typemcp's result check and wire copy | ${k(r.steps.result_check_and_wire_copy)} | | | |`,
      `| ${revision}: typemcp's call steps besides (dispatch to the function, content, answer) | ${k(r.steps.call_bookkeeping)} | | | |`,
      `| ${revision}: the rest over the floor (instance handler, params schema, bookkeeping) | ${k(r.steps.instance_and_sdk_over_floor)} | | | |`,
      `| ${revision}: a fresh process's first call | ${m(r.first_call_instructions.typemcp)} | ${m(r.first_call_instructions.floor)} | ${m(r.first_call_instructions.zod)} | ${m(r.first_call_instructions.typemcp - r.first_call_instructions.floor)} over the floor |`,
    ];
  });
  process.stdout.write(`## Where a tools/call's instructions go (callgrind, node --predictable)

${settings.n} tools of ${settings.shapes} shape(s); per call: sessions of ${warmup.toLocaleString("en-US")} and ${(warmup + calls).toLocaleString("en-US")} calls, the difference ÷ ${calls.toLocaleString("en-US")}.

| measure | typemcp | floor | McpServer+Zod | |
|---|---|---|---|---|
${rows.join("\n")}

`);
  process.stdout.write(
    JSON.stringify({
      bench: "typemcp-instructions",
      per_call: true,
      settings,
      revisions,
      machine: { cpus: os.cpus().length, node: process.version },
    }) + "\n",
  );
}

async function main() {
  const { settings, dryRun, perCall: breakdown } = readSettings(process.argv.slice(2));
  if (!dryRun) {
    try {
      execFileSync("valgrind", ["--version"], { stdio: "ignore" });
    } catch {
      throw new Error("bench: counting instructions needs valgrind (Debian: apt-get install valgrind)");
    }
  }
  const measure = dryRun ? runOnce : count;
  if (breakdown) return perCallBreakdown(settings, dryRun, measure);
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
