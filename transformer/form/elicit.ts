import type * as ts from "typescript";
import type { Type, TypeChecker } from "../checker/checker";
import { TypeFlags } from "../checker/flags";
import { isTypemcpFile, mayCall } from "../registration";

/** Where the form goes among `ctx.elicit(message, options?)`'s arguments: after the options. */
export const FORM_INDEX = 2;

/** The name a form is asked for by: a call by another name is none. */
export const ELICIT: ReadonlySet<string> = new Set(["elicit"]);

/**
 * Whether a call is `ctx.elicit<T>(...)`: the checker resolves its callee to the `elicit`
 * method of typemcp's `ToolContext` interface (runtime/context.ts, a file of the `typemcp`
 * package), wherever the call is (a tool, a prompt, a resource, a helper given the context).
 * An `elicit` method of anything else is left alone.
 */
export function isElicitCall(call: ts.CallExpression, checker: TypeChecker): boolean {
  // A fast pass by name first (`ctx.elicit`, `ctx["elicit"]`, a destructured `elicit`), as for registrations.
  if (!mayCall(call.expression, checker, ELICIT)) return false;
  const declaration = checker.resolvedDeclaration(call);
  if (!declaration || !checker.syntax.isMethodSignature(declaration)) return false;
  const name = declaration.name;
  const owner = declaration.parent as ts.Node & { name?: ts.Identifier };
  return (
    checker.syntax.isIdentifier(name) &&
    name.text === "elicit" &&
    owner.kind === checker.syntax.SyntaxKind.InterfaceDeclaration &&
    owner.name?.text === "ToolContext" &&
    isTypemcpFile(declaration.getSourceFile().fileName)
  );
}

/**
 * The form's type `T` of an elicit call, as the checker resolved the call: written
 * (`ctx.elicit<Booking>(...)`) or inferred (`const r: Elicitation<Booking> = await
 * ctx.elicit(...)`). Read from the call's type, `Promise<Elicitation<T>>`: the `content` of
 * its accepting member. Undefined when the checker gives no such type.
 */
export function formTypeOf(call: ts.CallExpression, checker: TypeChecker): Type | undefined {
  const written = call.typeArguments?.[0];
  if (written) return checker.typeAt(written);
  const answer = checker.awaited(checker.typeAt(call));
  if (!answer) return undefined;
  const members = checker.flags(answer) & TypeFlags.Union ? checker.constituents(answer) : [answer];
  for (const member of members) {
    const content = checker.property(member, "content");
    if (content) return checker.typeOfSymbol(content);
  }
  return undefined;
}
