/**
 * `requestState`: what a 2026-07-28 retry needs of the rounds before it — the answers already
 * given — travels with the client, signed with the SDK's HMAC codec (`createRequestStateCodec`),
 * and bound to the call it belongs to (the method, the name, a digest of the arguments). A
 * retry may land on another process behind a load balancer: it continues there when both
 * processes hold the same key (ServerOptions.requestStateKey, or TYPEMCP_REQUEST_STATE_KEY).
 * Without one, each process makes its own at start, which serves one process only; a state
 * it did not sign is refused with a message that says so (docs/asking.md).
 */
import { createRequestStateCodec, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** The environment variable a key may come from, when ServerOptions.requestStateKey is not given. */
export const KEY_VARIABLE = "TYPEMCP_REQUEST_STATE_KEY";

/** What the state says: which call it belongs to, and the answers given so far, by key. */
export interface StatePayload {
  /** `tools/call my_tool`, `prompts/get my_prompt`, `resources/read uri`. */
  c: string;
  /** The arguments' digest (base64url SHA-256 of their canonical JSON): a state is not reused for other arguments. */
  h: string;
  /** The answers, by the question's key, as the client gave them. */
  a: Record<string, unknown>;
}

/** How the state is signed: the key, whether it was given, and how long a state stays valid. */
export interface StateSettings {
  key?: string | Uint8Array;
  /** Seconds a state stays valid (default 600, the SDK's). */
  ttlSeconds?: number;
}

/** JSON with object keys in order: the same arguments give the same digest, however a client orders them. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
}

function base64url(bytes: ArrayBuffer): string {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * node:crypto's hash, where there is one (Node, Bun, Deno): synchronous, a few µs. WebCrypto's
 * digest, the fallback (Workers), is a job on another thread and a promise turn: tens of µs.
 */
const nodeHash: ((text: string) => string) | undefined = (() => {
  try {
    const { createHash } = require("node:crypto") as typeof import("node:crypto");
    return (text: string) => createHash("sha256").update(text).digest("base64url");
  } catch {
    return undefined;
  }
})();

/** The digest of a call's arguments: base64url SHA-256 of their canonical JSON, the same on every runtime. */
export async function digest(args: unknown): Promise<string> {
  const text = canonical(args);
  if (nodeHash) return nodeHash(text);
  return base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

const MIN_KEY_BYTES = 32;

function keyLength(key: string | Uint8Array): number {
  return typeof key === "string" ? new TextEncoder().encode(key).length : key.length;
}

/** Signs and checks states for one MCPServer. */
export class RequestStates {
  private readonly given: string | Uint8Array | undefined;
  private made?: ReturnType<typeof createRequestStateCodec<StatePayload>>;
  /** The key was given (option or environment), not made by this process. */
  private readonly shared: boolean;
  private readonly ttlSeconds: number;

  constructor(settings: StateSettings = {}) {
    const env = typeof process === "object" ? process.env?.[KEY_VARIABLE] : undefined;
    const given = settings.key ?? (env === undefined || env === "" ? undefined : env);
    if (given !== undefined && keyLength(given) < MIN_KEY_BYTES) {
      const where = settings.key !== undefined ? "requestStateKey" : KEY_VARIABLE;
      throw new TypeError(
        `typemcp: ${where} must be at least ${MIN_KEY_BYTES} bytes (got ${keyLength(given)}): for example \`openssl rand -base64 32\``,
      );
    }
    this.given = given;
    this.shared = given !== undefined;
    this.ttlSeconds = settings.ttlSeconds ?? 600;
  }

  /**
   * The codec, made when a state is first minted or opened, not in the constructor: a key this
   * process makes comes from `crypto.getRandomValues`, which a Cloudflare Worker refuses outside
   * a request, and `new MCPServer` runs at a module's top level (docs/deployment.md).
   */
  private get codec(): ReturnType<typeof createRequestStateCodec<StatePayload>> {
    return (this.made ??= createRequestStateCodec<StatePayload>({
      key: this.given ?? crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES)),
      ttlSeconds: this.ttlSeconds,
    }));
  }

  mint(payload: StatePayload): Promise<string> {
    return this.codec.mint(payload);
  }

  /**
   * The payload of a state the client echoed, checked: signed with this server's key, not
   * expired, and for this call. Anything else is the spec's -32602 ("Invalid or expired
   * requestState"), with the reason.
   */
  async open(state: string, call: string, argumentsDigest: string): Promise<StatePayload> {
    let payload: StatePayload;
    try {
      // verify() reads only the bind callback from its context, and this codec binds nothing.
      payload = await this.codec.verify(state, undefined as never);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw refused(
        reason === "expired"
          ? `it expired (a state is valid for ${this.ttlSeconds} s after the question)`
          : reason === "mac" && !this.shared
            ? `it was not signed by this process: when several processes serve one endpoint, give them one key (the requestStateKey option, or ${KEY_VARIABLE})`
            : reason === "mac"
              ? "its signature does not match (altered, or signed with another key)"
              : "it is not a state this server wrote",
      );
    }
    if (
      payload === null ||
      typeof payload !== "object" ||
      typeof payload.a !== "object" ||
      payload.a === null ||
      Array.isArray(payload.a)
    )
      throw refused("it is not a state this server wrote");
    if (payload.c !== call) throw refused(`it belongs to another request (${payload.c})`);
    if (payload.h !== argumentsDigest) throw refused("it was given for other arguments");
    return payload;
  }
}

function refused(why: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid or expired requestState: ${why}`, {
    reason: "invalid_request_state",
  });
}
