import { EventEmitter } from "node:events";
import {
  ProtocolErrorCode,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type Server,
  type Transport,
} from "@modelcontextprotocol/server";
import type { StdioServerHandle } from "@modelcontextprotocol/server/stdio";

/** The SDK's stdio entry, loaded when a server first serves a connection (an HTTP-only server never needs it). */
function stdioModule(): typeof import("@modelcontextprotocol/server/stdio") {
  return require("@modelcontextprotocol/server/stdio") as typeof import("@modelcontextprotocol/server/stdio");
}

/**
 * The largest message `mcp.run()` reads on stdio, in bytes (its line, without the newline):
 * the SDK's own stdio limit, 10 MB. A longer line is answered with an error and skipped.
 */
export const MAX_STDIO_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** How much of a message over the limit is kept to find its id: a client writes `id` near the start. */
const OVERSIZED_PREFIX_BYTES = 64 * 1024;

/** The input of each transport `stdioTransport` made, for serveConnection to find the line an error is about. */
const inputs = new WeakMap<Transport, LineInput>();

/**
 * Serves one connection over any SDK transport with the SDK's stdio entry: the client's first
 * message pins it to 2026-07-28 (`server/discover`, or a request with the `_meta` envelope) or
 * to 2025-11-25 (`initialize`); `instance` makes the server instance that serves it.
 */
export function serveConnection(transport: Transport, instance: () => Server): StdioServerHandle {
  const input = inputs.get(transport);
  // The SDK's stdio transport skips a line that is not JSON, and reports JSON that is not
  // JSON-RPC here without a word to the client: JSON-RPC answers it, and the connection goes on
  // serving either way. The answer names the request's id when the line is known (mcp.run's
  // stdio: the error is reported while that line is delivered) and has one; id null otherwise.
  const onerror = (error: Error) => {
    if (error.name !== "ZodError") return;
    const line = input?.current;
    answer(transport, line === undefined ? null : idOf(line), "the message is not JSON-RPC 2.0");
  };
  return stdioModule().serveStdio(instance, { transport, onerror });
}

function answer(transport: Transport, id: string | number | null, why: string): void {
  const message = {
    jsonrpc: "2.0" as const,
    id,
    error: { code: ProtocolErrorCode.InvalidRequest, message: `Invalid Request: ${why}` },
  };
  void transport.send(message as never).catch(() => undefined);
}

/** The top-level `id` of a JSON-RPC message (a string or a number), or null. */
function idOf(line: Buffer): string | number | null {
  try {
    const message: unknown = JSON.parse(line.toString("utf8"));
    if (message === null || typeof message !== "object" || Array.isArray(message)) return null;
    const id = (message as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? id : null;
  } catch {
    return null;
  }
}

/**
 * The transport of `mcp.run()` on stdio: the SDK's, reading stdin through a LineInput.
 *
 * - The SDK's transport closes when its buffer overflows (a line over 10 MB), and the process
 *   then exits with code 0, silently. LineInput hands it whole lines only, each within the
 *   limit; a longer one is skipped as it streams (never held: its first 64 KB are kept to find
 *   its id), answered with -32600, and logged to stderr.
 * - The SDK's transport stops reading, and drops the requests in flight, when stdin ends;
 *   typemcp answers them first (a client may write its requests, then close stdin). So the
 *   transport never sees the end: the end of stdin calls `onEnd` (which closes the server the
 *   way SIGTERM does).
 */
export function stdioTransport(onEnd: () => void, maxBytes = MAX_STDIO_MESSAGE_BYTES): Transport {
  const input = new LineInput();
  // The newline and a carriage return before it are the SDK's to strip: a line of maxBytes passes.
  const transport = new (stdioModule().StdioServerTransport)(input as never, process.stdout, {
    maxBufferSize: maxBytes + 2,
  });
  inputs.set(transport, input);
  const frame = lineFramer(
    maxBytes,
    (line) => input.deliver(line),
    (bytes, prefix) => {
      const id = topLevelId(prefix);
      process.stderr.write(
        `typemcp: a message of ${bytes} bytes on stdin was refused: the limit is ${maxBytes} bytes (answered with id ${JSON.stringify(id)})\n`,
      );
      answer(transport, id, `the message is ${bytes} bytes, over the limit of ${maxBytes} bytes on stdio`);
    },
  );
  process.stdin.on("data", (chunk: Buffer | string) => frame(typeof chunk === "string" ? Buffer.from(chunk) : chunk));
  process.stdin.once("end", onEnd);
  return transport;
}

/**
 * What the SDK's stdio transport reads: one whole line per `data` event, so that an error it
 * reports while reading it is about `current`. It never ends (see stdioTransport).
 */
class LineInput extends EventEmitter {
  readonly readableEnded = false;
  readonly destroyed = false;
  current?: Buffer;

  deliver(line: Buffer): void {
    this.current = line;
    try {
      this.emit("data", line);
    } finally {
      this.current = undefined;
    }
  }

  pause(): this {
    return this;
  }
}

/**
 * Splits a byte stream into lines (each with its newline): `line` gets each line of at most
 * `maxBytes` bytes before its newline; `oversized` gets the size of a longer one, and its first
 * bytes, once it ends. A line within one chunk is passed on without a copy.
 */
export function lineFramer(
  maxBytes: number,
  line: (bytes: Buffer) => void,
  oversized: (bytes: number, prefix: Buffer) => void,
): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let length = 0;
  let skipped: { bytes: number; prefix: Buffer } | undefined;
  return (chunk) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (skipped) skipped.bytes += end - start;
      else if (length + end - start > maxBytes) {
        parts.push(chunk.subarray(start, end));
        skipped = {
          bytes: length + end - start,
          prefix: Buffer.concat(parts, Math.min(OVERSIZED_PREFIX_BYTES, length + end - start)),
        };
        parts = [];
        length = 0;
      } else {
        parts.push(chunk.subarray(start, newline === -1 ? end : end + 1));
        length += end - start;
      }
      if (newline === -1) return;
      if (skipped) {
        const { bytes, prefix } = skipped;
        skipped = undefined;
        oversized(bytes, prefix);
      } else {
        const whole = parts.length === 1 ? parts[0] : Buffer.concat(parts);
        parts = [];
        length = 0;
        line(whole);
      }
      start = newline + 1;
    }
  };
}

/**
 * The `id` member of the JSON object that `text` begins (a string or a number), read without
 * parsing the rest: members are skipped by their brackets and strings. Null when `text` is not
 * an object, has no such member, or ends before it.
 */
export function topLevelId(bytes: Buffer): string | number | null {
  const text = bytes.toString("utf8");
  const ws = /[ \t\r\n]*/y;
  const string = /"[^"\\]*(?:\\.[^"\\]*)*"/y;
  const scalar = /[^,}\]\s]*/y;
  let i = 0;
  const skip = (pattern: RegExp) => {
    pattern.lastIndex = i;
    const match = pattern.exec(text);
    i = pattern.lastIndex;
    return match;
  };
  skip(ws);
  if (text[i++] !== "{") return null;
  for (;;) {
    skip(ws);
    const key = skip(string);
    if (!key) return null;
    skip(ws);
    if (text[i++] !== ":") return null;
    skip(ws);
    if (key[0] === '"id"') {
      const value = text[i] === '"' ? skip(string) : skip(scalar);
      // A number running to the end of the text may have been cut short.
      if (i >= text.length) return null;
      try {
        const id: unknown = value && JSON.parse(value[0]);
        return typeof id === "string" || typeof id === "number" ? id : null;
      } catch {
        return null;
      }
    }
    // Skip the value: a string, a scalar, or brackets counted (strings inside them skipped whole).
    let depth = 0;
    for (;;) {
      if (i >= text.length) return null;
      const c = text[i];
      if (c === '"') {
        if (!skip(string)) return null;
      } else if (c === "{" || c === "[") {
        depth++;
        i++;
      } else if (c === "}" || c === "]") {
        if (depth === 0) break;
        depth--;
        i++;
      } else if (c === "," && depth === 0) break;
      else i++;
      if (depth === 0 && (text[i] === "," || text[i] === "}" || /\s/.test(text[i] ?? ""))) {
        skip(ws);
        break;
      }
    }
    if (text[i] !== ",") return null;
    i++;
  }
}
