/**
 * `ctx.elicit<T>(message, options?)` → the form the call asks for, written from `T` at build
 * time (contract/contract.ts, FormContract): the protocol's restricted `requestedSchema`, a flat
 * object whose fields are described by field.ts. What cannot be a form is one located
 * diagnostic (TS93006) naming each field and why; the call then gets a form that carries only
 * the error, which the runtime refuses to ask with.
 */
import type * as ts from "typescript";
import { CONTRACT_VERSION, type FormContract, type JsonSchema } from "../../contract/contract";
import type { Diagnostic, Symbol, Type } from "../checker/checker";
import { TypeFlags } from "../checker/flags";
import type { Compilation } from "../compilation";
import { DiagnosticCode } from "../diagnostic-codes";
import { diagnosticText } from "../diagnostics";
import { setOwn } from "../../contract/own";
import { formField, FORM_HOLDS } from "./field";
import { formTypeOf } from "./elicit";

export interface CompiledForm {
  form: FormContract;
  diagnostics: Diagnostic[];
  /** The call is left as written (its arguments are spread: no place is known to hold the form); its diagnostic says so. */
  unwritten?: true;
}

/** The form of a call the build reported errors for: no fields, and the error the runtime refuses it with. */
export function failedForm(name: string, diagnostics: Diagnostic[]): CompiledForm {
  const error = diagnostics.map(diagnosticText).join("\n");
  return {
    form: { v: CONTRACT_VERSION, name, requestedSchema: { type: "object", properties: {}, required: [] }, error },
    diagnostics,
  };
}

/** Types that stand for a type the call's caller chooses: the form cannot be written where they are. */
const GENERIC = TypeFlags.TypeParameter | TypeFlags.IndexedAccess | TypeFlags.Conditional | TypeFlags.Substitution;
/** Types that name no fields: what `T` is inferred as when the call does not say it. */
const VAGUE = TypeFlags.NonPrimitive | TypeFlags.Unknown | TypeFlags.Any;

export function compileForm(c: Compilation, call: ts.CallExpression): CompiledForm {
  const { checker } = c;
  const fail = (name: string, message: string, details?: string[]) => {
    c.error(call, DiagnosticCode.FormNotWritable, message, details);
    return failedForm(name, c.diagnostics);
  };
  if (call.arguments.some((argument) => checker.syntax.isSpreadElement(argument))) {
    const message =
      "ctx.elicit takes its message and options written out (not spread): typemcp adds the form after them";
    return { ...fail("", message), unwritten: true };
  }
  const type = formTypeOf(call, checker);
  if (type === undefined) return fail("", "typemcp could not read the form's type of this ctx.elicit call");
  const written = call.typeArguments?.[0];
  const text = checker.typeToString(type);
  if (checker.flags(type) & GENERIC)
    return fail(
      text,
      `The form of this ctx.elicit call cannot be written from ${text}, which stands for a type given elsewhere: typemcp writes the form when it builds, from the type at the call. Call ctx.elicit with the form's own type (ctx.elicit<Booking>(...)), not through a generic function`,
    );
  if (checker.flags(type) & VAGUE)
    return fail(
      text,
      written
        ? `The form of this ctx.elicit call cannot be written from ${text}, which names no fields: give the form's own type (ctx.elicit<Booking>(...))`
        : `ctx.elicit needs the form's type as its type argument (ctx.elicit<Booking>(message)): here it is inferred as ${text}, which names no fields`,
    );
  const name = c.modeler.nameOf(type) ?? text;
  const fields = formFields(c, type, name);
  if ("problems" in fields)
    return fail(name, `The form of this ctx.elicit call cannot be written from ${name}`, fields.problems);
  return { form: { v: CONTRACT_VERSION, name, requestedSchema: fields.schema }, diagnostics: c.diagnostics };
}

/** The form's schema from the object type `T`, or every reason it cannot be one, each with the path it is at. */
function formFields(c: Compilation, type: Type, name: string): { schema: JsonSchema } | { problems: string[] } {
  const { checker } = c;
  const model = c.modeler.modelOf(type);
  const root = model.kind === "ref" ? model.definition.model : model;
  if (root.kind !== "object")
    return {
      problems: [
        root.kind === "unsupported"
          ? `${name}: ${root.message}`
          : `${name}: a form is an object type of named fields (an interface, a type alias of an object type, an object literal type), and ${checker.typeToString(type)} is none`,
      ],
    };
  const problems = (root.tagProblems ?? []).map((problem) => `${name}: ${problem}`);
  if (root.additional || root.patterns)
    problems.push(`${name}: ${FORM_HOLDS} as declared properties; an index signature is not allowed`);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of root.properties) {
    // Never present (`a?: undefined`, an optional function): not a field, as it is no property of a tool's schema.
    if (property.absent) continue;
    const symbol = checker.property(type, property.name)!;
    const propertyType = checker.nonNullable(checker.typeOfSymbol(symbol));
    const written = writtenType(c, symbol);
    const field = formField(
      {
        property,
        type: propertyType,
        tags: checker.documentation(symbol)?.tags.map((tag) => tag.name) ?? [],
        text: written && textOf(written),
        literals: [...(written ? literalsIn(c, written) : []), ...aliasLiterals(c, propertyType)],
      },
      checker,
    );
    if ("problems" in field) {
      problems.push(...field.problems.map((problem) => `${name}.${property.name}: ${problem}`));
      continue;
    }
    setOwn(properties, property.name, field.schema);
    if (property.required) required.push(property.name);
  }
  return problems.length ? { problems } : { schema: { type: "object", properties, required } };
}

/** The type node a property is declared with (`status: "on" | "off"`), if it is declared with one. */
function writtenType(c: Compilation, symbol: Symbol): ts.TypeNode | undefined {
  const declaration = c.checker.declarations(symbol)[0] as (ts.Declaration & { type?: ts.TypeNode }) | undefined;
  return declaration?.type;
}

/** A node's text as written. */
function textOf(node: ts.Node): string {
  const file = node.getSourceFile();
  const start = node.getStart(file);
  return file.text.slice(start, start + node.getWidth(file));
}

/** The string literals written in a type node, in the order written (`("b" | "a")[]`: b, a). */
function literalsIn(c: Compilation, node: ts.Node): string[] {
  const { syntax } = c.checker;
  const found: string[] = [];
  const visit = (at: ts.Node): void => {
    if (syntax.isStringLiteral(at)) found.push(at.text);
    syntax.forEachChild(at, visit);
  };
  visit(node);
  return found;
}

/** The string literals of the alias a property's type (or its list's items' type) is declared as: `type Status = "on" | "off"`. */
function aliasLiterals(c: Compilation, type: Type): string[] {
  const { checker } = c;
  const types = [type, ...(checker.isArrayType(type) ? checker.typeArguments(type) : [])];
  return types.flatMap((t) => {
    const alias = checker.aliasSymbolOf(t);
    const declaration =
      alias && (checker.declarations(alias)[0] as (ts.Declaration & { type?: ts.TypeNode }) | undefined);
    return declaration?.type ? literalsIn(c, declaration.type) : [];
  });
}
