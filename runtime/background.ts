import type { FaultLog } from "./faults";

let installed = false;

/**
 * A promise rejected with nobody to handle it ends a Node process (exit code 1) by default;
 * a server that promises to keep serving logs it instead, with its stack (which names the
 * function that made it), once per cause (the fault log's rule), and goes on. A process that
 * listens for `unhandledRejection` itself decides alone: typemcp then adds nothing. An exception
 * thrown synchronously outside a call (in a timer's callback, an event handler) is not caught:
 * after one, the process's state is unknown, and Node's own rule (print it, exit with code 1)
 * stands.
 *
 * The call the rejection came from is not named: knowing it takes AsyncLocalStorage, which on
 * Node 20 tracks every promise, and made a stdio call 5 % slower (158 µs → 166 µs over a real
 * stdio process, 30,000 calls, three runs each).
 */
export function catchUnhandledRejections(faults: FaultLog | undefined): void {
  if (installed) return;
  installed = true;
  process.on("unhandledRejection", (reason) => {
    if (process.listenerCount("unhandledRejection") > 1) return;
    faults?.background(reason);
  });
}
