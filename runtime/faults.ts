import type { Issue, Path } from "./validation/issues";

/**
 * Where something was called from: the caller's stack frame, captured when the call is made
 * and formatted only when asked (V8 formats a captured stack lazily), for the messages that
 * name a registration's place.
 */
export class CallSite {
  private readonly holder: { stack?: string } = {};

  /** `callee`: the function whose caller is wanted (its own frame and those above it are left out). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  constructor(callee: Function) {
    // One frame is all `location` reads: capturing the whole stack made a registration cost
    // three times as much (500 tools: 7 ms of a server's start).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 1;
    try {
      (Error as { captureStackTrace?: (target: object, callee: unknown) => void }).captureStackTrace?.(
        this.holder,
        callee,
      );
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  /** `src/server.ts:12:5` (relative to the working directory when under it), or undefined when unknown. */
  get location(): string | undefined {
    let stack: string | undefined;
    try {
      stack = this.holder.stack;
    } catch {
      return undefined;
    }
    const frame = stack?.split("\n").find((line) => /^\s+at /.test(line));
    if (!frame) return undefined;
    const text = frame.replace(/^\s+at (async )?/, "");
    const inParentheses = /\((.*)\)$/.exec(text);
    return relative((inParentheses ? inParentheses[1] : text).replace(/^file:\/\//, ""));
  }
}

function relative(file: string): string {
  const cwd = typeof process !== "undefined" && typeof process.cwd === "function" ? process.cwd() : undefined;
  if (!cwd) return file;
  const prefix =
    cwd.endsWith("/") || cwd.endsWith("\\") ? cwd : `${cwd}${cwd.includes("\\") && !cwd.includes("/") ? "\\" : "/"}`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

/** What a registration is, as messages and the log name it: `tool "get_weather"`, `resource "config://app"`. */
export interface Who {
  kind: "tool" | "prompt" | "resource";
  name: string;
}

/**
 * A fault in a registered function's own code, which its client was answered about (a tool's
 * isError, a prompt's or resource's JSON-RPC error) and its developer must see.
 */
export type Fault =
  | { kind: "threw"; error: unknown; message: string }
  | { kind: "invalid result"; message: string; issues: readonly Issue[] }
  | { kind: "unsendable result"; message: string; at?: { reason: string; path: Path; dataKeys: readonly number[] } };

/** Distinct causes remembered; past that many, no new cause is logged (a log never grows without end). */
const MAX_CAUSES = 1000;

/**
 * Logs faults to stderr, never stdout (where stdio's JSON-RPC goes), once per distinct cause:
 * an exception thrown from the same place (the same stack frames, whatever its message says),
 * or a result breaking the same part of the declared type the same way.
 */
export class FaultLog {
  private readonly causes = new Set<string>();

  report(who: Who, site: CallSite | undefined, fault: Fault): void {
    try {
      this.log(`${who.kind} ${who.name}\n${fault.kind}\n${causeOf(fault)}`, () => describeFault(who, site, fault));
    } catch {
      // Logging must never fail a call.
    }
  }

  /** A promise rejected with nobody to handle it (see runtime/background.ts): the process goes on. */
  background(reason: unknown): void {
    this.thrown("unhandled rejection", reason, "a promise was rejected with no handler (the process keeps serving)");
  }

  /** A token verifier (`auth.verify`) that failed rather than refuse the token: the request was answered 500. */
  verifier(error: unknown): void {
    this.thrown("token verifier", error, "the token verifier (auth.verify) failed, and the request was answered 500");
  }

  /** A value thrown outside any registration's call: `happened`, then its stack; once per cause. */
  private thrown(what: string, error: unknown, happened: string): void {
    try {
      const message = stackOf(error) ?? errorText(error);
      this.log(`${what}\n${causeOf({ kind: "threw", error, message })}`, () => `typemcp: ${happened}: ${message}\n`);
    } catch {
      // Logging must never throw.
    }
  }

  private log(cause: string, text: () => string): void {
    if (this.causes.has(cause)) return;
    if (this.causes.size >= MAX_CAUSES) {
      if (this.causes.size === MAX_CAUSES) {
        this.causes.add("");
        write(`typemcp: ${MAX_CAUSES} distinct errors were logged; further ones are not\n`);
      }
      return;
    }
    this.causes.add(cause);
    write(text());
  }
}

function stackOf(error: unknown): string | undefined {
  try {
    const stack = error instanceof Error ? error.stack : undefined;
    return typeof stack === "string" ? stack : undefined;
  } catch {
    return undefined;
  }
}

function causeOf(fault: Fault): string {
  switch (fault.kind) {
    case "threw": {
      // The frames, not the message: the same bug reached with other data is one cause.
      const frames = stackOf(fault.error)
        ?.split("\n")
        .filter((line) => /^\s+at /.test(line));
      // Without frames, what was thrown is one cause per kind of value: its message may carry
      // the client's data, and a client would then choose how many causes there are.
      return frames?.length ? frames.join("\n") : `no stack: ${fault.error === null ? "null" : typeof fault.error}`;
    }
    case "invalid result":
      // Where in the declared type and how, not with what value: item 3 and item 7 missing the
      // same field are one cause, and so are two keys of a record (the value chose them).
      return fault.issues.map((issue) => `${issue.keyword} ${shapeOf(issue.path, issue.dataKeys)}`).join("\n");
    case "unsendable result":
      return fault.at
        ? `${fault.at.reason} ${shapeOf(fault.at.path, fault.at.dataKeys)}`
        : fault.message.replace(/\[\d+\]/g, "[]");
  }
}

/** A path as the declared type has it: indices as #, the keys a value chose as *. */
function shapeOf(path: Path, dataKeys: readonly number[] = []): string {
  return path
    .map((key, at) => (typeof key === "number" ? "#" : dataKeys.includes(at) ? "*" : JSON.stringify(key)))
    .join("/");
}

function errorText(reason: unknown): string {
  try {
    return String(reason);
  } catch {
    return typeof reason;
  }
}

function describeFault(who: Who, site: CallSite | undefined, fault: Fault): string {
  const name = `${who.kind} ${JSON.stringify(who.name)}`;
  const answered =
    who.kind === "tool" ? "(the client was answered with isError)" : "(the client was answered with an error)";
  const where = site?.location;
  const registered = where ? `    registered at ${where}\n` : "";
  switch (fault.kind) {
    case "threw":
      return `typemcp: ${name} threw ${answered}: ${stackOf(fault.error) ?? fault.message}\n`;
    case "invalid result":
      return `typemcp: ${name} returned a value its declared type does not allow ${answered}: ${fault.message}\n${registered}`;
    case "unsendable result":
      return `typemcp: ${name} returned a value that cannot be sent as JSON ${answered}: ${fault.message}\n${registered}`;
  }
}

function write(text: string): void {
  const stderr = typeof process !== "undefined" ? process.stderr : undefined;
  if (stderr && typeof stderr.write === "function") stderr.write(text);
  else console.error(text.replace(/\n$/, ""));
}
