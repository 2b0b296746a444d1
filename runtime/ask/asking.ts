/**
 * The questions of one request and their answers: what `ctx.elicit`, `ctx.elicitUrl`,
 * `ctx.sample` and `ctx.roots` do, on both protocol revisions, with the SDK's machinery.
 *
 * A question the request has no answer to yet is not sent by itself: the questions asked
 * together (before the function waits on anything but them) end the round, and the request is
 * answered `input_required` with them (`inputRequired()`), and a signed `requestState` that
 * carries the answers given so far (state.ts). A 2026-07-28 client answers and retries; on
 * 2025-11-25 the SDK sends the questions to the client over the connection and calls the
 * handler again with the answers (its legacy shim), so both revisions take this one path.
 *
 * On the retry the function runs again from the start, and each question already answered
 * returns its answer at once, matched by its key (the kind and its place in the call —
 * `elicit-1`, `sample-2` — or the key the function gave). Code before a question therefore runs
 * once per round: docs/asking.md says what that means for side effects.
 */
import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequest,
  type InputRequiredResult,
} from "@modelcontextprotocol/server";
import type { Read } from "./answers";
import type { RequestStates } from "./state";

/** What a round of a request came to: the function's value, or the questions it is waiting on, or a refused answer. */
export type Round =
  | { kind: "done"; value: unknown }
  | { kind: "asked"; result: InputRequiredResult }
  | { kind: "refused"; error: ProtocolError };

/** What identifies a request across its rounds: the method and name, and the arguments' digest. */
export interface CallIdentity {
  call: string;
  digest: string;
}

/** A promise that never settles: the function waits on it until its round ends, and is then dropped. */
function waitForRetry<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Runs `fn` once the promise jobs queued now have run: setImmediate where there is one (Node, Bun, Deno), else a timer. */
const afterPromiseJobs: (fn: () => void) => void =
  typeof setImmediate === "function" ? (fn) => void setImmediate(fn) : (fn) => void setTimeout(fn, 0);

export class Asking {
  /** The questions asked so far in this round, by key: to tell a key given twice. */
  private readonly keys = new Set<string>();
  /** The questions without an answer yet, by key. */
  private pending?: Map<string, InputRequest>;
  /** How many questions of each kind were asked: their default keys. */
  private count = 0;
  /** Ends the round (set by `race`). */
  private end?: (round: Round) => void;
  /** Set when the round ended: later questions are not asked. */
  private ended = false;

  constructor(
    private readonly states: RequestStates,
    private readonly identity: () => Promise<CallIdentity>,
    /** The answers given so far (from the state and this retry's inputResponses), by key. */
    private readonly answers: Record<string, unknown> = {},
    /** Keys whose answer the SDK dropped as not a response object. */
    private readonly dropped: ReadonlySet<string> = new Set(),
  ) {}

  /** Asks one question: its answer when the client gave it, else a promise the function waits on until the retry. */
  ask<T>(kind: string, key: string | undefined, request: InputRequest, read: (answer: unknown) => Read<T>): Promise<T> {
    this.count++;
    const name = key ?? `${kind}-${this.count}`;
    if (typeof name !== "string" || name === "")
      return Promise.reject(new TypeError(`typemcp: a question's key is a non-empty string (got ${String(key)})`));
    if (this.keys.has(name))
      return Promise.reject(new Error(`typemcp: two questions of one request have the key ${JSON.stringify(name)}`));
    this.keys.add(name);
    if (this.dropped.has(name)) {
      this.refuse(name, "is not a response object");
      return waitForRetry();
    }
    if (hasOwn.call(this.answers, name)) {
      const answer = read(this.answers[name]);
      if (answer.ok) return Promise.resolve(answer.value);
      this.refuse(name, answer.why);
      return waitForRetry();
    }
    if (this.ended) return waitForRetry();
    if (!this.pending) {
      this.pending = new Map();
      // The questions asked in the same turn (`Promise.all([ctx.elicit(...), ctx.sample(...)])`)
      // go in one round: the round ends once the function has run up to where it waits (its
      // promise jobs all run). setImmediate, not setTimeout(0): Node makes that at least 1 ms,
      // which was most of a round trip's cost.
      afterPromiseJobs(() => void this.close());
    }
    this.pending.set(name, request);
    return waitForRetry();
  }

  /**
   * The round of a function that returned a promise: its value when it settles first, or the
   * questions it asked once it waits on them. A rejection is the function's, as always.
   */
  race(value: PromiseLike<unknown>): Promise<Round> {
    return new Promise<Round>((resolve, reject) => {
      if (this.refusal) return resolve({ kind: "refused", error: this.refusal });
      this.end = (round) => {
        this.ended = true;
        this.afterRound?.();
        resolve(round);
      };
      Promise.resolve(value).then((settled) => this.end!({ kind: "done", value: settled }), reject);
    });
  }

  /** Whether the function asked a question it has no answer to, or was given an answer it cannot take. */
  get waiting(): boolean {
    return this.pending !== undefined || this.ended;
  }

  private refuse(key: string, why: string): void {
    const error = new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid input response ${JSON.stringify(key)}: it ${why}`,
    );
    if (this.end) this.end({ kind: "refused", error });
    else {
      this.ended = true;
      this.refusal = error;
    }
  }

  /** Called when the round ends (the function's timeout stops). */
  afterRound?: () => void;

  /** A refusal made before `race` (the function asked synchronously): `race` answers it. */
  refusal?: ProtocolError;

  /** Ends the round with the questions asked: `input_required`, and the answers so far in a signed state. */
  private async close(): Promise<void> {
    if (this.ended || !this.pending) return;
    const inputRequests = Object.fromEntries(this.pending);
    // Carried: the answers this run used (extra ones a client sent are not).
    const carried: Record<string, unknown> = {};
    for (const key of this.keys) if (hasOwn.call(this.answers, key)) carried[key] = this.answers[key];
    try {
      const { call, digest } = await this.identity();
      const requestState = await this.states.mint({ c: call, h: digest, a: carried });
      this.end?.({ kind: "asked", result: inputRequired({ inputRequests, requestState }) });
    } catch (error) {
      this.end?.({
        kind: "refused",
        error: new ProtocolError(
          ProtocolErrorCode.InternalError,
          `the request's state could not be signed: ${error instanceof Error ? error.message : String(error)}`,
        ),
      });
    }
  }
}
