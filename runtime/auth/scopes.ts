import { requireScopes, type JSONRPCRequest, type ScopeChallengeHandler } from "@modelcontextprotocol/server";
import type { Registry } from "../registry";

/** A registration's `scopes` option: checked, and the SDK's handler that names them when a token lacks one. */
interface Required {
  scopes: readonly string[];
  challenge: ScopeChallengeHandler;
}

/** What a request needs beyond a valid token: the scopes the registration it names declared, and which one it is. */
export interface ScopesNeeded {
  scopes: readonly string[];
  challenge: ScopeChallengeHandler;
  /** "tool get_weather", for the challenge's error_description. */
  what: string;
}

/** A name as an `error_description` shows it: cut after 120 characters, as other messages cut a client's names. */
function shortName(name: string): string {
  return name.length > 120 ? `${name.slice(0, 120)}...` : name;
}

/**
 * The scopes each tool, prompt and resource requires (their `scopes` option), kept beside the
 * registry rather than in the registrations: only an HTTP endpoint with `auth` reads them. The
 * request is resolved to its registration by the registry's own lookups, the ones its handler
 * then uses, so a scope check and the call it guards always mean the same registration.
 */
export class ScopeTable {
  private readonly required = new WeakMap<object, Required>();
  /** Every scope a registration named, for `scopes_supported`. */
  readonly named = new Set<string>();

  /** Checks `scopes` (the OAuth scope-token grammar, as the SDK's `requireScopes` does) and keeps them for `registration`. */
  set(registration: object, scopes: unknown, where: string): void {
    if (scopes === undefined) return;
    if (!Array.isArray(scopes) || scopes.length === 0)
      throw new TypeError(`typemcp: ${where}: scopes must be a non-empty array of scope names`);
    let challenge: ScopeChallengeHandler;
    try {
      challenge = requireScopes(...(scopes as [string, ...string[]]));
    } catch (error) {
      throw new TypeError(`typemcp: ${where}: scopes: ${(error as Error).message} (got ${JSON.stringify(scopes)})`, {
        cause: error,
      });
    }
    this.required.set(registration, { scopes: [...scopes], challenge });
    for (const scope of scopes) this.named.add(scope);
  }

  /** Whether any registration declared scopes. */
  get any(): boolean {
    return this.named.size > 0;
  }

  /** The scopes the registration a request names requires: `tools/call`, `prompts/get` and `resources/read`, as the SDK's McpServer checks them. */
  neededFor(registry: Registry, request: JSONRPCRequest): ScopesNeeded | undefined {
    const params = request.params as Record<string, unknown> | undefined;
    const key = request.method === "resources/read" ? params?.uri : params?.name;
    if (typeof key !== "string") return undefined;
    let registration: object | undefined;
    let what: string;
    if (request.method === "tools/call") [registration, what] = [registry.tools.get(key), "tool"];
    else if (request.method === "prompts/get") [registration, what] = [registry.prompts.get(key), "prompt"];
    else if (request.method === "resources/read")
      [registration, what] = [registry.resourceAt(key)?.resource, "resource"];
    else return undefined;
    const required = registration && this.required.get(registration);
    return required && { ...required, what: `${what} ${shortName(key)}` };
  }
}
