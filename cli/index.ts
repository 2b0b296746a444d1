#!/usr/bin/env node
/**
 * `typemcp`: builds and checks typemcp servers with the project's own TypeScript.
 *
 *   typemcp build [tsconfig.json] [--watch]
 *   typemcp check [tsconfig.json] [--pretty] [--watch]
 *   typemcp manifest [tsconfig.json] [--list] [--out <file>]
 *   typemcp doctor [tsconfig.json]
 *
 * Exit status: 0 done, 1 an error was reported, 2 the command or the project could not be read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DiagnosticCategory } from "../transformer/checker/flags";
import { supportedTypeScript, UnsupportedTypeScript } from "../transformer/typescript";
import {
  formatDiagnostics,
  formatDiagnosticsWithColorAndContext,
  sortAndDeduplicate,
  type Reported,
} from "../transformer/format";
import type { RegistrationKind } from "../transformer/registration";
import { buildManifest, findConfig, isError, listsOf } from "./project";
import { UserError, type Session } from "../transformer/session";
import { watchProject } from "./watch";

export const USAGE = `Usage: typemcp <command> [tsconfig.json] [options]

Commands:
  build [tsconfig.json]      Build the project with its TypeScript, every tool's schemas written into
                             the emitted JavaScript (TypeScript 7: its own compiler, tsc; TypeScript 5
                             and 6: the compiler API with typemcp's transformer, as tspc builds it).
                             Prints the compiler's diagnostics and typemcp's, like tsc; exit status 1
                             when there is an error (warnings do not fail)
      -w, --watch            Build again whenever a file of the project changes
  check [tsconfig.json]      Report the compiler's and typemcp's diagnostics, like tsc;
                             exit status 1 when there is an error (warnings do not fail)
      --pretty               Colors and source context, as tsc prints on a terminal
      -w, --watch            Check again whenever a file of the project changes
  manifest [tsconfig.json]   Print the contract of every registration of the project, as JSON:
                             { "tools", "prompts", "resources" }, keyed by tool name, prompt name
                             and resource URI, for mcp.tool(fn, manifest.tools.<name>) in code
                             built without typemcp (esbuild, tsx, swc, ...).
      --list                 Print what tools/list, prompts/list, resources/list and
                             resources/templates/list answer instead: { "tools": [...],
                             "prompts": [...], "resources": [...], "resourceTemplates": [...] }
                             (run-time options such as title and annotations are not in it)
      -o, --out <file>       Write the JSON to <file> instead of stdout
  doctor [tsconfig.json]     Say, in one line, which command builds the project with the TypeScript
                             (and ts-patch) it has installed: npx tspc cannot build on TypeScript 7;
                             exit status 1 when the project is set up to build without the schemas

tsconfig.json: the project's tsconfig file, or a folder holding one (default: ./tsconfig.json).
  -p, --project <path> says the same.
TypeScript: the project's own (typescript 5, 6 or 7); TYPEMCP_TYPESCRIPT=<folder> picks another.
Options: -h, --help  this message;  -v, --version  typemcp's version.
Exit status: 0 done, 1 an error was reported, 2 bad arguments or an unreadable project.
`;

const SHORT_USAGE = `Usage: typemcp build [tsconfig.json] [--watch]
       typemcp check [tsconfig.json] [--pretty] [--watch]
       typemcp manifest [tsconfig.json] [--list] [--out <file>]
       typemcp doctor [tsconfig.json]
Run typemcp --help for details.
`;

const COMMANDS = ["build", "check", "manifest", "doctor"] as const;

interface Arguments {
  command: (typeof COMMANDS)[number];
  project?: string;
  list: boolean;
  out?: string;
  pretty: boolean;
  watch: boolean;
}

class UsageError extends UserError {}

const FLAGS: Record<Arguments["command"], string[]> = {
  build: ["--watch", "-w", "--project", "-p"],
  check: ["--pretty", "--watch", "-w", "--project", "-p"],
  manifest: ["--list", "--out", "-o", "--project", "-p"],
  doctor: ["--project", "-p"],
};

function parseArguments(argv: string[]): Arguments | "help" | "version" {
  if (argv.length === 0) throw new UsageError("no command given");
  if (argv.some((a) => a === "-h" || a === "--help" || a === "help")) return "help";
  if (argv.some((a) => a === "-v" || a === "--version")) return "version";
  const [command, ...rest] = argv;
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const parsed: Arguments = { command: command as Arguments["command"], list: false, pretty: false, watch: false };
  const setProject = (value: string) => {
    if (parsed.project !== undefined) throw new UsageError("more than one tsconfig.json given");
    parsed.project = value;
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const value = () => {
      const next = rest[++i];
      if (next === undefined || next.startsWith("-")) throw new UsageError(`${arg} needs a value`);
      return next;
    };
    if (arg.startsWith("-") && !FLAGS[parsed.command].includes(arg))
      throw new UsageError(`unknown option ${arg} for ${command}`);
    if (arg === "--list") parsed.list = true;
    else if (arg === "--pretty") parsed.pretty = true;
    else if (arg === "--watch" || arg === "-w") parsed.watch = true;
    else if (arg === "--out" || arg === "-o") parsed.out = value();
    else if (arg === "--project" || arg === "-p") setProject(value());
    else setProject(arg);
  }
  return parsed;
}

function format(diagnostics: readonly Reported[], pretty: boolean): string {
  return pretty ? formatDiagnosticsWithColorAndContext(diagnostics) : formatDiagnostics(diagnostics);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * The project, opened with its TypeScript: TypeScript 7 through its API, 5 and 6 in-process.
 * `emit`: for `build` (on TypeScript 7.1 and later, the API then emits too: transformer/ts7/emit.ts).
 */
function openSession(configFile: string, emit = false): Session {
  const typescript = supportedTypeScript(path.dirname(configFile));
  if (typescript.backend === "ts7") {
    const { Ts7Session } = require("../transformer/ts7/session") as typeof import("../transformer/ts7/session");
    return new Ts7Session(configFile, typescript.directory, { emit });
  }
  const { Ts5Session } = require("../transformer/ts5/session") as typeof import("../transformer/ts5/session");
  return new Ts5Session(configFile);
}

/** Pretty output as tsc chooses it: asked for, or a terminal unless the project says `"pretty": false`. */
function prettyFor(session: Session, asked: boolean): boolean {
  return asked || (process.stdout.isTTY === true && session.compilerOptions.pretty !== false);
}

async function manifest(args: Arguments): Promise<number> {
  const session = openSession(findConfig(args.project));
  try {
    const { manifest, diagnostics } = buildManifest(session.compileProject());
    // Forms belong to their calls, not to the manifest; their errors are the build's all the same.
    const forms = session.compileForms().flatMap((f) => f.diagnostics);
    const reported = sortAndDeduplicate<Reported>([...session.configDiagnostics, ...diagnostics, ...forms]);
    if (reported.length) process.stderr.write(format(reported, false));
    const json = `${JSON.stringify(args.list ? listsOf(manifest) : manifest, null, 2)}\n`;
    if (args.out) fs.writeFileSync(path.resolve(args.out), json);
    else process.stdout.write(json);
    return reported.some(isError) ? 1 : 0;
  } finally {
    await session.close();
  }
}

/**
 * How many registrations, by kind: `2 tool registrations` when they are all of one kind,
 * `3 registrations (2 tools, 1 prompt)` when they are not.
 */
function registrationCount(kinds: readonly RegistrationKind[]): string {
  const counts = (["tool", "prompt", "resource"] as const)
    .map((kind) => ({ kind, count: kinds.filter((k) => k === kind).length }))
    .filter(({ count }) => count > 0);
  if (counts.length === 0) return "0 registrations";
  if (counts.length === 1) return plural(counts[0].count, `${counts[0].kind} registration`);
  return `${plural(kinds.length, "registration")} (${counts.map(({ kind, count }) => plural(count, kind)).join(", ")})`;
}

/** Diagnostics, then the summary line, on stdout; with `--pretty`, a blank line between them, as tsc leaves one. */
function printReport(diagnostics: readonly Reported[], pretty: boolean, summaryLine: string): void {
  let output = diagnostics.length ? format(diagnostics, pretty) : "";
  if (pretty && diagnostics.length) output += "\n";
  process.stdout.write(output + summaryLine);
}

/**
 * What `check` and `build` print after the diagnostics: how many registrations of each kind,
 * errors (the compiler's and typemcp's: `compilerErrors` counts those given only as tsc's
 * printed output), warnings.
 */
function summary(
  kinds: readonly RegistrationKind[],
  verb: string,
  diagnostics: readonly Reported[],
  compilerErrors = 0,
): string {
  const errors = diagnostics.filter(isError).length + compilerErrors;
  const warnings = diagnostics.filter((d) => d.category === DiagnosticCategory.Warning).length;
  return `${registrationCount(kinds)} ${verb}: ${errors ? plural(errors, "error") : "no errors"}, ${plural(warnings, "warning")}.\n`;
}

function checkOnce(session: Session, args: Arguments): number {
  const registrations = session.compileProject();
  const typemcp = [...registrations, ...session.compileForms()].flatMap((r) => r.diagnostics);
  const all = sortAndDeduplicate<Reported>([
    ...session.configDiagnostics,
    ...session.compilerDiagnostics(),
    ...typemcp,
  ]);
  const pretty = prettyFor(session, args.pretty);
  printReport(
    all,
    pretty,
    summary(
      registrations.map((r) => r.registration.registers),
      "checked",
      all,
    ),
  );
  return all.some(isError) ? 1 : 0;
}

async function buildOnce(session: Session): Promise<number> {
  const pretty = prettyFor(session, false);
  const built = await session.build(pretty);
  // The compiler's output first, whatever happened after it ran.
  process.stdout.write(built.compilerOutput);
  if (built.failure) throw built.failure.error;
  const reported = sortAndDeduplicate<Reported>(built.diagnostics);
  printReport(reported, pretty, summary(built.registrations, "built", reported, built.compilerErrors));
  return built.compilerFailed || reported.some(isError) ? 1 : 0;
}

function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string })
    .version;
}

/** `typemcp doctor`: the project's build command, in one line. */
function doctor(args: Arguments): number {
  const configFile = findConfig(args.project);
  const typescript = supportedTypeScript(path.dirname(configFile));
  const { diagnose, pluginsOf } = require("./doctor") as typeof import("./doctor");
  const { line, ok } = diagnose(
    typescript,
    path.dirname(configFile),
    typescript.backend === "ts5" ? pluginsOf(configFile) : undefined,
  );
  process.stdout.write(`${line}\n`);
  return ok ? 0 : 1;
}

async function run(args: Arguments): Promise<number> {
  if (args.command === "manifest") return manifest(args);
  if (args.command === "doctor") return doctor(args);
  const configFile = findConfig(args.project);
  const session = openSession(configFile, args.command === "build");
  const once = () => (args.command === "check" ? checkOnce(session, args) : buildOnce(session));
  if (args.watch) return watchProject(session, configFile, once, args.command === "check" ? "checking" : "building");
  try {
    return await once();
  } finally {
    await session.close();
  }
}

function report(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`typemcp: ${error.message}\n${SHORT_USAGE}`);
    return 2;
  }
  if (error instanceof UserError || error instanceof UnsupportedTypeScript) {
    process.stderr.write(`typemcp: ${error.message}\n`);
    return 2;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`typemcp: unexpected failure (please report it): ${detail}\n`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  try {
    const args = parseArguments(argv);
    if (args === "help") {
      process.stdout.write(USAGE);
      return 0;
    }
    if (args === "version") {
      process.stdout.write(`${version()}\n`);
      return 0;
    }
    return await run(args);
  } catch (error) {
    return report(error);
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
