/**
 * Streamable HTTP for both generations behind one URL, routed the way the SDK documents it:
 *
 *   - 2026-07-28 requests carry their protocol version and capabilities in every request, so
 *     the SDK's `createMcpHandler` serves each with a fresh server instance;
 *   - 2025-11-25 clients need a session: during a tool call the server sends them
 *     `elicitation/create` and waits for the answer, which arrives as another POST. The SDK's
 *     stateless legacy fallback cannot route that answer back, so legacy traffic gets sessionful
 *     transports, one per `initialize`, kept until the client DELETEs it (bounded).
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
  type McpServerFactory,
} from '@modelcontextprotocol/server'
import { toNodeListener } from '../http/node-adapter.ts'
import { foreignRequestProblem, resolveRequestOrigin, type RequestOriginOptions } from '../http/request-origin.ts'

export interface McpHttpOptions extends RequestOriginOptions {
  /** 2025-11-25 sessions held at once; a further `initialize` is refused with 503. Default 1000. */
  maxLegacySessions?: number
}

export interface McpHttpHandler {
  /** Web-standard face: serve one request. */
  fetch(request: Request): Promise<Response>
  /** Node `http` face: `http.createServer(handler.node)`. */
  node(req: IncomingMessage, res: ServerResponse): Promise<void>
  /** Close every session and in-flight exchange. */
  close(): Promise<void>
}

interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport
  server: McpServer
}

export function createMcpHttpHandler(
  factory: () => McpServer,
  options: McpHttpOptions & { onError: (error: Error) => void },
): McpHttpHandler {
  const origin = resolveRequestOrigin(options, 'createHandler')
  const modern = createMcpHandler(factory as McpServerFactory, { legacy: 'reject', onerror: options.onError })
  const sessions = new Map<string, LegacySession>()
  const maxSessions = options.maxLegacySessions ?? 1000

  async function legacy(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id')
    if (sessionId) {
      const session = sessions.get(sessionId)
      if (!session) return jsonRpcError(404, -32001, `Session "${sessionId}" not found (it ended, or the server restarted); initialize a new one.`)
      return session.transport.handleRequest(request)
    }
    if (request.method !== 'POST') return jsonRpcError(400, -32000, 'A 2025-11-25 client must initialize a session (POST initialize) first.')
    if (sessions.size >= maxSessions) return jsonRpcError(503, -32000, `This server holds ${maxSessions} sessions already (maxLegacySessions); try again later.`)
    const server = factory()
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      onsessionclosed: (id) => void sessions.delete(id),
    })
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId)
    }
    await server.connect(transport)
    return transport.handleRequest(request)
  }

  async function fetch(request: Request): Promise<Response> {
    const foreign = foreignRequestProblem(request, origin)
    if (foreign) return jsonRpcError(403, -32000, foreign)
    return (await isLegacyRequest(request)) ? legacy(request) : modern.fetch(request)
  }

  return {
    fetch,
    node: toNodeListener(fetch),
    async close() {
      await modern.close()
      const open = [...sessions.values()]
      sessions.clear()
      await Promise.all(open.map((s) => s.server.close()))
    },
  }
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
