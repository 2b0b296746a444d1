/**
 * How a resource answers `resources/read`, from its function's declared return type
 * (`Promise<T>` unwrapped): the `contents` of its contract (contract/contract.ts), and for JSON
 * the schema its value is checked against.
 */
import type { JsonSchema, ResourceContents } from "../contract/contract";
import type { Type, TypeChecker } from "./checker/checker";
import { TypeFlags } from "./checker/flags";
import type { Compilation } from "./compilation";
import { DiagnosticCode } from "./diagnostic-codes";
import type { Model } from "./model/model";
import { describeProblem, findProblems, lostData } from "./problems";
import { isTypemcpType } from "./registration";
import { writeRoot } from "./schema/root";
import { isTextType, textKind } from "./string-arguments";
import { unawaitableMessage, type ToolFunction } from "./tool-function";

const RESOURCE_CONTENTS = new Set(["TextResourceContents", "BlobResourceContents", "ResourceContents"]);

/** Each member of a union, or the type itself. */
function membersOf(type: Type, checker: TypeChecker): readonly Type[] {
  return checker.flags(type) & TypeFlags.Union ? checker.constituents(type) : [type];
}

/** typemcp's resource contents types, or arrays and unions of them: sent as they are. */
function isResourceContents(type: Type, checker: TypeChecker): boolean {
  if (isTypemcpType(type, RESOURCE_CONTENTS, checker)) return true;
  if (checker.isArrayType(type)) return isResourceContents(checker.typeArguments(type)[0], checker);
  return (
    (checker.flags(type) & TypeFlags.Union) !== 0 &&
    checker.constituents(type).every((t) => isResourceContents(t, checker))
  );
}

/** The standard library's `Uint8Array`, or a class or interface extending it (Node's `Buffer`): bytes. */
function isBytes(type: Type, checker: TypeChecker): boolean {
  return membersOf(type, checker).every((member) => {
    const symbol = checker.symbolOf(member);
    // Declared by the standard library (@types/node adds to it: isLibrarySymbol would say no).
    if (symbol && checker.symbolName(symbol) === "Uint8Array" && checker.hasLibraryDeclaration(symbol)) return true;
    const bases = checker.baseTypes(member);
    return bases.length > 0 && bases.some((base) => isBytes(base, checker));
  });
}

/**
 * A JSON resource's schema: the type's own, any root (a resource's contents are not tool
 * output, whose root must be an object); a named type is written in place, titled with its
 * name, as a tool's object output is.
 */
export function resourceSchema(model: Model): JsonSchema {
  if (model.kind !== "ref") return writeRoot({}, (writer) => writer.format(model));
  const { definition } = model;
  return writeRoot({ title: definition.title }, (writer) => writer.format(definition.model), definition);
}

/**
 * The contents a resource's function gives: `text` for a string type, `blob` for bytes,
 * `contents` for typemcp's resource contents types, `auto` when the return type says nothing
 * (`any`, `unknown`, not annotated), and `json` with its schema for any other type. A type
 * part of which JSON loses (a Map, a bigint) is an error, as a tool's result is; one that
 * cannot be described (a class with no declared properties, a type parameter) a warning, and
 * the resource is `auto`.
 */
export function resourceContents(
  c: Compilation,
  label: string,
  fn: ToolFunction,
): { contents: ResourceContents; outputSchema?: JsonSchema } {
  const { checker } = c;
  const auto = { contents: "auto" as const };
  if (fn.unawaitable) {
    c.error(
      fn.returnTypeNode,
      DiagnosticCode.OutputNotSerializable,
      unawaitableMessage(label, checker.typeToString(checker.returnType(fn.signature))),
    );
    return auto;
  }
  const type = fn.returnType;
  if (!type) return auto;
  if (isResourceContents(type, checker)) return { contents: "contents" };
  if (isBytes(type, checker)) return { contents: "blob" };
  const model = c.modeler.modelOf(type);
  if (model.kind === "any") return auto;
  if (textKind(model) === "string" && isTextType(type, checker)) return { contents: "text" };
  const problems = findProblems(model, "result");
  const lost = lostData(problems);
  if (lost.length) {
    c.error(
      fn.returnTypeNode,
      DiagnosticCode.OutputNotSerializable,
      `Function ${label}: return type ${checker.typeToString(type)} loses data on the way out: the resource's contents are its JSON text`,
      lost.map((p) => describeProblem(label, p)),
    );
    return auto;
  }
  if (problems.some((p) => !p.tag)) {
    c.warning(
      fn.returnTypeNode,
      DiagnosticCode.OutputNotSerializable,
      `Function ${label}: return type ${checker.typeToString(type)} cannot be described as JSON Schema, so the resource's contents are sent as the function returns them, unchecked (declare the data it returns)`,
      problems.map((p) => describeProblem(label, p)),
    );
    return auto;
  }
  // A tag typemcp cannot use costs that tag, never the schema, as for a tool's result.
  if (problems.length)
    c.warning(
      fn.returnTypeNode,
      DiagnosticCode.OutputNotSerializable,
      `Function ${label}: return type ${checker.typeToString(type)} keeps its schema without the JSDoc tags typemcp cannot use`,
      problems.map((p) => describeProblem(label, p)),
    );
  return { contents: "json", outputSchema: resourceSchema(model) };
}
