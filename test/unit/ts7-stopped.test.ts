/**
 * When TypeScript 7's API process has stopped: one test (transformer/ts7/api.ts,
 * isApiStopFailure) for the checker, which remembers the failure, and the CLI's session, which
 * starts the process again.
 */
import * as ts from "typescript";
import { isApiStopFailure, type ApiChecker, type ApiProgram } from "../../transformer/ts7/api";
import { Ts7Checker } from "../../transformer/ts7/checker";
import type { Ts7Modules } from "../../transformer/ts7/modules";

/** The modules the checker reads its flags and kinds from: TypeScript 5's, numbered as 7's are. */
const modules = {
  is: {},
  SyntaxKind: ts.SyntaxKind,
  NodeFlags: ts.NodeFlags,
  TypeFlags: ts.TypeFlags,
  SymbolFlags: ts.SymbolFlags,
} as unknown as Ts7Modules;

/** A checker whose API answers every question by throwing `failure`. */
function checkerFailingWith(failure: Error): Ts7Checker {
  const api = new Proxy({} as ApiChecker, {
    get: () => () => {
      throw failure;
    },
  });
  return new Ts7Checker(api, {} as ApiProgram, modules);
}

const STOPPED = [
  "panic: json: unsupported value: +Inf\n\ngoroutine 1 [running]:",
  "SyncRpcChannel: the channel is closed",
  "write EPIPE",
  "unexpected EOF",
];

test.each(STOPPED)("%j is the process stopping, for the checker and the session alike", (message) => {
  expect(isApiStopFailure(new Error(message))).toBe(true);
  expect(isApiStopFailure(message)).toBe(true);
  const checker = checkerFailingWith(new Error(message));
  expect(() => checker.api.getTypeArguments({} as never)).toThrow(message);
  expect(checker.stoppedBy?.message).toBe(message);
});

test("a question the checker cannot answer is not the process stopping", () => {
  const message = "Could not find symbol 'x' in file";
  expect(isApiStopFailure(new Error(message))).toBe(false);
  const checker = checkerFailingWith(new Error(message));
  expect(() => checker.api.getTypeArguments({} as never)).toThrow(message);
  expect(checker.stoppedBy).toBeUndefined();
});
