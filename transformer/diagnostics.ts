import * as path from "node:path";
import type * as ts from "typescript";
import type { Diagnostic, MessageChain } from "./checker/checker";
import type { DiagnosticCategory } from "./checker/flags";

/** A diagnostic at `node`, whose message may carry detail lines (printed indented by tsc). */
export function diagnosticAt(
  node: ts.Node,
  category: DiagnosticCategory,
  code: number,
  message: string,
  details: string[] = [],
): Diagnostic {
  const sourceFile = node.getSourceFile();
  const messageText: string | MessageChain = details.length
    ? { messageText: message, category, code, next: details.map((d) => ({ messageText: d, category, code })) }
    : message;
  return {
    file: sourceFile,
    start: node.getStart(sourceFile),
    length: node.getWidth(sourceFile),
    category,
    code,
    messageText,
    source: "typemcp",
  };
}

/** A message and the messages it leads to (a MessageChain, or TypeScript's DiagnosticMessageChain). */
interface Chained {
  messageText: string;
  next?: readonly Chained[];
}

/** A message with its chain, one line per link, indented by depth: as ts.flattenDiagnosticMessageText writes it. */
export function flattenMessage(message: string | Chained | undefined, newLine = "\n", indent = 0): string {
  if (message === undefined) return "";
  if (typeof message === "string") return message;
  let result = indent ? newLine + "  ".repeat(indent) : "";
  result += message.messageText;
  for (const next of message.next ?? []) result += flattenMessage(next, newLine, indent + 1);
  return result;
}

export function diagnosticText(diagnostic: Pick<Diagnostic, "messageText">): string {
  return flattenMessage(diagnostic.messageText);
}

/** `src/server.ts:12:1`: where a node starts, its file relative to the working directory. */
export function locationOf(node: ts.Node): string {
  const file = node.getSourceFile();
  const { line, character } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${path.relative(process.cwd(), file.fileName) || file.fileName}:${line + 1}:${character + 1}`;
}
