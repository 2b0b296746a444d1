// Web-standard only, as runtime/http.ts, which runs it: the resource server's side of the MCP
// spec's authorization page, on the SDK's pieces (docs/deployment.md#authentication).
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  isJSONRPCRequest,
  OAuthError,
  OAuthErrorCode,
  requireBearerAuth,
  requireScopes,
  type AuthInfo,
  type JSONRPCRequest,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
} from "@modelcontextprotocol/server";
import type { AuthOptions } from "./options";
import type { ScopesNeeded } from "./scopes";

/** What the endpoint asks of the server's registrations: the scopes a request needs, and every scope they name. */
export interface ScopeLookup {
  neededFor(request: JSONRPCRequest): ScopesNeeded | undefined;
  named(): Iterable<string>;
}

/** The metadata document's two places: RFC 9728's, with the resource's path after the well-known name, and the bare one clients try next. */
const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** Checks the options once, when the endpoint is made, with a message naming the option. */
function resourceOf(options: AuthOptions): URL {
  if (options === null || typeof options !== "object") throw new TypeError("typemcp: auth must be an object");
  if (typeof options.verify !== "function")
    throw new TypeError(
      "typemcp: auth.verify must be a function (token → AuthInfo, or undefined to refuse it), such as jwt({ issuer, jwksUri })",
    );
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new TypeError(
      `typemcp: auth.resource must be the server's absolute URL, as clients reach it (got ${JSON.stringify(options.resource)})`,
    );
  }
  // RFC 8707: a resource indicator is an absolute URI without a fragment.
  if ((resource.protocol !== "https:" && resource.protocol !== "http:") || resource.hash)
    throw new TypeError(
      `typemcp: auth.resource must be an http(s) URL without a fragment (got ${JSON.stringify(options.resource)})`,
    );
  if (options.scopes !== undefined) {
    if (!Array.isArray(options.scopes) || options.scopes.length === 0)
      throw new TypeError("typemcp: auth.scopes must be a non-empty array of scope names");
    try {
      requireScopes(...(options.scopes as [string, ...string[]]));
    } catch (error) {
      throw new TypeError(`typemcp: auth.scopes: ${(error as Error).message} (got ${JSON.stringify(options.scopes)})`, {
        cause: error,
      });
    }
  }
  return resource;
}

/**
 * The endpoint's authentication: the Protected Resource Metadata document, the token check of
 * every request (401 with the `WWW-Authenticate` challenge that points at the document), and the
 * scope challenge of a request for a registration that needs more (403 `insufficient_scope`).
 */
export class AuthGate {
  private readonly resource: URL;
  /** Where the metadata is, as the challenges point at it. */
  readonly metadataUrl: string;
  private readonly metadataPaths: Set<string>;
  private readonly authenticate: (request: Request) => Promise<AuthInfo | Response>;
  private readonly scopes: string[];

  constructor(
    private readonly options: AuthOptions,
    private readonly lookup: ScopeLookup,
    /** Told of a verifier's failure (not a refusal), which the client gets as 500: the developer must see it. */
    failed?: (error: unknown) => void,
  ) {
    this.resource = resourceOf(options);
    this.scopes = options.scopes ?? [];
    this.metadataUrl = getOAuthProtectedResourceMetadataUrl(this.resource);
    this.metadataPaths = new Set([new URL(this.metadataUrl).pathname, WELL_KNOWN]);
    // Fails here, not on a request, when the issuer is not HTTPS (but on localhost).
    this.document();
    const resource = this.resource;
    const verify = options.verify;
    this.authenticate = requireBearerAuth({
      verifier: {
        async verifyAccessToken(token) {
          let info: AuthInfo | undefined;
          try {
            info = await verify(token, { resource });
          } catch (error) {
            if (!(error instanceof OAuthError)) failed?.(error);
            throw error;
          }
          if (info === undefined || info === null)
            throw new OAuthError(OAuthErrorCode.InvalidToken, "The access token is not valid");
          return info;
        },
      },
      requiredScopes: this.scopes,
      resourceMetadataUrl: this.metadataUrl,
      expectedResource: resource,
    });
  }

  /** The metadata document, when the request is for one of its places (GET or HEAD); 405 for another method there. */
  metadataResponse(request: Request): Response | undefined {
    const path = new URL(request.url).pathname.replace(/(.)\/$/, "$1");
    if (!this.metadataPaths.has(path)) return undefined;
    // Public and read by browser clients from other origins: any origin may read it.
    const headers = { "access-control-allow-origin": "*" };
    if (request.method !== "GET" && request.method !== "HEAD")
      return Response.json(
        { error: "method_not_allowed", error_description: `The method ${request.method} is not allowed here` },
        { status: 405, headers: { ...headers, allow: "GET, HEAD" } },
      );
    const response = Response.json(this.document(), { headers });
    return request.method === "HEAD" ? new Response(null, { headers: response.headers }) : response;
  }

  /** The request's token, verified; or the 401 (403 for `auth.scopes` missing) to answer. */
  check(request: Request): Promise<AuthInfo | Response> {
    return this.authenticate(request);
  }

  /**
   * 403 `insufficient_scope` when a request of the body names a registration whose scopes the
   * token lacks, naming every scope the call needs (`auth.scopes` and the registration's): the
   * spec's scope challenge, on which a client asks for a token with them and retries.
   */
  challenge(parsedBody: unknown, authInfo: AuthInfo): Response | undefined {
    for (const message of Array.isArray(parsedBody) ? parsedBody : [parsedBody]) {
      if (!isJSONRPCRequest(message)) continue;
      const needed = this.lookup.neededFor(message);
      if (!needed || needed.challenge({ request: message, authInfo }) === undefined) continue;
      return bearerAuthChallengeResponse(
        new OAuthError(OAuthErrorCode.InsufficientScope, `Insufficient scope for ${needed.what}`),
        { requiredScopes: [...new Set([...this.scopes, ...needed.scopes])], resourceMetadataUrl: this.metadataUrl },
      );
    }
    return undefined;
  }

  /** RFC 9728's document, by the SDK's builder; `scopes_supported` read when asked, so a registration made later is in it. */
  private document(): OAuthProtectedResourceMetadata {
    const { options } = this;
    const scopesSupported = options.scopesSupported ?? [...new Set([...this.scopes, ...this.lookup.named()])];
    const metadata = buildOAuthProtectedResourceMetadata({
      // The builder reads the issuer alone of the authorization server's metadata.
      oauthMetadata: { issuer: options.authorizationServer } as OAuthMetadata,
      resourceServerUrl: this.resource,
      scopesSupported: scopesSupported.length > 0 ? scopesSupported : undefined,
      resourceName: options.resourceName,
      serviceDocumentationUrl: options.resourceDocumentation ? new URL(options.resourceDocumentation) : undefined,
    });
    // RFC 9728: the bearer token goes in the Authorization header, the only way the MCP spec allows.
    return { ...metadata, bearer_methods_supported: ["header"] };
  }
}
