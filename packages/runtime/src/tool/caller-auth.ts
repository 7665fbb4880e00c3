/**
 * The caller of a tool over an MCP endpoint that requires OAuth (`createHandler({ auth })`): what
 * the app's `verifyToken` said about the bearer token, and what a tool reads as `ctx.auth`.
 */

/** Who a verified token belongs to and what it allows: what `verifyToken` returns, and `ctx.auth` in a tool. */
export interface McpAuth {
  /** The OAuth client the token was issued to. */
  clientId: string
  /** Whom it acts for: the token's `sub`, when it has one. */
  subject?: string
  /** The scopes it grants. */
  scopes: string[]
  /** When it expires, in seconds since the epoch (a token without an expiry is refused). */
  expiresAt: number
  /** The audiences it was issued for (`aud`): when given, this server's `resource` must be one. */
  audience?: string | string[]
  /** Anything else a tool may read (claims); never the token itself. */
  extra?: Record<string, unknown>
}

