/**
 * Streamable HTTP for both generations behind one URL, routed the way the SDK documents it:
 *
 *   - 2026-07-28 requests carry their protocol version and capabilities in every request, so
 *     the SDK's `createMcpHandler` serves each with a fresh server instance;
 *   - 2025-11-25 clients need a session: during a tool call the server sends them
 *     `elicitation/create` and waits for the answer, which arrives as another POST. The SDK's
 *     stateless legacy fallback cannot route that answer back, so legacy traffic gets sessionful
 *     transports, one per `initialize` (`LegacySessions`: bounded in all and per client, closed
 *     when idle).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  createMcpHandler,
  isLegacyRequest,
  type AuthInfo,
  type JSONRPCMessage,
  type McpServer,
  type McpServerFactory,
  type RequestId,
  type ServerEventBus,
} from '@modelcontextprotocol/server'
import { z } from 'zod/v4'
import { summarizeIssues } from '../errors/issues.ts'
import { clientAddressOf, recordClientAddress, type ClientKey } from '../http/client-address.ts'
import { toNodeListener } from '../http/node-adapter.ts'
import { readLimited } from '../http/read-limited.ts'
import { foreignRequestProblem, resolveRequestOrigin, type RequestOriginOptions } from '../http/request-origin.ts'
import { LegacySessions } from './legacy-sessions.ts'
import type { DetailedTask } from './serve-tasks.ts'
import { createTaskStreams } from './task-status-stream.ts'
import { createAuthGate, principalOf, type McpAuthGate, type McpAuthOptions } from './auth.ts'
import type { Operation, Scope } from 'effection'
import { requestOfEventId } from './session-resumption.ts'
import type { Clock } from '../time/clock.ts'
import { OptionsError } from '../errors/options-error.ts'

/**
 * How an MCP HTTP endpoint guards itself (`createHandler(options)`): allowed hosts and origins, session bounds, the largest body, and OAuth.
 */
export interface McpHttpOptions extends RequestOriginOptions {
  /** 2025-11-25 sessions held at once; a further `initialize` is refused with 503. Default 1000. */
  maxLegacySessions?: number
  /** 2025-11-25 sessions one client (`clientKey`) may hold; a further `initialize` gets 429. Default 10. */
  maxLegacySessionsPerClient?: number
  /** Close a 2025-11-25 session no request has used for this long, in ms. Default 10 minutes. */
  legacySessionIdleMs?: number
  /**
   * How long a 2025-11-25 client waits before it reconnects a dropped response stream (the SSE
   * `retry:` field), in ms. The official SDK 1.x client tries twice this far apart, so a server
   * restarted within about twice this keeps its clients' calls (see "Durable calls"). Default 2500.
   */
  streamRetryMs?: number
  /** Largest request body, in bytes; a larger one gets 413 before it is parsed. Default 1 MiB. */
  maxBodyBytes?: number
  /**
   * Require OAuth bearer tokens (the MCP authorization spec): protected-resource metadata, `401`
   * with where to get a token, scopes per server and per tool, `ctx.auth` in tools. See "OAuth".
   */
  auth?: McpAuthOptions
}

const DEFAULT_MAX_BODY_BYTES = 1 << 20
/** Twice this (an SDK 1.x client's two reconnects) covers a process manager's restart; a stream dropped on a live server waits as long. */
const DEFAULT_STREAM_RETRY_MS = 2_500

const optionsSchema = z
  .object({
    allowedHosts: z.unknown().optional(),
    allowedOrigins: z.unknown().optional(),
    maxLegacySessions: z.number().int().min(1).optional(),
    maxLegacySessionsPerClient: z.number().int().min(1).optional(),
    legacySessionIdleMs: z
      .number()
      .int()
      .min(1000)
      .max(24 * 3600_000)
      .optional(),
    streamRetryMs: z.number().int().min(100, 'at least 100 ms').max(60_000, 'at most 60 s').optional(),
    maxBodyBytes: z
      .number()
      .int()
      .min(1024, 'at least 1024 bytes')
      .max(64 << 20, 'at most 64 MiB')
      .optional(),
    auth: z.unknown().optional(),
  })
  .strict()

/**
 * An MCP server's Streamable HTTP endpoint: `fetch` for Workers, Bun and Deno, `node` for `http.createServer`, and `close()`.
 */
export interface McpHttpHandler {
  /** Web-standard face: serve one request. */
  fetch(request: Request): Promise<Response>
  /** Node `http` face: `http.createServer(handler.node)`. */
  node(req: IncomingMessage, res: ServerResponse): Promise<void>
  /** Close every session and in-flight exchange. */
  close(): Promise<void>
  /** How it tells clients apart (`createMcpServer`'s `clientKey`): `serveApp`'s rate limit counts them the same way. */
  readonly clientKey: ClientKey
}

export function createMcpHttpHandler(
  factory: () => McpServer,
  options: McpHttpOptions,
  server: {
    onError: (error: Error) => void
    clientKey: ClientKey
    clock: Clock
    scope: Scope
    toolScopes: ReadonlyMap<string, readonly string[]>
    /** The answer to a request of a session whose server stopped, from the call store (`session-resumption.ts`). */
    answerFromStore: (sessionId: string, requestId: RequestId, principal: string) => Operation<JSONRPCMessage | undefined>
    /** A task as `tasks/get` answers it, if `owner` may see it: what a 2026-07-28 listen naming tasks is told. */
    taskSnapshot: (taskId: string, owner: string) => Operation<DetailedTask | undefined>
    /** The server's change bus: what `notifyResourceUpdated` publishes to 2026-07-28 listen streams. */
    bus: ServerEventBus
    resourcesSubscribable: boolean
  },
): McpHttpHandler {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new OptionsError('createHandler', summarizeIssues(checked.error.issues))
  }
  const origin = resolveRequestOrigin(options, 'createHandler')
  const gate: McpAuthGate | undefined = options.auth && createAuthGate(options.auth, [...server.toolScopes.values()].flat())
  const modern = createMcpHandler(factory as McpServerFactory, { legacy: 'reject', onerror: server.onError, bus: server.bus })
  const taskStreams = createTaskStreams({
    scope: server.scope,
    snapshot: server.taskSnapshot,
    clientKey: server.clientKey,
    bus: server.bus,
    resourcesSubscribable: server.resourcesSubscribable,
    onError: server.onError,
  })
  const sessions = new LegacySessions(factory, {
    maxSessions: options.maxLegacySessions ?? 1000,
    maxSessionsPerClient: options.maxLegacySessionsPerClient ?? 10,
    idleMs: options.legacySessionIdleMs ?? 10 * 60_000,
    streamRetryMs: options.streamRetryMs ?? DEFAULT_STREAM_RETRY_MS,
    clock: server.clock,
    scope: server.scope,
  })

  async function legacy(request: Request, authInfo: AuthInfo | undefined): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id')
    if (!sessionId && request.method !== 'POST') return jsonRpcError(400, -32000, 'A 2025-11-25 client must initialize a session (POST initialize) first.')
    const caller = { authInfo, principal: principalOf(authInfo) }
    const answer = sessionId ? await sessions.serve(sessionId, request, caller) : await sessions.open(request, server.clientKey(request), caller)
    if ('response' in answer) return answer.response
    // A stream resumed after its session's server stopped: its request answered from the store.
    const resumed = sessionId && answer.refused.status === 404 && request.method === 'GET' ? requestOfEventId(request.headers.get('last-event-id') ?? '') : undefined
    if (sessionId && resumed !== undefined) {
      // It may wait for a call being recovered; a client that goes away ends the wait.
      const task = server.scope.run(() => server.answerFromStore(sessionId, resumed, caller.principal))
      const halt = () => void task.halt()
      request.signal.addEventListener('abort', halt, { once: true })
      try {
        const message = await task
        if (message) return sseOf(sessionId, message)
      } catch (error) {
        if (!request.signal.aborted) throw error
      } finally {
        request.signal.removeEventListener('abort', halt)
      }
    }
    return jsonRpcError(answer.refused.status, answer.refused.status === 404 ? -32001 : -32000, answer.refused.message)
  }

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  async function fetch(request: Request): Promise<Response> {
    // Public, and read by clients before they have a token (from any origin: CORS allows it).
    const metadata = gate?.metadata(request)
    if (metadata) return metadata
    if (!gate && new URL(request.url).pathname.startsWith('/.well-known/oauth-protected-resource')) {
      return Response.json({ error: 'not_found', error_description: 'This MCP endpoint takes no OAuth tokens (createHandler without auth).' }, { status: 404 })
    }
    const foreign = foreignRequestProblem(request, origin)
    if (foreign) return jsonRpcError(403, -32000, foreign)
    // Streamable HTTP has three verbs; any other is not a malformed MCP request but the wrong method.
    if (!ALLOWED_METHODS.includes(request.method)) {
      return jsonRpcError(405, -32000, `${request.method} is not a method of this MCP endpoint: POST a JSON-RPC message, GET a stream, or DELETE a session.`, {
        allow: ALLOWED_METHODS.join(', '),
      })
    }
    const bounded = await withBoundedBody(request, maxBodyBytes)
    if (!bounded) return jsonRpcError(413, -32600, `The request body is larger than ${maxBodyBytes} bytes (createHandler({ maxBodyBytes })); nothing was read past it.`)
    const batch = await batchProblem(bounded)
    if (batch) return jsonRpcError(400, -32600, batch)
    let authInfo: AuthInfo | undefined
    if (gate) {
      const verified = await gate.verify(bounded, server.toolScopes.get((await calledTool(bounded)) ?? '') ?? [])
      if (verified instanceof Response) return verified
      authInfo = verified
    }
    if (await isLegacyRequest(bounded)) return legacy(bounded, authInfo)
    return (await taskStreams.serve(bounded, authInfo)) ?? modern.fetch(bounded, authInfo && { authInfo })
  }

  return {
    fetch,
    node: toNodeListener(fetch),
    clientKey: server.clientKey,
    async close() {
      taskStreams.closeAll()
      await modern.close()
      await sessions.close()
    },
  }
}

/** The request with its body read (up to `max` bytes) into memory; undefined past `max`. */
async function withBoundedBody(request: Request, max: number): Promise<Request | undefined> {
  if (request.method !== 'POST' || !request.body) return request
  const text = await readLimited(request, max)
  if (text === undefined) return undefined
  const bounded = new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal })
  // Still the same client: the address the Node adapter saw goes with the copy.
  recordClientAddress(bounded, clientAddressOf(request))
  return bounded
}

/** The tool a `tools/call` request names, so its scopes are checked before anything runs. */
async function calledTool(request: Request): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined
  try {
    const message = JSON.parse(await request.clone().text()) as { method?: unknown; params?: { name?: unknown } }
    return message.method === 'tools/call' && typeof message.params?.name === 'string' ? message.params.name : undefined
  } catch {
    return undefined // not JSON: the transport says so
  }
}

/**
 * JSON-RPC batches left MCP in 2025-06-18: a POST of an array from a client speaking that version
 * or later is refused whole (stdio refuses them too). Without a version header the client speaks
 * 2025-03-26, where batches were allowed — but never with `initialize` in them, which opens the
 * session every other message belongs to (and no header comes before it).
 */
async function batchProblem(request: Request): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined
  const text = await request.clone().text()
  if (!text.trimStart().startsWith('[')) return undefined
  const version = request.headers.get('mcp-protocol-version')
  if (version && version >= '2025-06-18') {
    return `Batched JSON-RPC messages are not part of MCP since 2025-06-18 (this request says ${version}); send one message per request. Nothing was run.`
  }
  if (batchInitializes(text)) return 'An initialize request must be sent alone, not in a JSON-RPC batch; send it first, then the other messages. Nothing was run.'
  return undefined
}

function batchInitializes(text: string): boolean {
  try {
    const messages = JSON.parse(text) as unknown
    return Array.isArray(messages) && messages.some((m) => (m as { method?: unknown } | null)?.method === 'initialize')
  } catch {
    return false // not JSON: the transport says so
  }
}

/** One message on an event stream that then ends: the answer to a resumed stream's request. */
function sseOf(sessionId: string, message: JSONRPCMessage): Response {
  return new Response(`event: message\ndata: ${JSON.stringify(message)}\n\n`, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'mcp-session-id': sessionId },
  })
}

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

/** What Streamable HTTP serves: messages (POST), streams (GET), the end of a session (DELETE). */
const ALLOWED_METHODS = ['GET', 'POST', 'DELETE']
