import type * as ts from "typescript";

/**
 * The contract as it is written into the emitted call: `JSON.parse('{"v":2,...}')`. One
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

/** Characters a single-quoted string literal escapes, as TypeScript's printer escapes them. */
// eslint-disable-next-line no-control-regex -- the control characters are what these find
const ESCAPED = /[\\'\u0000-\u001f\u2028\u2029\u0085]/g;
// eslint-disable-next-line no-control-regex -- the range starts at U+0000: everything above ASCII
const NON_ASCII = /[^\u0000-\u007f]/g;
const ESCAPES: Record<string, string> = {
  "\t": "\\t",
  "\v": "\\v",
  "\f": "\\f",
  "\b": "\\b",
  "\r": "\\r",
  "\n": "\\n",
  "\\": "\\\\",
  "'": "\\'",
};
const unicode = (c: string) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * The contract expression's text, as TypeScript 5's printer writes contractExpression's node:
 * the JSON in single quotes, quotes, backslashes, control and non-ASCII characters escaped.
 * (TypeScript 7's build writes this text into the emitted calls: the same bytes as under tspc.)
 */
export function contractText(contract: unknown): string {
  const escaped = JSON.stringify(contract)
    .replace(ESCAPED, (c, offset: number, input: string) => {
      if (c === "\0") return /[0-9]/.test(input.charAt(offset + 1)) ? "\\x00" : "\\0";
      return ESCAPES[c] ?? unicode(c);
    })
    .replace(NON_ASCII, unicode);
  return `JSON.parse('${escaped}')`;
}
