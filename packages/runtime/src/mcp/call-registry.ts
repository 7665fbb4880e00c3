/**
 * The calls this server holds between rounds. A call waiting for the client is parked with an
 * expiry (the same time-to-live as its requestState): a client that never comes back does not
 * keep a tool suspended forever; its `finally` blocks run when it expires. Finished call ids are
 * remembered for that long too, so a replayed requestState cannot run a finished call again
 * (after a restart that memory is gone, and such a state is resumed from its journal).
 */
import type { ClientCapabilities } from '@modelcontextprotocol/server'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { JournalEntry } from '../bridge/journal.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { LiveCall } from './live-call.ts'

export class TooManyCallsError extends McpBridgeError {
  readonly code = 'TOO_MANY_SUSPENDED_CALLS'
  constructor(limit: number) {
    super(`This server already holds ${limit} tool calls waiting for input (maxSuspendedCalls); try again once some finish.`)
  }
}

export class CallRegistry {
  readonly #calls = new Map<string, LiveCall>()
  readonly #finished = new Map<string, { until: number; how: string }>()

  constructor(
    private readonly ttlMs: number,
    private readonly limit: number,
  ) {}

  get size(): number {
    return this.#calls.size
  }

  start(tool: AnyMcpTool, callId: string, argsDigest: string, params: unknown, caps: ClientCapabilities, replay?: readonly JournalEntry[]): LiveCall {
    if (this.#calls.size >= this.limit) throw new TooManyCallsError(this.limit)
    const call = new LiveCall(tool, callId, argsDigest, params, caps, replay)
    call.busy = true
    this.#calls.set(callId, call)
    return call
  }

  get(callId: string): LiveCall | undefined {
    return this.#calls.get(callId)
  }

  /** How a recently finished call ended ("it completed", "it expired: ..."), if it did. */
  finishedHow(callId: string): string | undefined {
    const entry = this.#finished.get(callId)
    if (entry === undefined) return undefined
    if (entry.until > Date.now()) return entry.how
    this.#finished.delete(callId)
    return undefined
  }

  /** The call waits for the client: release it to the next round, and expire it if none comes. */
  park(call: LiveCall): void {
    call.busy = false
    clearTimeout(call.expiry)
    call.expiry = setTimeout(() => {
      const why = `no answer came within ${Math.round(this.ttlMs / 1000)} s (inputTimeoutMs)`
      void call.host.abort(why)
      this.finish(call, `it expired: ${why}`)
    }, this.ttlMs)
    // An idle wait must not keep a stdio server or a test process alive.
    call.expiry.unref?.()
  }

  /** A round resumes the call. */
  claim(call: LiveCall): void {
    clearTimeout(call.expiry)
    call.busy = true
  }

  /** Idempotent: the first way a call ended (cancelled, expired, completed) is the one remembered. */
  finish(call: LiveCall, how = 'it ended'): void {
    if (this.#calls.get(call.callId) !== call) return
    clearTimeout(call.expiry)
    call.detachCancel?.()
    this.#calls.delete(call.callId)
    this.#finished.set(call.callId, { until: Date.now() + this.ttlMs, how })
    // Keep the memory of finished ids bounded: drop the expired ones as we go.
    if (this.#finished.size > this.limit * 4) {
      const now = Date.now()
      for (const [id, entry] of this.#finished) if (entry.until <= now) this.#finished.delete(id)
    }
  }

  async closeAll(reason: string): Promise<void> {
    const calls = [...this.#calls.values()]
    await Promise.all(calls.map((call) => call.host.abort(reason)))
    for (const call of calls) this.finish(call, `it was aborted: ${reason}`)
  }
}
