import type { AsyncLocalStorage } from "node:async_hooks";
import type { FaultLog, Who } from "./faults";

/**
 * Which registration's call a piece of work belongs to, so that a rejection nobody handled can
 * be named after it. Made only by `catchUnhandledRejections` (under `mcp.run()`): on Node 20,
 * AsyncLocalStorage tracks every promise, a cost a server that never asks for it does not pay.
 */
let calls: AsyncLocalStorage<Who> | undefined;

/** `fn(...args)`, within `who`'s context when rejections are being caught. */
export function callAs(who: Who, fn: (...args: unknown[]) => unknown, args: unknown[]): unknown {
  return calls ? calls.run(who, () => fn(...args)) : fn(...args);
}

let installed = false;

/**
 * A promise rejected with nobody to handle it ends a Node process (exit code 1) by default;
 * a server that promises to keep serving logs it instead, with the tool whose call started the
 * work where that is known, once per cause (the fault log's rule), and goes on. A process that
 * listens for `unhandledRejection` itself decides alone: typemcp then adds nothing. An exception
 * thrown synchronously outside a call (in a timer's callback, an event handler) is not caught:
 * after one, the process's state is unknown, and Node's own rule (print it, exit with code 1)
 * stands.
 */
export function catchUnhandledRejections(faults: FaultLog | undefined): void {
  if (installed) return;
  installed = true;
  const { AsyncLocalStorage } = require("node:async_hooks") as typeof import("node:async_hooks");
  calls = new AsyncLocalStorage<Who>();
  process.on("unhandledRejection", (reason) => {
    if (process.listenerCount("unhandledRejection") > 1) return;
    // Node runs this listener in the rejected promise's async context: the call that made it.
    faults?.background(calls?.getStore(), reason);
  });
}
