/**
 * The TypeScript oracle: does TypeScript accept a JSON value as a value of a fixture's type?
 *
 * For a batch of (type, value) pairs it writes one file, `const v<i>: Wire<T> = <value>;` per
 * pair (Wire<T>: the JSON form of T, test/support/wire-type.ts), builds it with the type
 * fixtures in one program, and maps the diagnostics back to the statements by position.
 * An object literal is checked exactly (excess properties are errors), as typemcp's object
 * schemas are.
 *
 * What no TypeScript type can say, a tag says (`Integer`, a Date's date-time string), as in
 * typemcp's own tag types: where the checker says that a literal's contextual type is tagged,
 * the literal must also satisfy the tag's keywords (`1.5` is no `Integer`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { TAG_PROPERTY } from "../../contract/contract";
import { ROOT } from "./build";
import { withTypemcpFromSources } from "./package-types";
import type { EchoTool, FixtureModule } from "./type-fixtures";

export const ORACLE_DIR = path.join(ROOT, ".build", "oracle");
const WIRE_TYPE = path.join(ROOT, "test", "support", "wire-type");

export interface Judgement {
  accepted: boolean;
  /** Why TypeScript refused it (the first diagnostic, or the tag the value misses). */
  reason?: string;
}

export interface OracleCase {
  tool: EchoTool;
  value: unknown;
}

/** A JSON value as a TypeScript expression on one line (U+2028 and U+2029 end lines in TypeScript). */
export function literal(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function importPath(from: string, to: string): string {
  const relative = path.relative(from, to).split(path.sep).join("/").replace(/\.ts$/, "");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.Node16,
  moduleResolution: ts.ModuleResolutionKind.Node16,
  lib: ["lib.es2022.d.ts"],
  types: [],
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

const tagAjv = new Ajv2020({ strict: false });
addFormats(tagAjv);
const tagValidators = new Map<string, (value: unknown) => boolean>();

/** Whether a value satisfies a tag's keywords (which are JSON Schema keywords, by typemcp's definition of a tag). */
function satisfies(keywords: Record<string, unknown>, value: unknown): boolean {
  const key = JSON.stringify(keywords);
  let validate = tagValidators.get(key);
  if (!validate) {
    const compiled = tagAjv.compile(keywords);
    validate = (v) => compiled(v) === true;
    tagValidators.set(key, validate);
  }
  return validate(value);
}

export class TypeScriptOracle {
  private program?: ts.Program;
  private readonly host = withTypemcpFromSources(ts.createCompilerHost(OPTIONS), OPTIONS);
  private readonly header: string;

  constructor(private readonly modules: FixtureModule[]) {
    fs.mkdirSync(ORACLE_DIR, { recursive: true });
    const typemcp = [...new Set(modules.flatMap((m) => m.typemcpImports))].sort();
    const lines = ["// Written by test/support/ts-oracle.ts: one statement per (type, value) pair."];
    if (typemcp.length) lines.push(`import type { ${typemcp.join(", ")} } from "typemcp";`);
    lines.push(`import type { Wire } from "${importPath(ORACLE_DIR, WIRE_TYPE)}";`);
    for (const m of modules) lines.push(`import type * as ${m.namespace} from "${importPath(ORACLE_DIR, m.source)}";`);
    // Accessors are not data: marked on their classes, which Wire<T> reads (subclasses inherit the marks).
    for (const m of modules) {
      if (!m.accessors.size) continue;
      lines.push(`declare module "${importPath(ORACLE_DIR, m.source)}" {`);
      for (const [name, accessors] of m.accessors) {
        lines.push(
          `  interface ${name} { ${accessors.map((a) => `readonly "oracle.accessor:${a}"?: true;`).join(" ")} }`,
        );
      }
      lines.push("}");
    }
    this.header = lines.join("\n") + "\n";
  }

  /**
   * TypeScript's verdict on each pair, in order. One program for the whole batch.
   * `wire: false` asks about `T` itself instead of `Wire<T>` (to check that Wire<T> is T where it should be).
   */
  judge(cases: OracleCase[], batch = "batch", { wire = true }: { wire?: boolean } = {}): Judgement[] {
    const file = path.join(ORACLE_DIR, `${batch}.ts`);
    let text = this.header;
    const spans: { start: number; end: number }[] = [];
    cases.forEach(({ tool, value }, i) => {
      const type = tool.qualifiedType.replace(/\s+/g, " ");
      const statement = `const v${i}: ${wire ? `Wire<${type}>` : type} = ${literal(value)};`;
      spans.push({ start: text.length, end: text.length + statement.length });
      text += statement + "\n";
    });
    fs.writeFileSync(file, text);
    this.program = ts.createProgram([file], OPTIONS, this.host, this.program);
    const source = this.program.getSourceFile(file)!;
    const diagnostics = [
      ...this.program.getSyntacticDiagnostics(source),
      ...this.program.getSemanticDiagnostics(source),
    ];
    const verdicts: Judgement[] = cases.map(() => ({ accepted: true }));
    const outside: string[] = [];
    for (const diagnostic of diagnostics) {
      const at = diagnostic.start ?? -1;
      const index = findSpan(spans, at);
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, " ");
      if (index === undefined) outside.push(message);
      else if (verdicts[index].accepted) verdicts[index] = { accepted: false, reason: message };
    }
    if (outside.length) throw new Error(`the oracle's batch file does not compile:\n${outside.join("\n")}`);

    const checker = this.program.getTypeChecker();
    const declarations = source.statements.filter(ts.isVariableStatement);
    for (const statement of declarations) {
      const index = findSpan(spans, statement.getStart(source));
      if (index === undefined || !verdicts[index].accepted) continue;
      const missed = untaggedLiteral(statement.declarationList.declarations[0].initializer!, checker);
      if (missed) verdicts[index] = { accepted: false, reason: missed };
    }
    return verdicts;
  }
}

function findSpan(spans: { start: number; end: number }[], at: number): number | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < spans[mid].start) hi = mid - 1;
    else if (at >= spans[mid].end) lo = mid + 1;
    else return mid;
  }
  return undefined;
}

/** The keywords a type's tag carries (`{ type: "integer" }`), or undefined when it has none. */
function tagKeywords(type: ts.Type, checker: ts.TypeChecker): Record<string, unknown> | undefined {
  const tag = type.getProperty(TAG_PROPERTY);
  if (!tag) return undefined;
  const holder = checker.getNonNullableType(checker.getTypeOfSymbol(tag));
  const keywords: Record<string, unknown> = {};
  for (const property of holder.getProperties()) {
    const value = checker.getTypeOfSymbol(property);
    if (value.isLiteral()) keywords[property.name] = value.value;
    else if (value.flags & ts.TypeFlags.BooleanLiteral)
      keywords[property.name] = checker.typeToString(value) === "true";
    else throw new Error(`tag ${property.name} has a value the oracle cannot read: ${checker.typeToString(value)}`);
  }
  return keywords;
}

/**
 * For every number and string literal in a value the checker accepted: when every member of
 * its contextual type that admits it is tagged, the value must satisfy one of those tags.
 * Returns why it does not, or undefined.
 */
function untaggedLiteral(expression: ts.Expression, checker: ts.TypeChecker): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isPropertyAssignment(node)) return visit(node.initializer);
    let value: number | string | undefined;
    if (ts.isNumericLiteral(node)) value = Number(node.text);
    else if (ts.isStringLiteral(node)) value = node.text;
    else if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand)
    )
      value = -Number(node.operand.text);
    if (value === undefined) return ts.forEachChild(node, visit);
    const context = checker.getContextualType(node as ts.Expression);
    if (!context) return;
    const self = checker.getTypeAtLocation(node);
    const members = (context.isUnion() ? context.types : [context]).filter((m) => checker.isTypeAssignableTo(self, m));
    if (!members.length) return;
    const tags = members.map((m) => tagKeywords(m, checker));
    if (tags.some((t) => t === undefined)) return;
    if (tags.some((t) => satisfies(t!, value))) return;
    found = `${JSON.stringify(value)} does not satisfy ${tags.map((t) => JSON.stringify(t)).join(" or ")} (${checker.typeToString(context)})`;
  };
  visit(expression);
  return found;
}
