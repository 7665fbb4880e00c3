/**
 * A new copy of a call: its bridge host started in the registry's scope (fresh, or replaying a
 * stored journal), every journal entry written to the call's record before the tool goes on, its
 * trace and dev-panel timeline following it, and the `LiveCall` the registry holds it by.
 */
import { call as callPromise, type Operation, type Scope } from 'effection'
import { bothObservers } from '../bridge/call-observer.ts'
import { createBridgeHost, type BridgeOutcome } from '../bridge/create-bridge-host.ts'
import type { BridgeEvent } from '../bridge/events.ts'
import type { JournalEntry } from '../bridge/journal.ts'
import type { Clock } from '../time/clock.ts'
import type { CallTimeline } from './call-timeline.ts'
import { CallTrace, type SegmentStart } from './call-trace.ts'
import type { LiveCall } from './live-call.ts'
import { writeRecord, type RecordWrites } from './record-writes.ts'
import type { StartCall } from './registry-types.ts'

/** What a new copy starts from: nothing stored yet, or the record it replays. */
export interface CopyStart {
  tokenHash: string | undefined
  revision: number
  replay?: readonly JournalEntry[]
  createdAt?: number
  segment: SegmentStart
  trace?: string
}

export interface CopyContext {
  scope: Scope
  clock: Clock
  writes: RecordWrites
  /** The call's dev-panel timeline, when activity is recorded. */
  timeline: CallTimeline | undefined
}

/**
 * Start a copy. `onEnd` hears its end synchronously (a call that ended is out of the registry
 * before anyone hears of its end) — except for a copy that ended while starting (invalid
 * arguments, a replay that diverged at once), whose end the caller reads with `endOf`.
 */
export function newCopy<X>(spec: StartCall<X>, start: CopyStart, ctx: CopyContext, onEnd: (call: LiveCall<X>, outcome: BridgeOutcome<unknown>) => void): LiveCall<X> {
  let call: LiveCall<X> | undefined
  const { writes, scope, clock, timeline } = ctx
  const trace = new CallTrace({ callId: spec.callId, tool: spec.tool.name, surface: writes.surface }, start.segment, start.trace, clock)
  const host = createBridgeHost({
    observer: bothObservers(trace.observer, timeline?.observer),
    tool: spec.tool,
    params: spec.params,
    callId: spec.callId,
    ...(spec.auth && { auth: spec.auth }),
    scope,
    onEnd: (outcome) => (call ? onEnd(call, outcome) : undefined),
    persist: function* (journal): Operation<void> {
      const entries = [...journal]
      // A step at the very start runs while createBridgeHost is still returning, before `call`
      // exists: wait that one tick (the tool waits too), so its entry is stored like any other.
      yield* callPromise(async () => {
        if (!call) await Promise.resolve()
        if (call) await writeRecord(writes, call, { status: 'running', journal: entries }, true)
      })
    },
    ...(spec.sampling && { sampling: spec.sampling }),
    ...(start.replay && { replay: start.replay }),
  })
  timeline?.follow(host, start.segment.kind === 'resume' ? (start.segment.replayed ? 'replayed from its journal' : 'an answer came') : start.segment.kind)
  call = {
    callId: spec.callId,
    client: spec.client,
    auth: spec.auth,
    toolName: spec.tool.name,
    host,
    tokenHash: start.tokenHash,
    createdAt: start.createdAt ?? clock.now(),
    events: host.reader(),
    scope,
    extra: spec.extra,
    origin: spec.origin,
    params: spec.params,
    paramsDigest: spec.paramsDigest ?? '',
    revision: start.revision,
    lease: undefined,
    writes: Promise.resolve(),
    superseded: false,
    storedQuestion: undefined,
    pinned: false,
    trace,
  }
  return call
}

/** A finished call's outcome, read from its terminal event (available synchronously, unlike `outcome`). */
export function endOf(events: readonly BridgeEvent[]): BridgeOutcome<unknown> {
  const last = events[events.length - 1]
  if (last?.type === 'completed') return { status: 'completed', result: last.result }
  if (last?.type === 'failed') return { status: 'failed', error: last.error }
  return { status: 'aborted', reason: last?.type === 'aborted' ? last.reason : 'ended' }
}
