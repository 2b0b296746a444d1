import type { AuthInfo } from "@modelcontextprotocol/server";

/**
 * Checks an access token (the `Bearer` token of a request): resolves to what it grants, or to
 * `undefined` (or rejects with the SDK's `OAuthError`, `invalid_token`) to refuse it, which the
 * client gets as 401. Any other rejection is the verifier's own fault (an introspection endpoint
 * that is down), answered 500 and logged (ServerOptions.logErrors). `jwt({ ... })` makes one for JWTs signed by an issuer's keys.
 *
 * `resource` is `auth.resource`, parsed: the audience the token must be for. The AuthInfo must
 * report it in `resource` (a token for another resource, or for none, is refused) and the
 * expiry in `expiresAt` (a token without one is refused), as the SDK's bearer check requires.
 */
export type TokenVerifier = (
  token: string,
  context: { resource: URL },
) => AuthInfo | undefined | Promise<AuthInfo | undefined>;

/**
 * `auth` of `mcp.run({ transport: "http" })` and `mcp.handler()`: the server is an OAuth 2.1
 * resource server, as the MCP spec's authorization page has it (docs/deployment.md#authentication).
 */
export interface AuthOptions {
  /**
   * The server's public URL as clients reach it (`https://mcp.example.com/mcp`): what tokens must
   * be issued for (RFC 8707), and the `resource` of the Protected Resource Metadata, served at
   * `/.well-known/oauth-protected-resource` followed by its path, and without it.
   */
  resource: string;
  /** The issuer clients get tokens from (`authorization_servers` in the metadata). HTTPS, but on localhost. */
  authorizationServer: string;
  /** Checks each request's token: your function, or `jwt({ issuer, jwksUri })`. */
  verify: TokenVerifier;
  /** Scopes every request needs; a token without them gets 403 `insufficient_scope` naming them. */
  scopes?: string[];
  /** `scopes_supported` in the metadata. Default: every scope `scopes` and the registrations' `scopes` name. */
  scopesSupported?: string[];
  /** `resource_name` in the metadata. */
  resourceName?: string;
  /** `resource_documentation` in the metadata: a page for developers. */
  resourceDocumentation?: string;
}
