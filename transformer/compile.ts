import type * as ts from "typescript";
import { CONTRACT_VERSION, type ToolContract } from "../runtime/contract";
import { toolNameProblem } from "../runtime/tool-name";
import type { Diagnostic, Symbol, Syntax, TypeChecker } from "./checker/checker";
import { DiagnosticCategory, SymbolFlag } from "./checker/flags";
import { datesOf, type DateInput } from "./dates";
import { DiagnosticCode } from "./diagnostic-codes";
import { diagnosticAt, diagnosticText, locationOf } from "./diagnostics";
import { inputSchema, readParameters } from "./input-schema";
import { TypeModeler } from "./model/modeler";
import { readStaticOptions } from "./options";
import { outputSchema } from "./output-schema";
import { describeProblem, findProblems } from "./problems";
import { registrationOf, returnsContent, type Registration } from "./registration";
import { readToolFunction, readToolMethod, type ToolFunction } from "./tool-function";

export interface CompiledRegistration {
  contract: ToolContract;
  diagnostics: Diagnostic[];
}

/** The contract of a registration the build reported errors for: the runtime refuses it with them. */
export function failedRegistration(diagnostics: Diagnostic[]): CompiledRegistration {
  const error = diagnostics.map(diagnosticText).join("\n");
  return {
    contract: { v: CONTRACT_VERSION, name: "", params: [], inputSchema: { type: "object" }, error },
    diagnostics,
  };
}

/**
 * Turns registrations into contracts. One per program, so that the type modeler's cache
 * serves every registration in every file: a type shared by 500 tools is converted once.
 */
/** Nodes no registration can be inside: types, and declarations made only of types or names. */
function holdsNoCalls(node: ts.Node, syntax: Syntax): boolean {
  if (syntax.isTypeNode(node)) return !syntax.isExpressionWithTypeArguments(node);
  const kind = syntax.SyntaxKind;
  switch (node.kind) {
    case kind.InterfaceDeclaration:
    case kind.TypeAliasDeclaration:
    case kind.ImportDeclaration:
    case kind.ImportEqualsDeclaration:
    case kind.ExportDeclaration:
      return true;
  }
  return false;
}

export class ToolCompiler {
  private readonly modeler: TypeModeler;
  /** The registrations compiled so far, by server (see serverOf) and tool name: a second one of a name is an error. */
  private readonly registered = new Map<Symbol, Map<string, ts.CallExpression>>();

  constructor(readonly checker: TypeChecker) {
    this.modeler = new TypeModeler(checker);
  }

  /** How many distinct types this program's registrations needed converted so far. */
  get typesConverted(): number {
    return this.modeler.converted;
  }

  /** Whether (and how) a call registers a tool. */
  registrationOf(call: ts.CallExpression): Registration | undefined {
    return registrationOf(call, this.checker);
  }

  isRegistration(call: ts.CallExpression): boolean {
    return this.registrationOf(call) !== undefined;
  }

  /** The calls under `node`, in source order. Types are not looked into (they hold no calls). */
  callsIn(node: ts.Node): ts.CallExpression[] {
    const found: ts.CallExpression[] = [];
    const { syntax } = this.checker;
    const scan = (at: ts.Node): void => {
      if (holdsNoCalls(at, syntax)) return;
      if (syntax.isCallExpression(at)) found.push(at);
      syntax.forEachChild(at, scan);
    };
    scan(node);
    return found;
  }

  /**
   * The registrations under `node` that need a contract, in source order: the CLI and the
   * editor plugin report on them.
   */
  registrationsIn(node: ts.Node): { call: ts.CallExpression; registration: Registration }[] {
    const found: { call: ts.CallExpression; registration: Registration }[] = [];
    for (const call of this.callsIn(node)) {
      const registration = this.registrationToCompile(call);
      if (registration) found.push({ call, registration });
    }
    return found;
  }

  /**
   * The registration a call is, if it needs a contract: a call that already carries one
   * (written by hand, or from a manifest) is left as it is, and a failure to tell is no
   * registration. The transformer asks it of every call it prints.
   */
  registrationToCompile(call: ts.CallExpression): Registration | undefined {
    let registration: Registration | undefined;
    try {
      registration = this.registrationOf(call);
    } catch {
      return undefined;
    }
    const optionsAt = registration?.kind === "call" ? 1 : 0;
    return registration && call.arguments.length <= optionsAt + 1 ? registration : undefined;
  }

  /** compile(), never throwing out: an unexpected failure is diagnostic TS93099, and the call's contract carries it. */
  compileSafely(call: ts.CallExpression, registration?: Registration): CompiledRegistration {
    try {
      const compiled = this.compile(call, registration);
      const duplicate =
        compiled.contract.error === undefined
          ? this.duplicateOf(call, compiled.contract.name, registration)
          : undefined;
      return duplicate ? { ...compiled, diagnostics: [...compiled.diagnostics, duplicate] } : compiled;
    } catch (cause) {
      const message = `typemcp could not compile this tool registration (please report it): ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`;
      return failedRegistration([diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InternalError, message)]);
    }
  }

  /**
   * The error for a registration whose tool name an earlier registration on the same server
   * already took (the runtime refuses it too, naming both places), or undefined. Registrations
   * are compared in the order they are compiled: program order in a build and in the CLI.
   */
  private duplicateOf(
    call: ts.CallExpression,
    name: string,
    registration = this.registrationOf(call),
  ): Diagnostic | undefined {
    const server = registration && this.serverOf(call, registration);
    if (!server) return undefined;
    let names = this.registered.get(server);
    if (!names) this.registered.set(server, (names = new Map()));
    const first = names.get(name);
    if (!first) names.set(name, call);
    if (!first || first === call) return undefined;
    const message = `Tool name ${JSON.stringify(name)} is already registered on this server, at ${locationOf(first)}: give one of them another name with { name: "..." }`;
    const diagnostic = diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InvalidRegistration, message);
    const file = first.getSourceFile();
    diagnostic.relatedInformation = [
      {
        category: DiagnosticCategory.Message,
        code: DiagnosticCode.InvalidRegistration,
        file,
        start: first.getStart(file),
        length: first.getWidth(file),
        messageText: `The first tool named ${JSON.stringify(name)} is registered here.`,
      },
    ];
    return diagnostic;
  }

  /**
   * What identifies the server a registration is made on, where the build can know it: a
   * `const` (or `readonly`) binding the `mcp.tool` call is made on, followed through imports;
   * the class for `@tool()` methods (`mcp.tools(instance)` registers them together). Anything
   * else (a `let` that may hold another server by then, a server returned by a call) is left
   * to the runtime, which refuses a duplicate name with both places too.
   */
  private serverOf(call: ts.CallExpression, registration: Registration): Symbol | undefined {
    const { syntax } = this.checker;
    if (registration.kind === "decorator") {
      const owner = registration.method.parent;
      return syntax.isClassLike(owner) && owner.name ? this.checker.symbolAt(owner.name) : undefined;
    }
    const callee = call.expression;
    if (!syntax.isPropertyAccessExpression(callee) && !syntax.isElementAccessExpression(callee)) return undefined;
    let symbol = this.checker.symbolAt(callee.expression);
    if (symbol && this.checker.symbolFlags(symbol) & SymbolFlag.Alias) symbol = this.checker.aliasedSymbol(symbol);
    const declaration = symbol && this.checker.valueDeclaration(symbol);
    return declaration && syntax.isFixedBinding(declaration) ? symbol : undefined;
  }

  /**
   * The contract of `mcp.tool(fn, options?)` or of `@tool(options?)` on a method.
   * `registration`: what registrationToCompile found the call to be, if known (saves resolving it again).
   */
  compile(call: ts.CallExpression, registration = this.registrationOf(call)): CompiledRegistration {
    const diagnostics: Diagnostic[] = [];
    if (registration?.kind === "decorator") {
      const fn = readToolMethod(registration.method, this.checker);
      return this.compileTool(fn, call.arguments[0], registration.method.name, diagnostics);
    }
    const [fnNode, optionsArgument] = call.arguments;
    if (!fnNode || call.arguments.some((argument) => this.checker.syntax.isSpreadElement(argument))) {
      diagnostics.push(
        diagnosticAt(
          call,
          DiagnosticCategory.Error,
          DiagnosticCode.InvalidRegistration,
          "mcp.tool takes the tool function as its first argument, written out (not spread)",
        ),
      );
      return failedRegistration(diagnostics);
    }
    return this.compileTool(readToolFunction(fnNode, this.checker), optionsArgument, fnNode, diagnostics);
  }

  /** One tool, from what was read of its function (or why it cannot be one) and its options. */
  private compileTool(
    fn: ToolFunction | string,
    optionsArgument: ts.Expression | undefined,
    fnNode: ts.Node,
    diagnostics: Diagnostic[],
  ): CompiledRegistration {
    const error = (node: ts.Node, code: number, message: string, details?: string[]) =>
      diagnostics.push(diagnosticAt(node, DiagnosticCategory.Error, code, message, details));
    const fail = () => failedRegistration(diagnostics);
    if (typeof fn === "string") {
      error(fnNode, DiagnosticCode.InvalidRegistration, fn);
      return fail();
    }
    const options = readStaticOptions(optionsArgument, this.checker);
    const name = options.name ?? fn.name;
    if (name === undefined) {
      error(
        fnNode,
        DiagnosticCode.InvalidRegistration,
        'This tool function has no name: give it one, or pass { name: "..." } as options',
      );
      return fail();
    }
    const nameProblem = toolNameProblem(name);
    if (nameProblem) {
      error(
        optionsArgument ?? fnNode,
        DiagnosticCode.InvalidRegistration,
        `Tool name ${JSON.stringify(name)} is not a valid MCP tool name: ${nameProblem}`,
      );
      return fail();
    }

    const parameters = readParameters(fn.signature, this.modeler);
    if (typeof parameters === "string") {
      error(fnNode, DiagnosticCode.InvalidRegistration, `Function ${name}: ${parameters}`);
      return fail();
    }
    const inputs: (DateInput & { tagProblems?: string[] })[] =
      parameters.kind === "object"
        ? [{ name: "arguments", model: parameters.model, node: parameters.node }]
        : parameters.args;
    for (const input of inputs) {
      const tags = (input.tagProblems ?? []).map((message) => ({ path: input.name, message, tag: true as const }));
      const problems = [...tags, ...findProblems(input.model, input.name)];
      if (problems.length) {
        error(
          input.node,
          DiagnosticCode.InputNotSerializable,
          `Function ${name}: parameter ${input.name} cannot be described as JSON Schema`,
          problems.map((p) => describeProblem(name, p)),
        );
      }
    }
    // Only once every parameter can be described: the plan reads the models the schema is written from.
    const dates = diagnostics.length ? undefined : datesOf(inputs, parameters.kind === "object");
    for (const { input, problems } of dates?.problems ?? []) {
      error(
        input.node,
        DiagnosticCode.InputNotSerializable,
        `Function ${name}: parameter ${input.name} cannot reach the tool as the type it declares`,
        problems.map((p) => describeProblem(name, p)),
      );
    }

    const output = this.output(name, fn, options.structuredOutput, diagnostics);
    if (diagnostics.some((d) => d.category === DiagnosticCategory.Error)) return fail();

    const contract: ToolContract = {
      v: CONTRACT_VERSION,
      name,
      params: parameters.kind === "positional" ? parameters.args.map((a) => a.name) : [],
      inputSchema: inputSchema(name, parameters),
    };
    if (parameters.kind === "object") contract.argumentsObject = true;
    if (parameters.context !== undefined) contract.context = parameters.context;
    if (fn.description) contract.description = fn.description;
    if (output) {
      contract.outputSchema = output.schema;
      if (output.wrapped) contract.wrapped = true;
    }
    if (dates?.plan) contract.dates = dates.plan;
    return { contract, diagnostics };
  }

  /**
   * The output schema, or undefined for a text-only tool. In auto mode a return type that
   * cannot be described is a warning (the tool answers with text only); with
   * `structuredOutput: true` it is an error. A JSDoc tag typemcp cannot use (`@minimum warm`) is
   * a warning in both, and the schema is kept without it. A return type holding a part no value of which
   * survives JSON.stringify (a Map, a getter-only class, a bigint, a function) is an error in
   * every mode, `structuredOutput: false` included: even the text would carry no data.
   */
  private output(name: string, fn: ToolFunction, structuredOutput: boolean | undefined, diagnostics: Diagnostic[]) {
    const required = structuredOutput === true;
    const report = (category: DiagnosticCategory, message: string, details: string[]) =>
      diagnostics.push(
        diagnosticAt(fn.returnTypeNode, category, DiagnosticCode.OutputNotSerializable, message, details),
      );
    const notSerializable = (typeText: string, details: string[]) => {
      if (structuredOutput === false) return;
      const head = `Function ${name}: return type ${typeText} is not serializable for structured output`;
      const message = required
        ? head
        : `${head}, so the tool gets no output schema and answers with text only (declare the data it returns, or pass structuredOutput: false to make text-only explicit)`;
      report(required ? DiagnosticCategory.Error : DiagnosticCategory.Warning, message, details);
    };

    if (fn.unawaitable) {
      const message = `Function ${name}: return type ${this.checker.typeToString(this.checker.returnType(fn.signature))} is a union of promises of different types, whose awaited union TypeScript 7's checker API cannot give: declare it as one promise of the union (Promise<A | B>)`;
      report(DiagnosticCategory.Error, message, []);
      return undefined;
    }
    if (!fn.returnType) {
      if (required)
        notSerializable("(not annotated)", [
          `${name}: annotate the function's return type: the output schema is built from it`,
        ]);
      return undefined;
    }
    const returnType = fn.returnType;
    // Printing the type is costly and only diagnostics need it.
    const typeText = () => this.checker.typeToString(returnType);
    if (returnsContent(fn.returnType, this.checker)) {
      if (required)
        notSerializable(typeText(), [
          `${name}: result: ${typeText()} is MCP content (for the model), which has no structured output`,
        ]);
      return undefined;
    }
    const model = this.modeler.modelOf(fn.returnType);
    if (model.kind === "any") {
      if (required)
        notSerializable(typeText(), [`${name}: result: ${typeText()} says nothing about the value's shape`]);
      return undefined;
    }
    const problems = findProblems(model, "result");
    if (problems.some((p) => p.lost)) {
      // The note that the list is cut short stays with it.
      const lost = problems.filter((p) => p.lost || p.more);
      const message = `Function ${name}: return type ${typeText()} loses data on the way out, as structured output and as text alike`;
      report(
        DiagnosticCategory.Error,
        message,
        lost.map((p) => describeProblem(name, p)),
      );
      return undefined;
    }
    if (problems.some((p) => !p.tag)) {
      notSerializable(
        typeText(),
        problems.map((p) => describeProblem(name, p)),
      );
      return undefined;
    }
    if (structuredOutput === false) return undefined;
    // A tag typemcp cannot use costs that tag, never the schema: the others still describe the result.
    if (problems.length) {
      const message = `Function ${name}: return type ${typeText()} keeps its output schema without the JSDoc tags typemcp cannot use`;
      report(
        DiagnosticCategory.Warning,
        message,
        problems.map((p) => describeProblem(name, p)),
      );
    }
    return outputSchema(name, model);
  }
}
