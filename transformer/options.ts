import ts from "typescript";

/** What the transformer can know of `mcp.tool(fn, options)`'s options at build time. */
export interface StaticOptions {
  /** `options.name`, when it is a string literal type. */
  name?: string;
  /** `options.structuredOutput`, when it is `true` or `false` (else auto). */
  structuredOutput?: boolean;
}

/** The type of one option: from the initializer in an object literal (where literal types survive), else from the options' type. */
function optionType(options: ts.Expression, key: string, checker: ts.TypeChecker): ts.Type | undefined {
  if (ts.isObjectLiteralExpression(options)) {
    for (const property of options.properties) {
      if (property.name && ts.isIdentifier(property.name) && property.name.text === key) {
        if (ts.isPropertyAssignment(property)) return checker.getTypeAtLocation(property.initializer);
        if (ts.isShorthandPropertyAssignment(property)) return checker.getTypeAtLocation(property.name);
      }
    }
  }
  const symbol = checker.getTypeAtLocation(options).getProperty(key);
  return symbol && checker.getTypeOfSymbol(symbol);
}

export function readStaticOptions(options: ts.Expression | undefined, checker: ts.TypeChecker): StaticOptions {
  if (!options) return {};
  const result: StaticOptions = {};
  const name = optionType(options, "name", checker);
  if (name?.isStringLiteral()) result.name = name.value;
  const structured = optionType(options, "structuredOutput", checker);
  if (structured && structured.flags & ts.TypeFlags.BooleanLiteral) {
    result.structuredOutput = checker.typeToString(structured) === "true";
  }
  return result;
}
