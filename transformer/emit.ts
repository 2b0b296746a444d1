import type * as ts from "typescript";

/**
 * The contract as it is written into the emitted call: `JSON.parse('{"v":1,...}')`. One
 * string literal instead of an object literal of thousands of nodes: the printer writes it in
 * one piece (faster builds), V8 parses JSON faster than the same object as code (faster
 * start-up), and JSON.parse keeps a `"__proto__"` key an own property. Single quotes keep the
 * JSON inside readable.
 */
export function contractExpression(contract: unknown, factory: ts.NodeFactory): ts.Expression {
  return factory.createCallExpression(
    factory.createPropertyAccessExpression(factory.createIdentifier("JSON"), "parse"),
    undefined,
    [factory.createStringLiteral(JSON.stringify(contract), true)],
  );
}
