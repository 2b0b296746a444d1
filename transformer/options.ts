import type * as ts from "typescript";
import type { Type, TypeChecker } from "./checker/checker";

/** What the transformer can know of `mcp.tool(fn, options)`'s options at build time. */
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
