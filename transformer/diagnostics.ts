import * as path from "node:path";
import ts from "typescript";

/** A diagnostic at `node`, whose message may carry detail lines (printed indented by tsc). */
export function diagnosticAt(
  node: ts.Node,
  category: ts.DiagnosticCategory,
  code: number,
  message: string,
  details: string[] = [],
): ts.Diagnostic {
  const sourceFile = node.getSourceFile();
  const messageText: string | ts.DiagnosticMessageChain = details.length
    ? { messageText: message, category, code, next: details.map((d) => ({ messageText: d, category, code })) }
    : message;
  return { file: sourceFile, start: node.getStart(sourceFile), length: node.getWidth(sourceFile), category, code, messageText, source: "typemcp" };
}

export function diagnosticText(diagnostic: ts.Diagnostic): string {
  return ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
}

/** `src/server.ts:12:1`: where a node starts, its file relative to the working directory. */
export function locationOf(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${path.relative(process.cwd(), file.fileName) || file.fileName}:${line + 1}:${character + 1}`;
}
