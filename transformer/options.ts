import type * as ts from "typescript";
import type { Type, TypeChecker } from "./checker/checker";

/** What the transformer can know of a registration's options at build time. */
export interface StaticOptions {
  /** `options.name`, when it is a string literal type. */
  name?: string;
  /** `options.structuredOutput`, when it is `true` or `false` (else auto). */
  structuredOutput?: boolean;
}

/** The type of one option: from the initializer in an object literal (where literal types survive), else from the options' type. */
function optionType(options: ts.Expression, key: string, checker: TypeChecker): Type | undefined {
  const { syntax } = checker;
  if (syntax.isObjectLiteralExpression(options)) {
    for (const property of options.properties) {
      if (property.name && syntax.isIdentifier(property.name) && property.name.text === key) {
        if (syntax.isPropertyAssignment(property)) return checker.typeAt(property.initializer);
        if (syntax.isShorthandPropertyAssignment(property)) return checker.typeAt(property.name);
      }
    }
  }
  const symbol = checker.property(checker.typeAt(options), key);
  return symbol && checker.typeOfSymbol(symbol);
}

export function readStaticOptions(options: ts.Expression | undefined, checker: TypeChecker): StaticOptions {
  if (!options) return {};
  const result: StaticOptions = {};
  const name = optionType(options, "name", checker);
  const nameValue = name && checker.literalValue(name);
  if (typeof nameValue === "string") result.name = nameValue;
  const structured = optionType(options, "structuredOutput", checker);
  const structuredValue = structured && checker.literalValue(structured);
  if (typeof structuredValue === "boolean") result.structuredOutput = structuredValue;
  return result;
}

/**
 * The keys of `options.complete` (a prompt's or resource template's completers, by argument),
 * where both are written as object literals, with the node of each key: each must name an
 * argument. A key the build cannot read (computed, spread) is left to the runtime.
 */
export function completeKeys(
  options: ts.Expression | undefined,
  checker: TypeChecker,
): { name: string; node: ts.Node }[] {
  const { syntax } = checker;
  if (!options || !syntax.isObjectLiteralExpression(options)) return [];
  const complete = options.properties.find(
    (p): p is ts.PropertyAssignment =>
      syntax.isPropertyAssignment(p) && syntax.isIdentifier(p.name) && p.name.text === "complete",
  );
  if (!complete || !syntax.isObjectLiteralExpression(complete.initializer)) return [];
  const keys: { name: string; node: ts.Node }[] = [];
  for (const property of complete.initializer.properties) {
    const name = property.name;
    if (!name) continue; // a spread (`...others`)
    if (syntax.isIdentifier(name) || syntax.isStringLiteral(name) || syntax.isNumericLiteral(name))
      keys.push({ name: name.text, node: name });
  }
  return keys;
}
