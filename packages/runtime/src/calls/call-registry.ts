/**
 * The one registry of live tool calls, used by the chat engine and the MCP server alike. A call
 * suspended on a question stays alive here between HTTP requests, and its lifetime belongs to
 * the registry's Effection scope:
 *
 *   - `start` runs the call in that scope (closing the registry aborts every call, its `finally`
 *     blocks run);
 *   - `park` marks the call as waiting for its client, `claim` as served again; an `IdleQueue` in
 *     the scope aborts a call parked for longer than `idleTimeoutMs`;
 *   - each call belongs to a client (by default its remote address): one client may hold at most
 *     `maxCallsPerClient`, so it cannot take every place of `maxCalls` from the others;
 *   - a call leaves the registry when it ends, however it ends, and how it ended is remembered
 *     for `idleTimeoutMs`, so a replayed MCP requestState cannot run a finished call again.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createScope, type Scope } from 'effection'
import { createBridgeHost, type BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { TERMINAL_STATUSES } from '../bridge/events.ts'
import type { JournalEntry } from '../bridge/journal.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { SamplingProvider } from '../sampling/provider.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { ClientCounts } from './client-counts.ts'
import { IdleQueue } from './idle-queue.ts'
import type { LiveCall } from './live-call.ts'

export class TooManyCallsError extends McpBridgeError {
  readonly code = 'TOO_MANY_CALLS'
  constructor(limit: number, option: string, perClient = false) {
    super(
      perClient
        ? `You already hold ${limit} tool calls on this server (${option}); answer or cancel some first.`
        : `This server already holds ${limit} tool calls waiting for input (${option}); finish or cancel some, or try again later.`,
    )
  }
}

export class DuplicateCallError extends McpBridgeError {
  readonly code = 'DUPLICATE_CALL'
  constructor(callId: string) {
    super(`A tool call with id "${callId}" is already running; each tool call needs its own id.`)
  }
}

export interface CallRegistryOptions {
  /** Abort a call that waits for its client longer than this (ms). */
  idleTimeoutMs: number
  /** Most calls held at once. */
  maxCalls: number
  /** Most calls one client may hold at once. */
  maxCallsPerClient: number
  /** The options that set these, named in messages (e.g. `limits.maxActiveCalls`). */
  maxCallsOption: string
  maxCallsPerClientOption: string
  idleTimeoutOption: string
}

export interface StartCall<X> {
  tool: AnyMcpTool
  params: unknown
  callId: string
  sampling?: SamplingProvider
  /** A journal to replay (resume a call recorded elsewhere). */
  replay?: readonly JournalEntry[]
  /** Whose call it is, for the per-client limit (e.g. the remote address). */
  client: string
  extra: X
}

export interface LiveCallInfo {
  callId: string
  toolName: string
  client: string
  status: string
  createdAt: number
  /** The key of the question it waits for, if any. */
  pendingKey: string | undefined
}

export class CallRegistry<X = undefined> {
  readonly #calls = new Map<string, LiveCall<X>>()
  readonly #finished = new Map<string, { until: number; how: string }>()
  readonly #parked: IdleQueue<LiveCall<X>>
  readonly #perClient = new ClientCounts()
  readonly #scope: Scope
  readonly #destroy: () => Promise<void>
  readonly options: Readonly<CallRegistryOptions>

  constructor(options: CallRegistryOptions) {
    this.options = Object.freeze({ ...options })
    const [scope, destroy] = createScope()
    this.#scope = scope
    this.#destroy = () => Promise.resolve(destroy())
    const why = `no answer came within ${Math.round(options.idleTimeoutMs / 1000)} s (${options.idleTimeoutOption})`
    this.#parked = new IdleQueue<LiveCall<X>>(scope, options.idleTimeoutMs, (call) => void call.host.abort(why))
  }

  get size(): number {
    return this.#calls.size
  }

  /** Start a call. Throws `TooManyCallsError` past the limit, leaving every other call as it was. */
  start(spec: StartCall<X>): LiveCall<X> {
    const { maxCalls, maxCallsPerClient } = this.options
    if (this.#perClient.of(spec.client) >= maxCallsPerClient) {
      throw new TooManyCallsError(maxCallsPerClient, this.options.maxCallsPerClientOption, true)
    }
    if (this.#calls.size >= maxCalls) throw new TooManyCallsError(maxCalls, this.options.maxCallsOption)
    if (this.#calls.has(spec.callId)) throw new DuplicateCallError(spec.callId)
    let call: LiveCall<X> | undefined
    const host = createBridgeHost({
      tool: spec.tool,
      params: spec.params,
      callId: spec.callId,
      scope: this.#scope,
      // Synchronous: a call that ended is out of the registry before anyone hears of its end.
      onEnd: (outcome) => (call ? this.#end(call, outcome) : undefined),
      ...(spec.sampling && { sampling: spec.sampling }),
      ...(spec.replay && { replay: spec.replay }),
    })
    call = {
      callId: spec.callId,
      client: spec.client,
      toolName: spec.tool.name,
      host,
      token: randomBytes(18).toString('base64url'),
      createdAt: Date.now(),
      events: host.subscribe(),
      extra: spec.extra,
    }
    // A call that ended before it was registered (invalid params) is only remembered as ended.
    if (!TERMINAL_STATUSES.has(host.status())) {
      this.#calls.set(call.callId, call)
      this.#perClient.add(spec.client)
    } else void host.outcome.then((outcome) => this.#end(call!, outcome))
    return call
  }

  get(callId: string): LiveCall<X> | undefined {
    return this.#calls.get(callId)
  }

  /** Constant-time check of the token a request presents for a call. */
  verifyToken(call: LiveCall<X>, token: unknown): boolean {
    const a = Buffer.from(call.token)
    const b = Buffer.from(typeof token === 'string' ? token : '')
    return a.length === b.length && timingSafeEqual(a, b)
  }

  /** True while no request is serving the call (it waits for its client). */
  isParked(call: LiveCall<X>): boolean {
    return this.#parked.has(call)
  }

  /** The call waits for its client; it is aborted if no request claims it within `idleTimeoutMs`. */
  park(call: LiveCall<X>): void {
    if (this.#calls.get(call.callId) === call) this.#parked.touch(call)
  }

  /** A request serves the call again: its expiry is called off. */
  claim(call: LiveCall<X>): void {
    this.#parked.remove(call)
  }

  async abort(callId: string, reason = 'aborted'): Promise<void> {
    await this.#calls.get(callId)?.host.abort(reason)
  }

  /** How a recently finished call ended ("it completed", "it was aborted: ..."), if it did. */
  finishedHow(callId: string): string | undefined {
    const entry = this.#finished.get(callId)
    if (entry === undefined) return undefined
    if (entry.until > Date.now()) return entry.how
    this.#finished.delete(callId)
    return undefined
  }

  list(): LiveCallInfo[] {
    return [...this.#calls.values()].map((c) => ({
      callId: c.callId,
      toolName: c.toolName,
      client: c.client,
      status: c.host.status(),
      createdAt: c.createdAt,
      pendingKey: c.host.pending()?.key,
    }))
  }

  /** Abort every call (their `finally` blocks run) and end the registry's scope. */
  async close(reason = 'the server closed'): Promise<void> {
    await Promise.all([...this.#calls.values()].map((call) => call.host.abort(reason)))
    await this.#destroy()
  }

  #end(call: LiveCall<X>, outcome: BridgeOutcome<unknown>): void {
    this.claim(call)
    if (this.#calls.get(call.callId) === call) {
      this.#calls.delete(call.callId)
      this.#perClient.remove(call.client)
    } else if (this.#finished.has(call.callId)) return
    const how = outcome.status === 'aborted' ? `it was aborted: ${outcome.reason}` : `it ${outcome.status}`
    this.#finished.set(call.callId, { until: Date.now() + this.options.idleTimeoutMs, how })
    // Keep the memory of finished ids bounded: drop the expired ones as we go.
    if (this.#finished.size > this.options.maxCalls * 4) {
      const now = Date.now()
      for (const [id, entry] of this.#finished) if (entry.until <= now) this.#finished.delete(id)
    }
  }
}
