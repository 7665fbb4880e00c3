/**
 * The copies of calls this process holds: each a bridge host running in the registry's scope,
 * started new, replayed from a record, or recovered. A copy is the call only while its revision
 * is the stored one; one that is not any more is superseded (stopped, recording nothing). Parked
 * copies wait for their answers here as long as they were parked for, and only the `warmCalls`
 * most recently parked stay in memory: the rest are let go of (hibernated) and an answer replays
 * them from their records. When a copy ends, its outcome is written and its lock released.
 */
import type { Scope } from 'effection'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { TERMINAL_STATUSES } from '../bridge/events.ts'
import { JournalDivergenceError } from '../errors/call-errors.ts'
import type { McpBridgeLogger } from '../telemetry/logger.ts'
import type { Clock } from '../time/clock.ts'
import { ActivityLog, type CallActivity } from './call-activity.ts'
import type { SegmentStart } from './call-trace.ts'
import type { LiveCall } from './live-call.ts'
import { endOf, newCopy, type CopyStart } from './new-copy.ts'
import { type AnswerWait, ParkedCalls } from './parked-calls.ts'
import { letGo } from './let-go.ts'
import { recordEnd, writeRecord, type RecordWrites } from './record-writes.ts'
import type { LiveCallInfo, StartCall } from './registry-types.ts'
import type { CallRecord, StoredQuestion } from './stores/call-store.ts'
import { StoreUnavailableError } from '../errors/store-errors.ts'

/** Why a parked copy stops when it is let go of from memory (its `finally` runs; nothing is recorded). */
const HIBERNATED = 'it was let go of from memory while it waited; an answer replays it from its journal'

export interface CallCopiesOptions {
  scope: Scope
  clock: Clock
  writes: RecordWrites
  log: McpBridgeLogger
  /** How long a parked call waits unless `park` says otherwise. */
  wait: AnswerWait
  warmCalls: number
}

export class CallCopies<X> {
  readonly #calls = new Map<string, LiveCall<X>>()
  readonly #parked: ParkedCalls<LiveCall<X>>
  /** Timelines of the calls seen since `recordActivity()`, live and the last ended (by end order). */
  #activity: ActivityLog | undefined

  constructor(private readonly o: CallCopiesOptions) {
    this.#parked = new ParkedCalls<LiveCall<X>>(o.scope, o.clock, (call, reason) => void call.host.abort(reason))
  }

  get size(): number {
    return this.#calls.size
  }

  get(callId: string): LiveCall<X> | undefined {
    return this.#calls.get(callId)
  }

  /** True while no request is serving the call (it waits for its client). */
  isParked(call: LiveCall<X>): boolean {
    return this.#parked.has(call)
  }

  /** A request in this process is answering the call now (it holds a copy that is not parked). */
  answering(callId: string): boolean {
    const live = this.#calls.get(callId)
    return live !== undefined && !this.isParked(live)
  }

  /** The copies a request or recovery is advancing now (their leases are renewed). */
  running(): LiveCall<X>[] {
    return [...this.#calls.values()].filter((call) => !this.isParked(call))
  }

  /** A new copy of a call (started, replayed or recovered) in the registry's scope. Never refused for capacity. */
  run(spec: StartCall<X>, start: CopyStart): LiveCall<X> {
    const { scope, clock, writes } = this.o
    const timeline = this.#activity?.timelineOf(spec.callId, spec.tool.name, spec.origin)
    const call = newCopy(spec, start, { scope, clock, writes, timeline }, (copy, outcome) => this.#end(copy, outcome))
    if (!TERMINAL_STATUSES.has(call.host.status())) this.#calls.set(call.callId, call)
    // It ended before `onEnd` could see it (invalid params, a replay that diverged at once): it
    // is not held, but its end is recorded and its lock released like any other's.
    else this.#end(call, endOf(call.host.events))
    return call
  }

  /**
   * Write a new copy's first record now (running, with what its journal holds already), unless it
   * has one or has ended. A store that does not take it: the call ends, and this throws.
   */
  async recordStart(call: LiveCall<X>): Promise<void> {
    if (call.revision > 0 || TERMINAL_STATUSES.has(call.host.status())) return
    try {
      await writeRecord(this.o.writes, call, { status: 'running', journal: [...call.host.journal] }, true)
    } catch (error) {
      await call.host.abort('it could not be recorded (the call store did not answer)')
      throw error
    }
  }

  /** A copy of a stored call, replaying its journal: what its record fixes, with what this surface runs it with. */
  replay(spec: Omit<StartCall<X>, 'callId' | 'params' | 'client' | 'paramsDigest' | 'origin'>, record: CallRecord, segment: SegmentStart): LiveCall<X> {
    const fixed = {
      callId: record.callId,
      params: record.params,
      client: record.client,
      paramsDigest: record.paramsDigest,
      origin: record.origin,
      ...(record.auth && { auth: record.auth }),
    }
    return this.run(
      { ...spec, ...fixed },
      {
        tokenHash: record.tokenHash,
        revision: record.revision,
        replay: record.journal,
        createdAt: record.createdAt,
        segment,
        ...(record.trace !== undefined && { trace: record.trace }),
      },
    )
  }

  /**
   * The call waits for its client: store the question, let go of its lock, and start its idle
   * time. Resolves once the record is stored (an answer may then reach any instance).
   */
  async park(call: LiveCall<X>, question: StoredQuestion, { pinned = false, wait = this.o.wait }: { pinned?: boolean; wait?: AnswerWait } = {}): Promise<void> {
    if (this.#calls.get(call.callId) !== call) return
    call.pinned = pinned
    // Parked again on the question already stored (a refused answer, a retry without one): the
    // record is current, and a requestState minted for it stays valid.
    if (call.storedQuestion !== question.id) {
      try {
        await writeRecord(this.o.writes, call, { status: 'waiting', journal: [...call.host.journal], pending: question, waitMs: wait.ms })
      } catch (error) {
        // Not stored, so not to be asked: an answer could not find it after a restart or on
        // another instance. The call ends here (its `finally` runs); the caller says why.
        const failure = error instanceof StoreUnavailableError ? error : new StoreUnavailableError(this.o.writes.store.kind, 'its question', error)
        // Said for the model and the person; the store's own words (its address) go to the caller's log.
        await call.host.abort('its question could not be saved (the call store did not answer)')
        await this.unlock(call)
        throw failure
      }
    }
    // Parked before the lock goes: a request that takes the lock next must find this copy waiting
    // here, or it would take it for an outdated one and replay the call.
    if (this.#calls.get(call.callId) === call && !TERMINAL_STATUSES.has(call.host.status())) {
      call.trace.parked(question.key)
      this.#activity?.get(call.callId)?.note('parked', `waits for ${question.key}`)
      this.#parked.touch(call, wait)
      this.#coolDown()
    }
    await this.unlock(call)
  }

  /** A request with an answer takes a parked copy back (it holds the call's lock from here on). */
  unpark(call: LiveCall<X>): void {
    this.#parked.remove(call)
    this.#activity?.get(call.callId)?.note('resumed', 'an answer came')
  }

  /**
   * Keep at most `warmCalls` parked generators: let go of the longest-waiting ones past it. Their
   * records hold everything (journal, question); an answer replays them, on any instance.
   */
  #coolDown(): void {
    let over = this.#parked.size - this.o.warmCalls
    for (const call of [...this.#parked.longestWaiting()]) {
      if (over <= 0) break
      if (call.pinned) continue
      this.supersede(call, HIBERNATED)
      over--
    }
  }

  /** Stop a local copy that is not the current one any more, without recording anything for it. */
  supersede(call: LiveCall<X>, reason = 'another instance advanced this call'): void {
    this.#activity?.get(call.callId)?.unfollow(reason === HIBERNATED ? 'let go of from memory while it waits; an answer replays it' : `this copy stopped: ${reason}`)
    call.superseded = true
    this.#forget(call)
    void call.host.abort(reason)
  }

  #forget(call: LiveCall<X>): void {
    this.#parked.remove(call)
    if (this.#calls.get(call.callId) === call) this.#calls.delete(call.callId)
  }

  #end(call: LiveCall<X>, outcome: BridgeOutcome<unknown>): void {
    this.#forget(call)
    // A copy let go of is not the call ending: it waits in the store (its timeline said so).
    if (!this.#calls.has(call.callId) && !call.superseded) this.#activity?.ended(call.callId)
    if (call.superseded) call.trace.stopped(outcome.status === 'aborted' ? outcome.reason : outcome.status)
    else call.trace.ended(outcome)
    // The person is told the call cannot go on; what changed is for the developers.
    if (outcome.status === 'failed' && outcome.error instanceof JournalDivergenceError)
      this.o.log.error({ callId: call.callId, tool: call.toolName, err: outcome.error }, `tool call ${call.callId}: ${outcome.error.message}`)
    // Its end is stored (a copy superseded stores nothing), then its lock given back.
    call.writes = (call.superseded ? call.writes : recordEnd(this.o.writes, call, outcome, this.o.log)).then(() => this.unlock(call))
  }

  /** Give the call's lock back, if this copy holds it. */
  async unlock(call: LiveCall<X>): Promise<void> {
    const lease = call.lease
    call.lease = undefined
    if (lease) await letGo(this.o.writes.store, lease)
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

  /** Stop every copy (recording nothing: their records stay as they were) and wait for their writes. */
  async stopAll(reason: string): Promise<void> {
    const copies = [...this.#calls.values()]
    for (const call of copies) call.superseded = true
    await Promise.all(copies.map((call) => call.host.abort(reason)))
    await Promise.all(copies.map((call) => call.writes))
  }

  recordActivity(keep: number): void {
    this.#activity ??= new ActivityLog(keep, this.o.clock)
  }

  activity(): CallActivity[] {
    return (
      this.#activity?.list((callId) => {
        const live = this.#calls.get(callId)
        return live && { status: this.isParked(live) ? 'waiting' : live.host.status(), pending: live.host.pending() }
      }) ?? []
    )
  }
}
