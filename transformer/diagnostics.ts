import ts from "typescript";

/**
 * typemcp's diagnostic codes. tsc prints them as `error TS93001: ...`; the README's table
 * lists them. Keep numbers stable: users may filter on them.
 */
export const DiagnosticCode = {
  /** The return type cannot be described; the tool answers with text only (warning), or structuredOutput: true made it an error. */
  OutputNotSerializable: 93001,
  /** A parameter's type cannot be described as JSON Schema. */
  InputNotSerializable: 93002,
  /** The registration itself is wrong: not a function, overloaded, no name, bad name, rest parameter... */
  InvalidRegistration: 93003,
  /** The transformer failed on this registration; the call is left to fail at run time with this message. */
  InternalError: 93099,
} as const;

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
