/**
 * Compiles one batch of generated types (test/support/type-arbitraries.ts) with the
 * transformer, in one program, and pairs each tool with what the build said of it: the contract
 * emitted into its registration, and typemcp's diagnostics located inside its declaration.
 */
import * as ts from "typescript";
import { createTransformer, DiagnosticCode } from "typemcp/transformer";
import { CONTRACT_VERSION, type JsonSchema, type ToolContract } from "typemcp";
import { dateReviver } from "../../runtime/dates";
import { CONTRACT_TEXT, emittedRegistrations, schemaProblems } from "./emitted-contracts";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT, tscCompilerHost } from "./build";
import { withTypemcpFromSources } from "./package-types";
import { snippetOptions } from "./snippets";
import { typeBatchSource, type GeneratedType, type TypeCase } from "./type-arbitraries";

export interface ToolOutcome {
  fn: string;
  /** The contract the transformer emitted into the registration; undefined when none was. */
  contract?: ToolContract;
  /** The emitted contract argument's text. */
  text: string;
  /** typemcp's diagnostics that lie in the tool's function declaration or its registration. */
  diagnostics: ts.Diagnostic[];
}

export interface BatchResult {
  source: string;
  cases: (TypeCase & { in: ToolOutcome; out: ToolOutcome })[];
  /** The compiler's own diagnostics on the batch module, formatted. */
  compilerErrors: string[];
  /** How many of the compiler's diagnostics are TS2589, "Type instantiation is excessively deep and possibly infinite". */
  capped: number;
  /** Every diagnostic typemcp reported. */
  diagnostics: ts.Diagnostic[];
  /** Milliseconds to type-check, transform and emit the batch. */
  ms: number;
}

const INSTANTIATION_EXCESSIVELY_DEEP = 2589;

/** Declaration files (lib, node_modules) parsed once for every batch: each batch's program only parses its own module. */
const declarationFiles = new Map<string, ts.SourceFile | undefined>();

/** The batch module as `.build/snippets/<folder>/batch.ts`, in a program with the snippets' options. */
export function batchProgram(folder: string, source: string, options: ts.CompilerOptions = {}): ts.Program {
  const dir = path.join(ROOT, ".build", "snippets", folder);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "batch.ts");
  fs.writeFileSync(file, source);
  const compilerOptions = snippetOptions(dir, options);
  const host = withTypemcpFromSources(tscCompilerHost(compilerOptions), compilerOptions);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.endsWith(".d.ts")) return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    const key = `${fileName}|${JSON.stringify(languageVersion)}`;
    if (!declarationFiles.has(key))
      declarationFiles.set(key, getSourceFile(fileName, languageVersion, onError, shouldCreate));
    return declarationFiles.get(key);
  };
  return ts.createProgram([file], compilerOptions, host);
}

export function compileTypeBatch(
  folder: string,
  types: readonly GeneratedType[],
  firstIndex = 0,
  options: ts.CompilerOptions = {},
): BatchResult {
  const { source, cases } = typeBatchSource(types, firstIndex);
  const started = Date.now();
  const program = batchProgram(folder, source, options);
  const file = program.getSourceFiles().find((f) => f.fileName.endsWith("/batch.ts"))!;
  const all = ts.getPreEmitDiagnostics(program, file);
  // TypeScript capping its own instantiation (`Deep<T>` of a recursive T) is TypeScript's answer, not the generator's mistake.
  const capped = all.filter((d) => d.code === INSTANTIATION_EXCESSIVELY_DEEP).length;
  const compilerErrors = all
    .filter((d) => d.code !== INSTANTIATION_EXCESSIVELY_DEEP)
    .map((d) => {
      const at =
        d.file && d.start !== undefined
          ? d.file.text.slice(Math.max(0, d.start - 60), d.start + 60).replace(/\s+/g, " ")
          : "";
      return `${ts.flattenDiagnosticMessageText(d.messageText, "\n")} at: ${at}`;
    });
  const diagnostics: ts.Diagnostic[] = [];
  let js = "";
  program.emit(
    file,
    (name, text) => {
      if (name.endsWith(".js")) js = text;
    },
    undefined,
    false,
    { before: [createTransformer(program, { addDiagnostic: (d) => diagnostics.push(d) })] },
  );
  const ms = Date.now() - started;

  // Where each tool is declared and registered, in the source: its diagnostics lie there.
  const spans = new Map<string, [number, number][]>();
  const addSpan = (name: string, node: ts.Node) =>
    spans.set(name, [...(spans.get(name) ?? []), [node.getStart(file), node.getEnd()]]);
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) addSpan(statement.name.text, statement);
    if (ts.isExpressionStatement(statement) && ts.isCallExpression(statement.expression))
      addSpan(statement.expression.arguments[0].getText(file), statement);
  }
  const registrations = new Map(emittedRegistrations(js).map((r) => [r.fn, r]));
  const outcome = (fn: string): ToolOutcome => {
    const registration = registrations.get(fn);
    const located = diagnostics.filter(
      (d) =>
        d.file === file &&
        d.start !== undefined &&
        (spans.get(fn) ?? []).some(([from, to]) => d.start! >= from && d.start! < to),
    );
    return { fn, contract: registration?.contract, text: registration?.text ?? "", diagnostics: located };
  };
  return {
    source,
    cases: cases.map((c) => ({ ...c, in: outcome(c.input), out: outcome(c.output) })),
    compilerErrors,
    capped,
    diagnostics,
    ms,
  };
}

export { DiagnosticCode };

/** What the build gave one tool: valid schemas, or a located diagnostic — or why it gave neither properly. */
export type Verdict =
  | { kind: "schema"; inputSchema: JsonSchema; outputSchema?: JsonSchema }
  | { kind: "diagnostic"; messages: string[] }
  | { kind: "failure"; why: string };

/**
 * The verdict on one tool whose type is the parameter (`input`) or the return type (`output`,
 * registered with `structuredOutput: true`, so it must have an output schema or an error).
 */
export function verdictOf(outcome: ToolOutcome, direction: "input" | "output", overloaded = false): Verdict {
  const failure = (why: string): Verdict => ({ kind: "failure", why });
  const { contract, diagnostics } = outcome;
  if (!contract) return failure("no contract was emitted into the registration");
  if (contract.v !== CONTRACT_VERSION || !CONTRACT_TEXT.test(outcome.text))
    return failure(
      `the emitted contract is not JSON.parse('{"v":${CONTRACT_VERSION},...}'): ${outcome.text.slice(0, 80)}`,
    );
  for (const d of diagnostics) {
    if (d.code === DiagnosticCode.InternalError)
      return failure(`TS93099: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").slice(0, 2000)}`);
    if (!d.file || d.start === undefined || d.length === undefined || d.start + d.length > d.file.text.length)
      return failure("a diagnostic without a location");
  }
  if (contract.error !== undefined) {
    if (!diagnostics.some((d) => d.category === ts.DiagnosticCategory.Error))
      return failure(
        `the contract carries an error but no error diagnostic lies in the tool's declaration: ${contract.error}`,
      );
    if (overloaded && !diagnostics.some((d) => d.code === DiagnosticCode.InvalidRegistration))
      return failure("an overloaded function was not refused");
    return {
      kind: "diagnostic",
      messages: diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    };
  }
  if (overloaded) return failure("an overloaded function got a contract without an error");
  if (direction === "output" && !contract.outputSchema)
    return failure("structuredOutput: true, no output schema, and no error");
  const schemas =
    direction === "input"
      ? { inputSchema: contract.inputSchema }
      : { inputSchema: contract.inputSchema, outputSchema: contract.outputSchema };
  for (const [name, schema] of Object.entries(schemas)) {
    const problems = schemaProblems(schema);
    if (problems.length)
      return failure(
        `${name} is not a valid schema:\n    ${problems.slice(0, 5).join("\n    ")}\n  ${JSON.stringify(schema).slice(0, 1500)}`,
      );
  }
  if (contract.dates) {
    try {
      dateReviver(contract.dates);
    } catch (error) {
      return failure(`the runtime cannot follow its Date plan: ${(error as Error).message}`);
    }
  }
  return { kind: "schema", inputSchema: contract.inputSchema, outputSchema: contract.outputSchema };
}
