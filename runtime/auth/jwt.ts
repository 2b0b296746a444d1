import { OAuthError, OAuthErrorCode, type AuthInfo } from "@modelcontextprotocol/server";
import type * as Jose from "jose" with { "resolution-mode": "import" };
import type { TokenVerifier } from "./options";

/** `jwt(options)`: access tokens that are JWTs signed by an issuer's published keys. */
export interface JwtOptions {
  /** The issuer's identifier: a token's `iss` must be exactly this. */
  issuer: string;
  /** Where the issuer publishes its signing keys (its metadata's `jwks_uri`); fetched when first needed, kept, fetched again for a key it does not have. */
  jwksUri: string;
  /** The `aud` a token must carry (one of them). Default: `auth.resource`, which the MCP spec has clients ask tokens for. */
  audience?: string | string[];
  /** Signature algorithms accepted (`["RS256"]`). Default: any the issuer's keys are for; never `none`. */
  algorithms?: string[];
  /** Seconds of clock difference allowed when checking `exp` and `nbf`. Default 0. */
  clockTolerance?: number;
}

/**
 * The token's fault, answered 401 `invalid_token` with jose's reason: a bad signature, an
 * algorithm not allowed (`none` among them), a claim that fails (`exp`, `nbf`, `iss`, `aud`),
 * a token that is no JWT, a key id the issuer does not publish. Anything else (the issuer's keys
 * unreachable or not a key set) is the server's side, answered 500.
 */
const TOKEN_FAULTS = new Set([
  "ERR_JOSE_ALG_NOT_ALLOWED",
  "ERR_JOSE_NOT_SUPPORTED",
  "ERR_JWS_INVALID",
  "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
  "ERR_JWT_CLAIM_VALIDATION_FAILED",
  "ERR_JWT_EXPIRED",
  "ERR_JWT_INVALID",
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
]);

let loading: Promise<typeof Jose> | undefined;

/**
 * jose is an ES module only. `require()` loads one from Node 20.19 on (and in jest, which
 * transforms it); `import()` on the Node 20s before, where `require()` fails with
 * ERR_REQUIRE_ESM. Loaded when `jwt()` is first called, so a server without it never loads it.
 */
function loadJose(): Promise<typeof Jose> {
  return (loading ??= (async () => {
    try {
      return require("jose") as typeof Jose;
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_REQUIRE_ESM") throw error;
      return import("jose");
    }
  })());
}

/** `scope` (RFC 9068: one string, space-separated) or `scp` (a list, as Azure and Okta write it). */
function scopesOf(payload: Jose.JWTPayload): string[] {
  const claim = payload.scope ?? payload.scp;
  if (typeof claim === "string") return claim.split(" ").filter(Boolean);
  if (Array.isArray(claim)) return claim.filter((scope): scope is string => typeof scope === "string");
  return [];
}

/** The client the token was issued to: RFC 9068's `client_id`, else `azp`, else the subject. */
function clientOf(payload: Jose.JWTPayload): string {
  for (const claim of [payload.client_id, payload.azp, payload.sub]) if (typeof claim === "string") return claim;
  return "";
}

/**
 * A TokenVerifier for JWT access tokens (RFC 9068), with jose: the signature against the
 * issuer's JWKS, `iss`, `aud` (the server's resource by default), `exp` and `nbf`. The verified
 * token's claims are `authInfo.extra`; its scopes come from `scope` or `scp`.
 */
export function jwt(options: JwtOptions): TokenVerifier {
  if (options === null || typeof options !== "object" || typeof options.issuer !== "string" || !options.issuer)
    throw new TypeError("typemcp: jwt() needs the issuer's identifier: jwt({ issuer, jwksUri })");
  let jwksUri: URL;
  try {
    jwksUri = new URL(options.jwksUri);
  } catch {
    throw new TypeError(`typemcp: jwt(): jwksUri must be an absolute URL (got ${JSON.stringify(options.jwksUri)})`);
  }
  // Loading jose took 200 to 300 ms here (2 shared cores): started now, it is part of the start, not of the first call.
  // A failure to load is the first token's answer (500), not an unhandled rejection.
  loadJose().catch(() => undefined);
  let keys: ReturnType<typeof Jose.createRemoteJWKSet> | undefined;
  return async (token, { resource }): Promise<AuthInfo> => {
    const jose = await loadJose();
    keys ??= jose.createRemoteJWKSet(jwksUri);
    let payload: Jose.JWTPayload;
    try {
      ({ payload } = await jose.jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience ?? resource.href,
        algorithms: options.algorithms,
        clockTolerance: options.clockTolerance,
      }));
    } catch (error) {
      if (error instanceof jose.errors.JOSEError && TOKEN_FAULTS.has(error.code))
        throw new OAuthError(OAuthErrorCode.InvalidToken, error.message);
      throw error;
    }
    return {
      token,
      clientId: clientOf(payload),
      scopes: scopesOf(payload),
      expiresAt: payload.exp,
      // Its audience is this server's: the token was issued for this resource.
      resource,
      extra: { ...payload },
    };
  };
}
