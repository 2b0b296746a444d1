/**
 * The requests in flight and the shutdown that waits for them: a shutdown stops taking
 * requests, waits for the ones running (up to `shutdownTimeout`), then answers those still
 * running itself, so that no request goes unanswered and no function keeps a process alive.
 */
export class Lifecycle {
  /** Answers not sent yet, each with what answers it at once when the deadline passes. */
  private readonly inFlight = new Map<Promise<unknown>, () => void>();
  /** Set once a shutdown began: new requests are refused. */
  closing = false;

  constructor(
    /** Milliseconds a shutdown waits for the requests in flight. */
    readonly shutdownTimeout: number,
  ) {}

  /**
   * The answer to an async request, kept among those in flight until it is sent, or until the
   * client is gone (`signal` aborted: the client cancelled, the connection closed, a 2026-07-28
   * request's HTTP exchange ended): nothing will read the answer then, so the request lets go of
   * what it holds at once (its function's promise, its context, its server instance) and a
   * shutdown does not wait for it. The function itself learns it through its ToolContext's
   * signal, the same signal. `expired` makes the answer a shutdown past its deadline sends
   * instead (a tool's isError result), or throws the error it sends (a prompt's or resource's);
   * `failed` the answer should the request reject, which the kinds never do (they answer every
   * failure).
   */
  track<T>(request: Promise<T>, expired: () => T, failed: (error: unknown) => T, signal?: AbortSignal): Promise<T> {
    let answerNow!: () => void;
    let dropped!: () => void;
    const answer = new Promise<T>((resolve, reject) => {
      const settle = (make: () => T) => {
        try {
          resolve(make());
        } catch (error) {
          reject(error);
        }
      };
      request.then(resolve, (error: unknown) => settle(() => failed(error)));
      answerNow = () => settle(expired);
      dropped = () => reject(new Abandoned());
    });
    this.inFlight.set(answer, answerNow);
    const settled = () => {
      this.inFlight.delete(answer);
      signal?.removeEventListener("abort", dropped);
    };
    answer.then(settled, settled);
    if (signal) {
      if (signal.aborted) dropped();
      else signal.addEventListener("abort", dropped, { once: true });
    }
    return answer;
  }

  /** Waits for the requests in flight, up to the deadline, then answers the rest. */
  async drain(): Promise<void> {
    this.closing = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<"expired">(
      (resolve) => (timer = setTimeout(() => resolve("expired"), this.shutdownTimeout)),
    );
    while (this.inFlight.size) {
      if ((await Promise.race([Promise.allSettled([...this.inFlight.keys()]), deadline])) === "expired") break;
    }
    clearTimeout(timer);
    for (const answerNow of [...this.inFlight.values()]) answerNow();
    // The last answers are written a few promise steps after their requests settle.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** What a request whose client is gone settles with: nobody reads it (the SDK sends no answer to an aborted request). */
export class Abandoned extends Error {
  constructor() {
    super("the client is gone: the request was cancelled or its connection closed");
  }
}
