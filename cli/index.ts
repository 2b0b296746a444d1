#!/usr/bin/env node
/**
 * `typemcp`: the transformer's work without a ts-patch build.
 *
 *   typemcp manifest [tsconfig.json] [--list] [--out <file>]
 *   typemcp check [tsconfig.json] [--pretty]
 *
 * Exit status: 0 done, 1 an error was reported, 2 the command or the project could not be read.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { buildManifest, compileProject, findConfig, isError, loadProject, toolsList, UserError } from "./project";

export const USAGE = `Usage: typemcp <command> [tsconfig.json] [options]

Commands:
  manifest [tsconfig.json]   Print the contract of every tool registration of the project, as JSON
                             keyed by tool name, for mcp.tool(fn, manifest.<name>) in code built
                             without the typemcp transformer (tsc, esbuild, tsx, swc, ...).
      --list                 Print what tools/list answers instead: { "tools": [...] }
                             (run-time options such as title and annotations are not in it)
      -o, --out <file>       Write the JSON to <file> instead of stdout
  check [tsconfig.json]      Report the compiler's and typemcp's diagnostics, like tsc;
                             exit status 1 when there is an error (warnings do not fail)
      --pretty               Colors and source context, as tsc prints on a terminal

tsconfig.json: the project's tsconfig file, or a folder holding one (default: ./tsconfig.json).
  -p, --project <path> says the same.
Options: -h, --help  this message;  -v, --version  typemcp's version.
Exit status: 0 done, 1 an error was reported, 2 bad arguments or an unreadable project.
`;

const SHORT_USAGE = `Usage: typemcp manifest [tsconfig.json] [--list] [--out <file>]
       typemcp check [tsconfig.json] [--pretty]
Run typemcp --help for details.
`;

interface Arguments {
  command: "manifest" | "check";
  project?: string;
  list: boolean;
  out?: string;
  pretty: boolean;
}

class UsageError extends UserError {}

const FLAGS: Record<Arguments["command"], string[]> = {
  manifest: ["--list", "--out", "-o", "--project", "-p"],
  check: ["--pretty", "--project", "-p"],
};

function parseArguments(argv: string[]): Arguments | "help" | "version" {
  if (argv.length === 0) throw new UsageError("no command given");
  if (argv.some((a) => a === "-h" || a === "--help" || a === "help")) return "help";
  if (argv.some((a) => a === "-v" || a === "--version")) return "version";
  const [command, ...rest] = argv;
  if (command !== "manifest" && command !== "check") throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const parsed: Arguments = { command, list: false, pretty: false };
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
    if (arg.startsWith("-") && !FLAGS[command].includes(arg)) throw new UsageError(`unknown option ${arg} for ${command}`);
    if (arg === "--list") parsed.list = true;
    else if (arg === "--pretty") parsed.pretty = true;
    else if (arg === "--out" || arg === "-o") parsed.out = value();
    else if (arg === "--project" || arg === "-p") setProject(value());
    else setProject(arg);
  }
  return parsed;
}

function formatHost(): ts.FormatDiagnosticsHost {
  return { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\n" };
}

function format(diagnostics: readonly ts.Diagnostic[], pretty: boolean): string {
  return pretty ? ts.formatDiagnosticsWithColorAndContext(diagnostics, formatHost()) : ts.formatDiagnostics(diagnostics, formatHost());
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function manifest(args: Arguments): number {
  const { program, configDiagnostics } = loadProject(findConfig(args.project));
  const { contracts, diagnostics } = buildManifest(program);
  const reported = ts.sortAndDeduplicateDiagnostics([...configDiagnostics, ...diagnostics]);
  if (reported.length) process.stderr.write(format(reported, false));
  const json = `${JSON.stringify(args.list ? toolsList(contracts) : contracts, null, 2)}\n`;
  if (args.out) fs.writeFileSync(path.resolve(args.out), json);
  else process.stdout.write(json);
  return reported.some(isError) ? 1 : 0;
}

function check(args: Arguments): number {
  const { program, configDiagnostics } = loadProject(findConfig(args.project));
  const registrations = compileProject(program);
  const typemcp = registrations.flatMap((r) => r.diagnostics);
  const compiler = ts.getPreEmitDiagnostics(program);
  const all = ts.sortAndDeduplicateDiagnostics([...configDiagnostics, ...compiler, ...typemcp]);
  const pretty = args.pretty || (process.stdout.isTTY === true && program.getCompilerOptions().pretty !== false);
  const errors = all.filter(isError).length;
  const warnings = all.filter((d) => d.category === ts.DiagnosticCategory.Warning).length;
  let output = all.length ? format(all, pretty) : "";
  if (pretty && all.length) output += "\n";
  output += `${plural(registrations.length, "tool registration")} checked: ${errors ? plural(errors, "error") : "no errors"}, ${plural(warnings, "warning")}.\n`;
  process.stdout.write(output);
  return errors ? 1 : 0;
}

function version(): string {
  return (JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8")) as { version: string }).version;
}

export function main(argv: string[]): number {
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
    return args.command === "manifest" ? manifest(args) : check(args);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`typemcp: ${error.message}\n${SHORT_USAGE}`);
      return 2;
    }
    if (error instanceof UserError) {
      process.stderr.write(`typemcp: ${error.message}\n`);
      return 2;
    }
    const detail = error instanceof Error ? error.stack ?? error.message : String(error);
    process.stderr.write(`typemcp: unexpected failure (please report it): ${detail}\n`);
    return 2;
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
