/**
 * Plugin sessions (seed 001 §Plugin Session Management): a plugin tool suspended on `elicit`
 * stays alive between HTTP requests. The session id is the LLM's tool-call id; each session
 * has a random token issued with its elicitation requests, and an answer without it resumes
 * nothing. Sessions end on completion, failure, abort, and after an idle timeout, so abandoned
 * elicitations do not leak. Metadata (and the journal) go to a `ToolSessionStore`; the live
 * generator stays in this process.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createScope, type Operation, type Scope } from 'effection'
import { createBridgeHost, type BridgeHost } from '../bridge/create-bridge-host.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { SamplingProvider } from '../sampling/provider.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { createMemorySessionStore, type ToolSessionStatus, type ToolSessionStore } from './tool-session-store.ts'

export class SessionLimitError extends McpBridgeError {
  readonly code = 'SESSION_LIMIT'
  constructor(limit: number) {
    super(
      `Too many tool sessions are waiting for users (${limit}). Finish or cancel some, or raise limits.maxActiveSessions.`,
    )
  }
}

export interface PluginSession {
  readonly id: string
  readonly toolName: string
  readonly callId: string
  readonly token: string
  readonly host: BridgeHost<unknown>
  readonly createdAt: number
  /** How many of the host's events the engine has already forwarded. */
  cursor: number
  lastActivity: number
}

export interface PluginSessionInfo {
  id: string
  toolName: string
  callId: string
  status: ToolSessionStatus
  createdAt: number
  lastActivity: number
  pendingKey: string | undefined
}

export interface PluginSessionManagerOptions {
  store?: ToolSessionStore
  /** Abort a session nobody touched for this long (default 30 minutes). */
  idleTimeoutMs?: number
  /** Most sessions alive at once (default 1,000). */
  maxActiveSessions?: number
}

export interface CreatePluginSessionConfig {
  tool: AnyMcpTool
  params: unknown
  callId: string
  sampling: SamplingProvider
}

export class PluginSessionManager {
  readonly #sessions = new Map<string, PluginSession & { timer: ReturnType<typeof setTimeout> | undefined }>()
  readonly #store: ToolSessionStore
  readonly #scope: Scope
  readonly #destroy: () => Promise<void>
  readonly idleTimeoutMs: number
  readonly maxActiveSessions: number

  constructor(options: PluginSessionManagerOptions = {}) {
    this.#store = options.store ?? createMemorySessionStore()
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30 * 60_000
    this.maxActiveSessions = options.maxActiveSessions ?? 1_000
    const [scope, destroy] = createScope()
    this.#scope = scope
    this.#destroy = () => Promise.resolve(destroy())
  }

  /** Start a tool call as a session. Throws `SessionLimitError` past the limit (others unaffected). */
  create(config: CreatePluginSessionConfig): PluginSession {
    if (this.#sessions.size >= this.maxActiveSessions) throw new SessionLimitError(this.maxActiveSessions)
    if (this.#sessions.has(config.callId)) throw new TypeError(`A session for tool call ${config.callId} already exists`)
    const host = createBridgeHost({ ...config, scope: this.#scope })
    const now = Date.now()
    const session = {
      id: config.callId,
      toolName: config.tool.name,
      callId: config.callId,
      token: randomBytes(18).toString('base64url'),
      host,
      createdAt: now,
      cursor: 0,
      lastActivity: now,
      timer: undefined as ReturnType<typeof setTimeout> | undefined,
    }
    this.#sessions.set(session.id, session)
    this.#persist(session, 'running')
    void host.outcome.then((outcome) => this.#end(session.id, outcome.status))
    this.touch(session)
    return session
  }

  get(sessionId: string): PluginSession | undefined {
    return this.#sessions.get(sessionId)
  }

  /** Constant-time token check. */
  verifyToken(session: PluginSession, token: string): boolean {
    const a = Buffer.from(session.token)
    const b = Buffer.from(String(token))
    return a.length === b.length && timingSafeEqual(a, b)
  }

  /** Mark activity: restarts the idle timer and records the status. */
  touch(session: PluginSession): void {
    const live = this.#sessions.get(session.id)
    if (!live) return
    live.lastActivity = Date.now()
    if (live.timer) clearTimeout(live.timer)
    live.timer = setTimeout(() => void this.abort(live.id, `no answer for ${Math.round(this.idleTimeoutMs / 1000)} s`), this.idleTimeoutMs)
    live.timer.unref?.()
    this.#persist(live, live.host.status() === 'awaiting_elicit' ? 'awaiting_elicit' : 'running')
  }

  async abort(sessionId: string, reason = 'aborted'): Promise<void> {
    const session = this.#sessions.get(sessionId)
    if (!session) return
    await session.host.abort(reason)
  }

  listActive(): PluginSessionInfo[] {
    return [...this.#sessions.values()].map((s) => ({
      id: s.id,
      toolName: s.toolName,
      callId: s.callId,
      status: s.host.status() as ToolSessionStatus,
      createdAt: s.createdAt,
      lastActivity: s.lastActivity,
      pendingKey: s.host.pending()?.key,
    }))
  }

  get size(): number {
    return this.#sessions.size
  }

  /** Abort every session and release the scope (server shutdown). */
  async close(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.abort(id, 'server shutting down')))
    await this.#destroy()
  }

  #end(sessionId: string, status: ToolSessionStatus): void {
    const session = this.#sessions.get(sessionId)
    if (!session) return
    if (session.timer) clearTimeout(session.timer)
    this.#sessions.delete(sessionId)
    void this.#run(() => this.#store.delete(sessionId))
    void status
  }

  #persist(session: PluginSession, status: ToolSessionStatus): void {
    const entry = {
      sessionId: session.id,
      toolName: session.toolName,
      callId: session.callId,
      status,
      createdAt: session.createdAt,
      lastActivity: session.lastActivity,
      journal: session.host.journal,
    }
    void this.#run(() => this.#store.set(session.id, entry))
  }

  #run<T>(op: () => Operation<T>): Promise<T | undefined> {
    // Store failures must not take a live session down; they surface in the store's own logs.
    return this.#scope.run(op).then(
      (v) => v,
      () => undefined,
    )
  }
}
