import type * as ts from "typescript";
import { CONTRACT_VERSION, type Contract } from "../contract/contract";
import type { Diagnostic, TypeChecker } from "./checker/checker";
import { DiagnosticCategory } from "./checker/flags";
import { diagnosticAt, diagnosticText } from "./diagnostics";
import { DiagnosticCode } from "./diagnostic-codes";
import type { TypeModeler } from "./model/modeler";
import { readStaticOptions, type StaticOptions } from "./options";
import type { RegistrationKind } from "./registration";
import type { ToolFunction } from "./tool-function";

export interface CompiledRegistration {
  contract: Contract;
  diagnostics: Diagnostic[];
}

/**
 * The contract of a registration the build reported errors for: the runtime refuses it with
 * them. It has the fields of its kind's contract, empty, so that it is one of them.
 */
export function failedRegistration(
  diagnostics: Diagnostic[],
  registers: RegistrationKind = "tool",
): CompiledRegistration {
  const error = diagnostics.map(diagnosticText).join("\n");
  const v = CONTRACT_VERSION;
  const noArguments = { params: [], arguments: [], argumentsSchema: { type: "object" } };
  const contract: Contract =
    registers === "prompt"
      ? { v, kind: "prompt", name: "", ...noArguments, error }
      : registers === "resource"
        ? { v, kind: "resource", name: "", uri: "", ...noArguments, contents: "auto", error }
        : { v, name: "", params: [], inputSchema: { type: "object" }, error };
  return { contract, diagnostics };
}

/**
 * One registration being compiled: the program's checker and type modeler (shared by every
 * registration), and the diagnostics found so far.
 */
export class Compilation {
  readonly diagnostics: Diagnostic[] = [];

  constructor(
    readonly checker: TypeChecker,
    readonly modeler: TypeModeler,
  ) {}

  error(node: ts.Node, code: number, message: string, details?: string[]): void {
    this.diagnostics.push(diagnosticAt(node, DiagnosticCategory.Error, code, message, details));
  }

  warning(node: ts.Node, code: number, message: string, details?: string[]): void {
    this.diagnostics.push(diagnosticAt(node, DiagnosticCategory.Warning, code, message, details));
  }

  /** Whether an error was reported: the registration then gets no contract but its error. */
  get failed(): boolean {
    return this.diagnostics.some((d) => d.category === DiagnosticCategory.Error);
  }

  fail(registers: RegistrationKind): CompiledRegistration {
    return failedRegistration(this.diagnostics, registers);
  }

  /**
   * The registered function, what is known of its options, and its name (`options.name` when it
   * is a literal, else the function's); undefined, the reason reported, when the function could
   * not be read or has no name.
   */
  named(
    registers: "tool" | "prompt",
    fn: ToolFunction | string,
    optionsArgument: ts.Expression | undefined,
    fnNode: ts.Node,
  ): { fn: ToolFunction; options: StaticOptions; name: string } | undefined {
    if (typeof fn === "string") {
      this.error(fnNode, DiagnosticCode.InvalidRegistration, fn);
      return undefined;
    }
    const options = readStaticOptions(optionsArgument, this.checker);
    const name = options.name ?? fn.name;
    if (name === undefined) {
      this.error(
        fnNode,
        DiagnosticCode.InvalidRegistration,
        `This ${registers} function has no name: give it one, or pass { name: "..." } as options`,
      );
      return undefined;
    }
    return { fn, options, name };
  }
}
