import * as ts from "typescript";

/** A JSON value as a TypeScript expression, to write the contract literal into the emitted call. */
export function jsonToExpression(value: unknown, factory: ts.NodeFactory): ts.Expression {
  if (value === null) return factory.createNull();
  if (value === true) return factory.createTrue();
  if (value === false) return factory.createFalse();
  if (typeof value === "string") return factory.createStringLiteral(value);
  if (typeof value === "number") {
    return value < 0 || Object.is(value, -0)
      ? factory.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, factory.createNumericLiteral(-value))
      : factory.createNumericLiteral(value);
  }
  if (Array.isArray(value)) return factory.createArrayLiteralExpression(value.map((v) => jsonToExpression(v, factory)), false);
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return factory.createObjectLiteralExpression(
      // `"__proto__": v` in an object literal sets the prototype; `["__proto__"]: v` is an own property.
      entries.map(([k, v]) => {
        const key = k === "__proto__" ? factory.createComputedPropertyName(factory.createStringLiteral(k)) : factory.createStringLiteral(k);
        return factory.createPropertyAssignment(key, jsonToExpression(v, factory));
      }),
      false,
    );
  }
  return factory.createIdentifier("undefined");
}
