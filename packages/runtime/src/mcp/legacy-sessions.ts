/**
 * The sessions of 2025-11-25 clients over Streamable HTTP (one per `initialize`, until the client
 * DELETEs it). Bounded three ways, so one client cannot deny the others: at most `maxSessions`
 * in all, `maxSessionsPerClient` per client (`clientKey`), and a session no request has used for
 * `idleMs` — none in flight, none open such as a GET stream — is closed.
 *
 * Many clients never DELETE (the MCP Inspector, SDK 1.x, the conformance suite), and some never
 * close their GET stream either: a client at its cap gets its least recently used session without
 * a request in flight closed to make room (one with no open stream first), rather than a 429 —
 * only a client whose every session is answering a request is refused. At the total cap the same
 * kind of session of the network holding the most makes room (`roomFor`), so many addresses cannot
 * lock every newcomer out; 503 only when none may be closed. A client that comes back to a closed
 * session gets 404 and initializes a new one, as the protocol says.
 */
import { randomUUID } from 'node:crypto'
import { createScope } from 'effection'
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type McpServer, type RequestId } from '@modelcontextprotocol/server'
import { createSessionEventStore } from './session-event-store.ts'
import { ClientCounts } from '../calls/client-counts.ts'
import { roomFor, type Holding } from '../calls/network-shares.ts'
import { IdleQueue } from '../calls/idle-queue.ts'
import type { Clock } from '../time/clock.ts'
import type { Scope } from 'effection'

export interface LegacySessionLimits {
  maxSessions: number
  maxSessionsPerClient: number
  idleMs: number
  /** How long a client waits before it reconnects a dropped stream (the SSE `retry:` field), in ms. */
  streamRetryMs: number
  clock: Clock
  /** The server's scope: the sessions' idle expiry runs in a child of it. */
  scope: Scope
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport
  server: McpServer
  client: string
  /** Who opened it (with OAuth: the token's client and subject; '' without): only they may use it. */
  principal: string
  /** Requests (POST, DELETE) of this session whose responses are still open. */
  inFlight: number
  /** Its open GET streams (the channel for what the server sends unasked). */
  streams: number
  /** When its last response ended (or it began): the least recently used idle one goes first. */
  lastUsed: number
}

/** What a session has open: requests being answered, or GET streams. */
type Open = 'inFlight' | 'streams'

export type SessionAnswer = { response: Response } | { refused: { status: number; message: string } }

/** Who sends a request: its verified token (with OAuth) and the principal it names. */
export interface SessionCaller {
  authInfo: AuthInfo | undefined
  principal: string
}

export class LegacySessions {
  readonly #sessions = new Map<string, Session>()
  readonly #perClient = new ClientCounts()
  readonly #idle: IdleQueue<string>
  readonly #destroy: () => Promise<void>

  constructor(
    private readonly factory: () => McpServer,
    private readonly limits: LegacySessionLimits,
  ) {
    const [scope, destroy] = createScope(limits.scope)
    this.#destroy = () => Promise.resolve(destroy())
    this.#idle = new IdleQueue<string>(scope, limits.idleMs, (id) => void this.#sessions.get(id)?.transport.close(), limits.clock)
  }

  get size(): number {
    return this.#sessions.size
  }

  /** A request of an existing session. */
  async serve(sessionId: string, request: Request, caller: SessionCaller): Promise<SessionAnswer> {
    const session = this.#sessions.get(sessionId)
    // Another caller's session is as good as unknown to this one: a session id alone is no credential.
    if (!session || session.principal !== caller.principal) {
      return { refused: { status: 404, message: `Session "${sessionId}" not found (it ended, expired, or the server restarted); initialize a new one.` } }
    }
    const kind = request.method === 'GET' ? 'streams' : 'inFlight'
    const options = caller.authInfo && { authInfo: caller.authInfo }
    const cancelled = request.method === 'POST' ? await cancelledRequest(request) : undefined
    const response = await this.#tracked(sessionId, session, kind, () => session.transport.handleRequest(request, options))
    // A cancelled request gets no response (the SDK drops it), and only a response ends its
    // stream: the client would hold it open to its own timeout. It is ended here instead.
    if (cancelled !== undefined) session.transport.closeSSEStream(cancelled)
    return { response }
  }

  /** An `initialize` without a session: a new one, if the limits allow. */
  async open(request: Request, client: string, caller: SessionCaller): Promise<SessionAnswer> {
    const { maxSessions, maxSessionsPerClient } = this.limits
    if (this.#perClient.of(client) >= maxSessionsPerClient && !(await this.#closeLeastRecentlyUsed(client))) {
      return {
        refused: {
          status: 429,
          message: `You already hold ${maxSessionsPerClient} sessions on this server (maxLegacySessionsPerClient), each of them answering a request; close one (DELETE) or wait for one to finish.`,
        },
      }
    }
    if (this.#sessions.size >= maxSessions && !(await this.#makeRoomFor(client))) {
      return { refused: { status: 503, message: `This server holds ${maxSessions} sessions already (maxLegacySessions), each answering a request; try again later.` } }
    }
    const server = this.factory()
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Resumable streams: a dropped connection reconnects with Last-Event-ID and misses nothing,
      // after the `retry:` the stream opens with.
      eventStore: createSessionEventStore((streamId) => requestsOfStream(transport, streamId)),
      retryInterval: this.limits.streamRetryMs,
      onsessioninitialized: (id) => this.#add(id, { transport, server, client, principal: caller.principal, inFlight: 0, streams: 0, lastUsed: this.limits.clock.now() }),
      onsessionclosed: (id) => this.#remove(id),
    })
    transport.onclose = () => {
      if (transport.sessionId) this.#remove(transport.sessionId)
    }
    await server.connect(transport)
    const response = await transport.handleRequest(request, caller.authInfo && { authInfo: caller.authInfo })
    const id = transport.sessionId
    const session = id === undefined ? undefined : this.#sessions.get(id)
    if (id === undefined || !session) return { response }
    session.inFlight += 1
    this.#idle.remove(id)
    return { response: this.#release(id, session, 'inFlight', response) }
  }

  async close(): Promise<void> {
    const open = [...this.#sessions.values()]
    await Promise.all(open.map((s) => s.server.close()))
    await this.#destroy()
  }

  /**
   * Close `client`'s least recently used session with no request in flight — one without an open
   * stream first; false when every one of them is answering a request.
   */
  async #closeLeastRecentlyUsed(client: string): Promise<boolean> {
    const oldest = this.#holdings().get(client)?.oldest
    return oldest !== undefined && (await this.#closeSession(oldest))
  }

  /**
   * All sessions taken: close one of the network holding the most (`roomFor`), so many addresses
   * cannot lock every newcomer out; false when fairness names none (or all are answering requests).
   */
  async #makeRoomFor(client: string): Promise<boolean> {
    const victim = roomFor(client, [...this.#holdings().values()])
    return victim?.oldest !== undefined && (await this.#closeSession(victim.oldest))
  }

  /** Each client's sessions as `roomFor` weighs them: how many, and the one to close first — idle, without an open stream first, then least recently used. */
  #holdings(): Map<string, Holding<string>> {
    const holdings = new Map<string, Holding<string>>()
    const first = new Map<string, Session>()
    const before = (a: Session, b: Session) => (a.streams > 0 !== b.streams > 0 ? b.streams > 0 : a.lastUsed < b.lastUsed)
    for (const [id, session] of this.#sessions) {
      let holding = holdings.get(session.client)
      if (!holding) holdings.set(session.client, (holding = { client: session.client, held: 0, oldest: undefined, since: Infinity }))
      holding.held += 1
      const best = first.get(session.client)
      if (session.inFlight > 0 || (best && !before(session, best))) continue
      first.set(session.client, session)
      holding.oldest = id
      holding.since = session.lastUsed
    }
    return holdings
  }

  async #closeSession(id: string): Promise<boolean> {
    const session = this.#sessions.get(id)
    if (!session) return false
    this.#remove(id)
    await session.server.close()
    return true
  }

  #add(id: string, session: Session): void {
    this.#sessions.set(id, session)
    this.#perClient.add(session.client)
    this.#idle.touch(id)
  }

  #remove(id: string): void {
    const session = this.#sessions.get(id)
    if (!session) return
    this.#sessions.delete(id)
    this.#idle.remove(id)
    this.#perClient.remove(session.client)
  }

  /** Serve a request (or open a stream); the session is not idle until its response has ended. */
  async #tracked(id: string, session: Session, kind: Open, serve: () => Promise<Response>): Promise<Response> {
    session[kind] += 1
    this.#idle.remove(id)
    try {
      return this.#release(id, session, kind, await serve())
    } catch (error) {
      this.#settled(id, session, kind)
      throw error
    }
  }

  /** The response, watched: when its body ends (or is cancelled), the session's idle time starts. */
  #release(id: string, session: Session, kind: Open, response: Response): Response {
    if (!response.body) {
      this.#settled(id, session, kind)
      return response
    }
    const reader = response.body.getReader()
    // Once: a cancelled stream (the client went away) also ends the read that was waiting.
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      this.#settled(id, session, kind)
    }
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { value, done } = await reader.read()
          if (done) {
            controller.close()
            settle()
          } else controller.enqueue(value)
        } catch (error) {
          controller.error(error)
          settle()
        }
      },
      async cancel(reason) {
        settle()
        await reader.cancel(reason)
      },
    })
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  }

  #settled(id: string, session: Session, kind: Open): void {
    session[kind] -= 1
    session.lastUsed = this.limits.clock.now()
    if (session.inFlight === 0 && session.streams === 0 && this.#sessions.get(id) === session) this.#idle.touch(id)
  }
}

/**
 * The requests a response stream of `transport` answers. The SDK's transport keeps that map as an
 * underscored field (no API for it); read defensively, so an SDK without it only costs resumption
 * after a restart (`session-resumption.ts`), which the kill trial would show.
 */
function requestsOfStream(transport: WebStandardStreamableHTTPServerTransport, streamId: string): RequestId[] {
  const mapping = (transport as unknown as { _requestToStreamMapping?: unknown })._requestToStreamMapping
  if (!(mapping instanceof Map)) return []
  return [...(mapping as Map<RequestId, string>)].flatMap(([request, stream]) => (stream === streamId ? [request] : []))
}

/** The request a `notifications/cancelled` message names, if the body is one. */
async function cancelledRequest(request: Request): Promise<RequestId | undefined> {
  try {
    const message = JSON.parse(await request.clone().text()) as { method?: unknown; params?: { requestId?: unknown } } | null
    const id = message?.method === 'notifications/cancelled' ? message.params?.requestId : undefined
    return typeof id === 'string' || typeof id === 'number' ? id : undefined
  } catch {
    return undefined // not JSON: the transport says so
  }
}
