import type * as ts from "typescript";
import type { Symbol, Syntax, TypeChecker, Diagnostic } from "./checker/checker";
import { DiagnosticCategory, SymbolFlag } from "./checker/flags";
import { Compilation, failedRegistration, type CompiledRegistration } from "./compilation";
import { compilePrompt } from "./compile-prompt";
import { compileResource } from "./compile-resource";
import { compileTool } from "./compile-tool";
import { DiagnosticCode } from "./diagnostic-codes";
import { diagnosticAt, locationOf } from "./diagnostics";
import { compileForm, failedForm, type CompiledForm } from "./form/compile-form";
import { FORM_INDEX, isElicitCall } from "./form/elicit";
import { TypeModeler } from "./model/modeler";
import { parsers } from "./model/parsers";
import { functionIndex, optionsIndex, registrationOf, type Registration, type RegistrationKind } from "./registration";
import { readToolFunction, readToolMethod } from "./tool-function";

export { failedRegistration, type CompiledRegistration } from "./compilation";
export type { CompiledForm } from "./form/compile-form";

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

/**
 * Compiles the calls that carry a contract into their contracts: registrations (tools,
 * prompts, resources) and `ctx.elicit<T>()` forms. One per program, so that the type
 * modeler's cache serves every registration in every file: a type shared by 500 tools is
 * converted once.
 */
export class ContractCompiler {
  private readonly modeler: TypeModeler;
  /**
   * The registrations compiled so far, by server (see serverOf), kind and name (a resource's
   * URI): a second one of a kind and name is an error. Tools, prompts and resources are
   * separate namespaces.
   */
  private readonly registered = new Map<Symbol, Map<string, ts.CallExpression>>();

  constructor(readonly checker: TypeChecker) {
    this.modeler = new TypeModeler(checker, parsers);
  }

  /** How many distinct types this program's registrations needed converted so far. */
  get typesConverted(): number {
    return this.modeler.converted;
  }

  /** Whether (and how) a call registers a tool, a prompt or a resource. */
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
    return registration && call.arguments.length <= optionsIndex(registration) + 1 ? registration : undefined;
  }

  /** compile(), never throwing out: an unexpected failure is diagnostic TS93099, and the call's contract carries it. */
  compileSafely(call: ts.CallExpression, registration?: Registration): CompiledRegistration {
    try {
      registration ??= this.registrationOf(call);
      const compiled = this.compile(call, registration);
      const { contract } = compiled;
      const duplicate =
        contract.error === undefined && registration
          ? this.duplicateOf(call, "uri" in contract ? contract.uri : contract.name, registration)
          : undefined;
      return duplicate ? { ...compiled, diagnostics: [...compiled.diagnostics, duplicate] } : compiled;
    } catch (cause) {
      const registers = registration?.registers ?? "tool";
      const message = `typemcp could not compile this ${registers} registration (please report it): ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`;
      return failedRegistration(
        [diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InternalError, message)],
        registers,
      );
    }
  }

  /**
   * Whether a call is a `ctx.elicit<T>()` that needs its form (transformer/form/): one that
   * already carries a form is left as it is, and a failure to tell is no such call.
   */
  formToCompile(call: ts.CallExpression): boolean {
    try {
      return call.arguments.length <= FORM_INDEX && isElicitCall(call, this.checker);
    } catch {
      return false;
    }
  }

  /** The `ctx.elicit<T>()` calls under `node` that need a form, in source order. */
  formsIn(node: ts.Node): ts.CallExpression[] {
    return this.callsIn(node).filter((call) => this.formToCompile(call));
  }

  /** The form of a `ctx.elicit<T>()` call, never throwing out: an unexpected failure is diagnostic TS93099, and the form carries it. */
  compileFormSafely(call: ts.CallExpression): CompiledForm {
    try {
      return compileForm(new Compilation(this.checker, this.modeler), call);
    } catch (cause) {
      const message = `typemcp could not write the form of this ctx.elicit call (please report it): ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`;
      return failedForm("", [diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InternalError, message)]);
    }
  }

  /**
   * The error for a registration whose name (a resource's URI) an earlier registration of its
   * kind on the same server already took (the runtime refuses it too, naming both places), or
   * undefined. Registrations are compared in the order they are compiled: program order in a
   * build and in the CLI.
   */
  private duplicateOf(call: ts.CallExpression, name: string, registration: Registration): Diagnostic | undefined {
    const server = this.serverOf(call, registration);
    if (!server) return undefined;
    let names = this.registered.get(server);
    if (!names) this.registered.set(server, (names = new Map()));
    const key = `${registration.registers} ${name}`;
    const first = names.get(key);
    if (!first) names.set(key, call);
    if (!first || first === call) return undefined;
    const { message, related } = DUPLICATE[registration.registers](JSON.stringify(name), locationOf(first));
    const diagnostic = diagnosticAt(call, DiagnosticCategory.Error, DiagnosticCode.InvalidRegistration, message);
    const file = first.getSourceFile();
    diagnostic.relatedInformation = [
      {
        category: DiagnosticCategory.Message,
        code: DiagnosticCode.InvalidRegistration,
        file,
        start: first.getStart(file),
        length: first.getWidth(file),
        messageText: related,
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
   * The contract of `mcp.tool(fn, options?)`, `mcp.prompt(fn, options?)`,
   * `mcp.resource(uri, fn, options?)`, or of `@tool(options?)` on a method.
   * `registration`: what registrationToCompile found the call to be, if known (saves resolving it again).
   */
  compile(call: ts.CallExpression, registration = this.registrationOf(call)): CompiledRegistration {
    const c = new Compilation(this.checker, this.modeler);
    if (registration?.kind === "decorator") {
      const fn = readToolMethod(registration.method, this.checker);
      return compileTool(c, fn, call.arguments[0], registration.method.name);
    }
    const registers = registration?.registers ?? "tool";
    const at = registration ? functionIndex(registration)! : 0;
    const fnNode = call.arguments[at];
    if (!fnNode || call.arguments.some((argument) => this.checker.syntax.isSpreadElement(argument))) {
      c.error(call, DiagnosticCode.InvalidRegistration, WRITTEN_OUT[registers]);
      return c.fail(registers);
    }
    const fn = readToolFunction(fnNode, this.checker, registers);
    const options = call.arguments[at + 1];
    if (registers === "prompt") return compilePrompt(c, fn, options, fnNode);
    if (registers === "resource") return compileResource(c, call.arguments[0], fn, options, fnNode);
    return compileTool(c, fn, options, fnNode);
  }
}

/** What a registration call whose arguments are missing or spread must be. */
const WRITTEN_OUT: Record<RegistrationKind, string> = {
  tool: "mcp.tool takes the tool function as its first argument, written out (not spread)",
  prompt: "mcp.prompt takes the prompt function as its first argument, written out (not spread)",
  resource: "mcp.resource takes the URI and the resource function as its first two arguments, written out (not spread)",
};

/** A second registration of a kind and name on one server: the error, and the note at the first. */
const DUPLICATE: Record<RegistrationKind, (name: string, first: string) => { message: string; related: string }> = {
  tool: (name, first) => ({
    message: `Tool name ${name} is already registered on this server, at ${first}: give one of them another name with { name: "..." }`,
    related: `The first tool named ${name} is registered here.`,
  }),
  prompt: (name, first) => ({
    message: `Prompt name ${name} is already registered on this server, at ${first}: give one of them another name with { name: "..." }`,
    related: `The first prompt named ${name} is registered here.`,
  }),
  resource: (uri, first) => ({
    message: `Resource URI ${uri} is already registered on this server, at ${first}: a URI (or URI template) names one resource`,
    related: `The first resource at ${uri} is registered here.`,
  }),
};
