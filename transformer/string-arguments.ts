/**
 * Arguments that travel as text: a prompt's arguments, a resource template's variables. Each
 * parameter's type must be one a text can carry (a string, a number or a boolean, in any of
 * the forms the type model reads: literals, unions of one kind, enums, template literal
 * types, `Integer`, constrained types); the runtime converts the text of number and boolean
 * arguments (`convert`) and validates all of them against `argumentsSchema`, which is written
 * exactly as a tool's input schema.
 */
import type * as ts from "typescript";
import type { StringArgument, StringArguments } from "../contract/contract";
import type { Type, TypeChecker } from "./checker/checker";
import { TypeFlags } from "./checker/flags";
import type { Compilation } from "./compilation";
import { DiagnosticCode } from "./diagnostic-codes";
import { inputSchema, type Parameters } from "./input-schema";
import type { Model } from "./model/model";
import { completeKeys } from "./options";
import { describeProblem, findProblems } from "./problems";
import { rootObject } from "./schema/root";
import { setOwn } from "../contract/own";

/** One argument: a parameter, or a property of the one destructured parameter. */
export interface TextInput {
  name: string;
  /** How messages name it: `parameter id`, `property id of the destructured parameter`. */
  label: string;
  /** Its declared type, where the checker has one. */
  type?: Type;
  model: Model;
  required: boolean;
  description?: string;
  node: ts.Node;
  /** Typed `undefined` alone: no text stands for it. */
  absent?: true;
  /** The JSDoc tags written for it that cannot apply (see input-schema.ts). */
  tagProblems?: string[];
}

/** The arguments a function's parameters take, in declaration order. */
export function textInputs(parameters: Parameters, checker: TypeChecker): TextInput[] {
  if (parameters.kind === "positional")
    return parameters.args.map((a) => ({
      name: a.name,
      label: `parameter ${a.name}`,
      type: a.type,
      model: a.model,
      required: a.required,
      ...(a.description !== undefined && { description: a.description }),
      node: a.node,
      ...(a.absent && { absent: true as const }),
      ...(a.tagProblems && { tagProblems: a.tagProblems }),
    }));
  const { object } = rootObject(parameters.model)!;
  return object.properties.map((p) => {
    const symbol = checker.property(parameters.type, p.name);
    return {
      name: p.name,
      label: `property ${p.name} of the destructured parameter`,
      ...(symbol && { type: checker.typeOfSymbol(symbol) }),
      model: p.model,
      required: p.required && !Object.hasOwn(parameters.defaults, p.name),
      ...(p.description !== undefined && { description: p.description }),
      node: parameters.node,
      ...(p.absent && { absent: true as const }),
    };
  });
}

export type TextKind = "string" | "number" | "boolean";

/**
 * What text a model's values are written as: a string, a number or a boolean, when every
 * value is one of these of the same kind (`"a" | "b"`, `1 | 2`, `Integer`, `true`); else
 * undefined (objects, arrays, `null`, `any`, mixed kinds such as `string | number`).
 */
export function textKind(model: Model): TextKind | undefined {
  switch (model.kind) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "literal":
      return typeof model.value as TextKind;
    case "union": {
      const kinds = new Set(model.members.map(textKind));
      return kinds.size === 1 ? [...kinds][0] : undefined;
    }
    case "ref":
      return textKind(model.definition.model);
    default:
      return undefined;
  }
}

/**
 * The values of a model that is a finite set of literals (`"a" | "b"`, an enum, `boolean`),
 * as text, in the order of the schema's `enum` (TypeScript's order of the union); booleans as
 * `"true"`, `"false"`. Undefined for any other model.
 */
export function completionValues(model: Model): string[] | undefined {
  const values: (string | number | boolean)[] = [];
  const collect = (m: Model): boolean => {
    switch (m.kind) {
      case "literal":
        values.push(m.value);
        return true;
      case "boolean":
        values.push(true, false);
        return true;
      case "union":
        return m.members.every(collect);
      case "ref":
        return collect(m.definition.model);
      default:
        return false;
    }
  };
  if (!collect(model)) return undefined;
  const ordered = values.every((v) => typeof v === "boolean")
    ? [true, false].filter((b) => values.includes(b))
    : values;
  return [...new Set(ordered.map(String))];
}

/**
 * Whether the checker's type is a string, number or boolean type (a union of them, or one
 * intersected with tags or brands). The model alone cannot tell: it describes a value as JSON
 * carries it, and a `Date` (or any type with a `toJSON` that returns a string) is a string
 * there, while the function would be handed a string where it declared a Date. It also tells
 * a text type with a problem inside (a malformed tag, `Uppercase<string>`) from one no text is.
 */
export function isTextType(type: Type, checker: TypeChecker): boolean {
  const flags = checker.flags(type);
  if (flags & TypeFlags.Union)
    return checker
      .constituents(type)
      .filter((t) => !(checker.flags(t) & (TypeFlags.Undefined | TypeFlags.Void)))
      .every((t) => isTextType(t, checker));
  if (flags & TypeFlags.Intersection) return checker.constituents(type).some((t) => isTextType(t, checker));
  return (flags & (TypeFlags.StringLike | TypeFlags.NumberLike | TypeFlags.BooleanLike | TypeFlags.EnumLiteral)) !== 0;
}

const TEXT_TYPES =
  "(their literal types and unions of one of them, enums, template literal types, Integer, and types constrained with tags, included)";

/** What an argument is, for its messages, and whether it takes a list of texts (an exploded template variable). */
export interface ArgumentRole {
  /** `a prompt argument`, `the variable {id} of the URI template`. */
  role: string;
  list?: boolean;
}

/** The element type of an array type (`undefined` left out); undefined for any other type. */
function elementOf(type: Type, checker: TypeChecker): Type | undefined {
  const defined = checker.nonNullable(type);
  return checker.isArrayType(defined) ? checker.typeArguments(defined)[0] : undefined;
}

/**
 * Why an input cannot be an argument: TS93002 when its type is a text type with a part the
 * model cannot describe (the tool rule, with the path), TS93004 when it is no text type.
 */
function reportNotText(c: Compilation, label: string, input: TextInput, { role, list }: ArgumentRole): void {
  const { checker } = c;
  const type = input.type && (list ? elementOf(input.type, checker) : input.type);
  const tags = (input.tagProblems ?? []).map((message) => ({ path: input.name, message, tag: true as const }));
  const problems = input.absent ? [] : [...tags, ...findProblems(input.model, input.name)];
  if (problems.length && type && isTextType(type, checker)) {
    c.error(
      input.node,
      DiagnosticCode.InputNotSerializable,
      `Function ${label}: ${input.label} cannot be described as JSON Schema`,
      problems.map((p) => describeProblem(label, p)),
    );
    return;
  }
  const typeText = input.type ? checker.typeToString(input.type) : "its type";
  const expected = list
    ? `an array of strings, of numbers or of booleans ${TEXT_TYPES}`
    : `a string, a number or a boolean ${TEXT_TYPES}`;
  c.error(
    input.node,
    DiagnosticCode.ArgumentNotText,
    `Function ${label}: ${input.label} cannot be ${role}, which is ${list ? "a list of texts" : "text"}: its type must be ${expected}, not ${typeText}`,
  );
}

/**
 * Checks that every input can be carried as text (TS93004 otherwise; TS93002 for a text type
 * with a part that cannot be described), and writes the StringArguments fields. `name` is the
 * prompt's or resource's name, for the schema's title; `label` names the function in messages.
 */
export function stringArguments(
  c: Compilation,
  name: string,
  label: string,
  parameters: Parameters,
  inputs: TextInput[],
  roleOf: (input: TextInput) => ArgumentRole,
): StringArguments {
  const convert: Record<string, "number" | "boolean"> = {};
  const completions: Record<string, string[]> = {};
  for (const input of inputs) {
    const role = roleOf(input);
    const { model } = input;
    const type = input.type && (role.list ? elementOf(input.type, c.checker) : input.type);
    const textual = !input.absent && (input.type === undefined || (type !== undefined && isTextType(type, c.checker)));
    const values = role.list ? (model.kind === "array" ? model.items : undefined) : model;
    const kind = textual && values ? textKind(values) : undefined;
    if (kind === undefined) {
      reportNotText(c, label, input, role);
      continue;
    }
    if (input.tagProblems?.length) {
      c.error(
        input.node,
        DiagnosticCode.InputNotSerializable,
        `Function ${label}: ${input.label} cannot be described as JSON Schema`,
        input.tagProblems.map((message) => describeProblem(label, { path: input.name, message })),
      );
      continue;
    }
    // An argument may be named `__proto__`: setOwn keeps it a key.
    if (kind !== "string") setOwn(convert, input.name, kind);
    // A list's completion would be one of its items, not the whole value: lists have none.
    const offered = role.list ? undefined : completionValues(model);
    if (offered) setOwn(completions, input.name, offered);
  }
  const fields: StringArguments = {
    arguments: inputs.map((input): StringArgument => ({
      name: input.name,
      ...(input.description !== undefined && { description: input.description }),
      required: input.required,
    })),
    argumentsSchema: inputSchema(name, parameters),
  };
  if (Object.keys(convert).length) fields.convert = convert;
  if (Object.keys(completions).length) fields.completions = completions;
  return fields;
}

/**
 * `options.complete` completes arguments by name: a key that names none would never be asked
 * for (TS93003 at the key). `what` says what a key must be (`an argument of prompt p`), `those`
 * what the names listed are.
 */
export function checkCompleteKeys(
  c: Compilation,
  options: ts.Expression | undefined,
  names: string[],
  what: string,
  those: string,
): void {
  for (const key of completeKeys(options, c.checker)) {
    if (names.includes(key.name)) continue;
    const known = names.length ? `its ${those}: ${names.join(", ")}` : `it has no ${those}`;
    c.error(
      key.node,
      DiagnosticCode.InvalidRegistration,
      `options.complete: ${JSON.stringify(key.name)} is not ${what} (${known}), so its completer would never be asked`,
    );
  }
}
