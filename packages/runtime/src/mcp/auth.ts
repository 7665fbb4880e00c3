/**
 * OAuth for the MCP HTTP endpoint, as the MCP authorization spec asks of a server: it is a
 * protected resource (RFC 9728) whose tokens an authorization server of your choice issues.
 *
 *   - `GET /.well-known/oauth-protected-resource[/<path>]` says which authorization servers issue
 *     tokens for it, and which scopes exist;
 *   - a request without a valid bearer token gets `401` with
 *     `WWW-Authenticate: Bearer resource_metadata="…"`, where a client starts its OAuth flow
 *     (discovery, registration, PKCE, token);
 *   - a token without the scopes the server, or the tool called, needs gets `403`
 *     `insufficient_scope` naming them, so the client can ask for more (step-up);
 *   - a valid token's caller reaches the tool as `ctx.auth`, and binds what it starts to itself
 *     (a 2026-07-28 `requestState`, a 2025-11-25 session): another token's caller cannot go on
 *     with it.
 *
 * Tokens are checked by the app's `verifyToken` (a JWT against the issuer's keys, or the
 * issuer's introspection endpoint): the server never sees a password and keeps no token.
 */
import { bearerAuthChallengeResponse, getOAuthProtectedResourceMetadataUrl, OAuthError, OAuthErrorCode, verifyBearerToken, type AuthInfo } from '@modelcontextprotocol/server'
import { z } from 'zod/v4'
import { functionOption } from '../schema/function-option.ts'
import { summarizeIssues } from '../errors/issues.ts'
import { OptionsError } from '../errors/options-error.ts'
import type { McpAuth } from '../tool/caller-auth.ts'

export type { McpAuth }

/**
 * OAuth for an MCP endpoint (`createHandler({ auth })`): the resource it is, the authorization servers that issue its tokens, how to verify one, and the scopes it requires.
 */
export interface McpAuthOptions {
  /**
   * This server's MCP endpoint as clients reach it, e.g. `https://mcp.example.com/mcp`: the
   * protected resource (RFC 9728 `resource`) and the audience its tokens are issued for (RFC 8707).
   */
  resource: string
  /** The issuer URLs of the authorization servers whose tokens it takes (RFC 9728 `authorization_servers`). */
  authorizationServers: readonly string[]
  /**
   * Check a bearer token: whom it belongs to, or `undefined` when it is not good (signature,
   * issuer, expiry, revoked). Return its `audience` (or check it here): a token issued for another
   * resource must not be taken.
   */
  verifyToken: (token: string) => Promise<McpAuth | undefined> | McpAuth | undefined
  /** Scopes every request needs (default: none). */
  requiredScopes?: readonly string[]
  /** Scopes listed in the metadata (default: `requiredScopes` and each tool's `.scopes()`). */
  scopesSupported?: readonly string[]
  /** A name people see when they are asked to grant access (RFC 9728 `resource_name`). */
  resourceName?: string
}

const scopeToken = z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'an OAuth scope: printable characters, no spaces, quotes or backslashes')
const httpUrl = (example: string) =>
  z
    .string()
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol) && !new URL(u).hash, `an http(s) URL without a #fragment, e.g. ${example}`)
    .refine(
      (u) => !URL.canParse(u) || new URL(u).protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(new URL(u).hostname),
      'https (plain http only on localhost / 127.0.0.1)',
    )

const optionsSchema = z
  .object({
    resource: httpUrl('"https://mcp.example.com/mcp"'),
    authorizationServers: z.array(httpUrl('"https://auth.example.com"')).min(1, 'name at least one authorization server (its issuer URL)'),
    verifyToken: functionOption(),
    requiredScopes: z.array(scopeToken).optional(),
    scopesSupported: z.array(scopeToken).optional(),
    resourceName: z.string().min(1).optional(),
  })
  .strict()

/** The OAuth side of one HTTP handler. */
export interface McpAuthGate {
  /** The metadata document, if `request` asks for it. */
  metadata(request: Request): Response | undefined
  /**
   * The caller of `request`, or the refusal to send (401 without a good token, 403 without the
   * scopes the server or `toolScopes` need).
   */
  verify(request: Request, toolScopes: readonly string[]): Promise<AuthInfo | Response>
}

export function createAuthGate(options: McpAuthOptions, allToolScopes: readonly string[]): McpAuthGate {
  const checked = optionsSchema.safeParse(options)
  if (!checked.success) throw new OptionsError('createHandler', summarizeIssues(checked.error.issues.map((i) => ({ ...i, path: ['auth', ...i.path] }))))
  const resource = new URL(options.resource)
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resource)
  const metadataPaths = new Set([new URL(metadataUrl).pathname, '/.well-known/oauth-protected-resource'])
  const requiredScopes = [...(options.requiredScopes ?? [])]
  const document = {
    resource: resource.href,
    authorization_servers: [...options.authorizationServers],
    scopes_supported: [...new Set(options.scopesSupported ?? [...requiredScopes, ...allToolScopes])],
    bearer_methods_supported: ['header'],
    ...(options.resourceName !== undefined && { resource_name: options.resourceName }),
  }
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const auth = await options.verifyToken(token)
      if (!auth) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The access token is not valid (expired, revoked, or not issued by an authorization server this server trusts)')
      const audiences = auth.audience === undefined ? undefined : [auth.audience].flat()
      if (audiences && !audiences.some((a) => sameResource(a, resource))) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, `The access token was issued for ${audiences.join(', ')}, not for ${resource.href}`)
      }
      return toAuthInfo(token, auth, resource, metadataUrl)
    },
  }
  return {
    metadata(request) {
      if (!metadataPaths.has(new URL(request.url).pathname)) return undefined
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return Response.json({ error: 'method_not_allowed', error_description: `Use GET (got ${request.method}).` }, { status: 405, headers: { allow: 'GET, HEAD' } })
      }
      return Response.json(document, { headers: { 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' } })
    },
    async verify(request, toolScopes) {
      const needed = [...new Set([...requiredScopes, ...toolScopes])]
      const challenge = { requiredScopes: needed, resourceMetadataUrl: metadataUrl }
      // No credentials at all is not an invalid token (RFC 6750 §3.1): the client is told where to get one, and no error code.
      if (!request.headers.get('authorization')) return askForToken(needed, metadataUrl)
      try {
        return await verifyBearerToken(request.headers.get('authorization') ?? undefined, { verifier, requiredScopes: needed, resourceMetadataUrl: metadataUrl })
      } catch (error) {
        // A verifier that threw something else failed (its issuer unreachable): a 500, its words kept here.
        return bearerAuthChallengeResponse(error instanceof OAuthError ? error : new OAuthError(OAuthErrorCode.ServerError, 'The token could not be checked'), challenge)
      }
    },
  }
}

/** 401 for a request without credentials: the challenge names the metadata (and the scopes wanted), the body says it in words. */
function askForToken(scopes: readonly string[], metadataUrl: string): Response {
  const challenge = `Bearer resource_metadata="${metadataUrl}"${scopes.length > 0 ? `, scope="${scopes.join(' ')}"` : ''}`
  const body = {
    error_description: `This MCP endpoint needs an OAuth access token: its protected-resource metadata (${metadataUrl}) names the authorization servers that issue them.`,
  }
  return Response.json(body, { status: 401, headers: { 'WWW-Authenticate': challenge } })
}

/** `ctx.auth` of a tool: the caller as the verifier said, without the token. */
export function mcpAuthOf(info: AuthInfo | undefined): McpAuth | undefined {
  if (!info) return undefined
  const { subject, audience, ...extra } = (info.extra ?? {}) as { subject?: string; audience?: string | string[] } & Record<string, unknown>
  return {
    clientId: info.clientId,
    ...(typeof subject === 'string' && { subject }),
    scopes: [...info.scopes],
    expiresAt: info.expiresAt!,
    ...(audience !== undefined && { audience }),
    ...(Object.keys(extra).length > 0 && { extra }),
  }
}

/** Who started a call or a session, to bind what follows to: the client and whom it acts for. */
export function principalOf(info: AuthInfo | undefined): string {
  if (!info) return ''
  const subject = (info.extra as { subject?: unknown } | undefined)?.subject
  return `${info.clientId}\u0000${typeof subject === 'string' ? subject : ''}`
}

function toAuthInfo(token: string, auth: McpAuth, resource: URL, resourceMetadataUrl: string): AuthInfo {
  return {
    token,
    clientId: auth.clientId,
    scopes: [...auth.scopes],
    expiresAt: auth.expiresAt,
    resource,
    resourceMetadataUrl,
    extra: { ...auth.extra, ...(auth.subject !== undefined && { subject: auth.subject }), ...(auth.audience !== undefined && { audience: auth.audience }) },
  }
}

function sameResource(a: string, b: URL): boolean {
  const plain = (u: string) => u.replace(/#.*$/, '').replace(/\/$/, '')
  return plain(a) === plain(b.href)
}
