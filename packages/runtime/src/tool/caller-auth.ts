/**
 * Who called a tool: what a tool reads as `ctx.auth`. The same shape on every surface — the
 * in-app chat and the AI SDK bridge (the app's `authenticate(request)`), and an MCP endpoint with
 * OAuth (`verifyToken`) — recorded with the call (never the credential), so replays, resumes on
 * another instance and recovery see the same caller, and only that caller may answer or cancel.
 */
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { AuthenticationError } from '../errors/server-errors.ts'

/** Who a tool call runs for: `ctx.auth` in a tool. */
export interface CallerAuth {
  /** Whom it acts for: the signed-in user's id (a session's user, a token's `sub`). */
  subject?: string
  /** What the caller may do, as the app or the token says (empty when none are given). */
  scopes: string[]
  /** Anything else a tool may read (claims, the user's name); never a credential. */
  extra?: Record<string, unknown>
  /** Over MCP with OAuth: the OAuth client the token was issued to. */
  clientId?: string
  /** Over MCP with OAuth: when the token expires, in seconds since the epoch. */
  expiresAt?: number
  /** Over MCP with OAuth: the audiences the token was issued for (`aud`). */
  audience?: string | string[]
}

/** Who a verified token belongs to and what it allows: what `verifyToken` returns, and `ctx.auth` in a tool. */
export interface McpAuth extends CallerAuth {
  /** The OAuth client the token was issued to. */
  clientId: string
  /** When it expires, in seconds since the epoch (a token without an expiry is refused). */
  expiresAt: number
}

/** What an app's `authenticate(request)` returns for a signed-in user: `undefined` for nobody signed in. */
export interface AppCaller {
  /** The user's id: calls are bound to it. */
  subject: string
  scopes?: string[]
  /** Claims a tool may read as `ctx.auth.extra` (a name, a tenant); never a password, cookie or token. */
  extra?: Record<string, unknown>
}

/** `authenticate(request)`: who sent a request, from the app's own session (a cookie, a header). */
export type Authenticate = (request: Request) => AppCaller | undefined | Promise<AppCaller | undefined>

/** The caller `authenticate` gives for `request`, checked and in `ctx.auth`'s shape. */
export async function callerOf(authenticate: Authenticate | undefined, request: Request): Promise<CallerAuth | undefined> {
  if (!authenticate) return undefined
  let caller: AppCaller | undefined
  try {
    caller = await authenticate(request)
  } catch (error) {
    throw new AuthenticationError(error instanceof McpBridgeError ? error.message : 'Sign in to use this chat: the request carries no valid session.')
  }
  if (caller === undefined || caller === null) return undefined
  if (typeof caller !== 'object' || typeof caller.subject !== 'string' || caller.subject === '') {
    throw new AuthenticationError('authenticate(request) must return { subject: string, scopes?, extra? } for a signed-in user, or undefined for nobody.')
  }
  if (caller.scopes !== undefined && (!Array.isArray(caller.scopes) || caller.scopes.some((s) => typeof s !== 'string'))) {
    throw new AuthenticationError('authenticate(request): `scopes` must be an array of strings.')
  }
  return { subject: caller.subject, scopes: [...(caller.scopes ?? [])], ...(caller.extra !== undefined && { extra: caller.extra }) }
}

/**
 * Whether a request by `caller` may act on a call started by `owner`: a call started by a
 * signed-in user only by that user; a call started by nobody in particular by whoever holds its token.
 */
export function mayActOn(owner: CallerAuth | undefined, caller: CallerAuth | undefined): boolean {
  return owner?.subject === undefined || owner.subject === caller?.subject
}
