/**
 * What a request does to a stored call, on whichever instance it reached: resume it with an
 * answer, abort it, or end a waiting one to make room. Each takes the call's lock in the store
 * first, so of all the requests and instances one acts; then checks the record (its token and
 * caller, that it still waits, that its answer deadline has not passed); then acts on the copy
 * held here, replays one from the record, or writes the end to the record directly.
 */
import { call as callPromise, type Scope } from 'effection'
import { completedSteps, type CompletedStep } from '../bridge/journal.ts'
import { mayActOn, type CallerAuth } from '../tool/caller-auth.ts'
import type { Clock } from '../time/clock.ts'
import type { CallCopies } from './call-copies.ts'
import { describeOutcome, tokenMatches } from './call-record.ts'
import { checkRecord, forbidden, held, otherConversation, refusal } from './call-refusals.ts'
import { letGo } from './let-go.ts'
import type { SegmentStart } from './call-trace.ts'
import { type AnswerWait, unansweredReason } from './parked-calls.ts'
import { recordFinished, type RecordWrites } from './record-writes.ts'
import type { CallRefusal, ResumeOptions, Resumed } from './registry-types.ts'
import type { CallLease, CallRecord, CallStore, CallSurface, StoredOutcome } from './stores/call-store.ts'

/** The parts of a registry a request acts through. */
export interface RequestContext<X> {
  copies: CallCopies<X>
  store: CallStore
  writes: RecordWrites
  instanceId: string
  leaseMs: number
  clock: Clock
  surface: CallSurface
  scope: Scope
  /** The waits a call may have been parked for, the registry's own first (to name the one that ran out). */
  waits: readonly AnswerWait[]
  /** Carry on a call whose server stopped while running it (this registry's recovery), if it recovers. */
  carryOn: ((lease: CallLease, record: CallRecord) => Promise<void>) | undefined
}

export type Aborted = { ok: true; wasRunning: boolean; toolName: string; completed?: readonly CompletedStep[] } | CallRefusal

/**
 * Get a waiting call back to hand it an answer. On success the caller holds the call's lock until
 * it parks the call again or the call ends.
 */
export async function resumeCall<X>(r: RequestContext<X>, callId: string, options: ResumeOptions<X>): Promise<Resumed<X>> {
  const lease = await r.store.lock(callId, r.instanceId, r.leaseMs)
  if (!lease) return held(r.store, callId, r.instanceId, () => r.copies.answering(callId))
  const release = () => letGo(r.store, lease)
  const record = await r.store.get(callId)
  const live = r.copies.get(callId)
  const problem = await checkInTime(r, callId, record, options)
  const carryOn = r.carryOn
  if (problem?.code === 'BUSY' && record!.status === 'running' && !live && carryOn) {
    // Running, its lock free, no copy here: the server running it stopped. Take it over now
    // rather than at the next scan; the answer is for a question it asks next, if any.
    void r.scope.run(() => callPromise(() => carryOn(lease, record!)))
    return {
      ...refusal('BUSY', `Tool call "${callId}" was interrupted when the server running it stopped; it is being run on from where it was. Try again in a moment.`),
      retryAfterMs: 1000,
    }
  }
  if (problem) {
    // A copy held here of a call that finished or moved on elsewhere only takes a place: drop it.
    if (live && record && r.copies.isParked(live) && (record.outcome || record.revision !== live.revision)) r.copies.supersede(live)
    await release()
    return problem
  }
  const segment = (replayed: boolean): SegmentStart => ({
    kind: 'resume',
    replayed,
    ...(options.traceParent !== undefined && { request: options.traceParent }),
    ...(record!.pending && { question: { key: record!.pending.key, askedAt: record!.updatedAt } }),
  })
  if (live && live.revision === record!.revision && r.copies.isParked(live)) {
    r.copies.unpark(live)
    live.lease = lease
    live.trace.resumed(segment(false) as Extract<SegmentStart, { kind: 'resume' }>)
    return { ok: true, call: live, replayed: false, record: record! }
  }
  // This process holds an outdated copy (another instance advanced the call) or none at all.
  if (live) r.copies.supersede(live)
  const spec = options.replay(record!)
  if (!spec) {
    await release()
    return refusal('REPLAY_FAILED', `Tool "${record!.tool}" of call "${callId}" is not served here, so the call cannot resume on this server.`)
  }
  try {
    const call = r.copies.replay(spec, record!, segment(true))
    call.lease = lease
    call.storedQuestion = record!.pending?.id // the stored record already asks it
    return { ok: true, call, replayed: true, record: record! }
  } catch (error) {
    await release()
    return refusal('REPLAY_FAILED', (error as Error).message)
  }
}

/** How an abort is asked: `trusted` skips the token and owner checks; `cancelled` (default) says someone asked for it, not a server fault. */
export interface AbortOptions {
  trusted?: boolean
  caller?: CallerAuth
  conversation?: string | null
  cancelled?: boolean
}

/**
 * Abort a call the request proves it owns (its token), wherever it is: running here (halted at
 * once), or waiting — here or only in the store. It ends `cancelled` unless told otherwise. A waiting call is not replayed to be aborted:
 * a local copy is stopped (its `finally` runs) and the abort is written to the record directly.
 * `wasRunning` says a response was serving the call (and reports its end).
 */
export async function abortCall<X>(
  r: RequestContext<X>,
  callId: string,
  token: unknown,
  reason: string,
  { trusted = false, caller, conversation, cancelled = true }: AbortOptions,
): Promise<Aborted> {
  const live = r.copies.get(callId)
  if (live && !r.copies.isParked(live)) {
    if (!trusted && !tokenMatches(live.tokenHash, token)) return refusal('WRONG_TOKEN', `This abort does not carry the token of tool call ${callId}; nothing was aborted.`)
    if (!trusted && !mayActOn(live.auth, caller)) return forbidden(callId)
    const elsewhere = trusted ? undefined : otherConversation(callId, live.origin, conversation)
    if (elsewhere) return elsewhere
    await live.host.abort(reason, { cancelled })
    return { ok: true, wasRunning: true, toolName: live.toolName }
  }
  const lease = await r.store.lock(callId, r.instanceId, r.leaseMs)
  if (!lease) return held(r.store, callId, r.instanceId, () => r.copies.answering(callId))
  try {
    const record = await r.store.get(callId)
    const problem = await checkInTime(r, callId, record, {
      token,
      replay: () => undefined,
      ...(caller && { caller }),
      ...(conversation !== undefined && { conversation }),
      ...(trusted && { trusted: true as const }),
    })
    // 'running' with its lock free and no copy here: the instance running it stopped (a live one
    // renews the lock). Nothing will ever finish it, so the abort is recorded in its place.
    const orphaned = problem?.code === 'BUSY' && record!.status === 'running' && !live
    if (problem && !orphaned) return problem
    if (orphaned) reason = `${reason} (the server running it had stopped)`
    if (!(await finishInStore(r, record!, { status: 'aborted', reason, ...(cancelled && { cancelled: true as const }) })))
      return refusal('BUSY', `Tool call "${callId}" changed while it was being aborted; try again.`)
    const completed = completedSteps(record!.journal)
    return { ok: true, wasRunning: false, toolName: record!.tool, ...(completed.length > 0 && { completed }) }
  } finally {
    await letGo(r.store, lease)
  }
}

/** End a waiting call to make room for another client's; false if it is not waiting any more. */
export async function evictCall<X>(r: RequestContext<X>, callId: string, reason: string): Promise<boolean> {
  const lease = await r.store.lock(callId, r.instanceId, r.leaseMs)
  if (!lease) return false
  try {
    const record = await r.store.get(callId)
    if (!record || record.outcome || record.status !== 'waiting') return false
    return await finishInStore(r, record, { status: 'aborted', reason })
  } finally {
    await letGo(r.store, lease)
  }
}

/**
 * Record how a call that is not running ended, directly in its record (holding its lock): a
 * copy of it kept here is stopped first (its `finally` runs). False if the record moved on.
 */
async function finishInStore<X>(r: RequestContext<X>, record: CallRecord, outcome: StoredOutcome): Promise<boolean> {
  const live = r.copies.get(record.callId)
  if (live) {
    r.copies.supersede(live, outcome.status === 'aborted' ? outcome.reason : 'it ended')
    await live.host.outcome
  }
  return recordFinished(r.writes, record, outcome)
}

/**
 * `checkRecord`, and then, holding the call's lock: a waiting call whose answer deadline
 * passed has timed out — recorded now (a copy let go of from memory had nobody to time it out
 * when it did) and refused as finished.
 */
async function checkInTime<X>(r: RequestContext<X>, callId: string, record: CallRecord | undefined, options: ResumeOptions<X>): Promise<CallRefusal | undefined> {
  const problem = checkRecord(callId, record, options, r.surface)
  if (problem || record!.answerBy === undefined || r.clock.now() <= record!.answerBy) return problem
  // The wait it was parked for (its deadline less when it was written), by its option where known.
  const ms = record!.answerBy - record!.updatedAt
  const outcome: StoredOutcome = { status: 'aborted', reason: unansweredReason(r.waits.find((w) => w.ms === ms) ?? { ms, option: 'its answer deadline' }) }
  if (!(await finishInStore(r, record!, outcome))) return refusal('BUSY', `Tool call "${callId}" changed while it was being checked; try again.`)
  const how = describeOutcome(outcome)
  return { ...refusal('FINISHED', `Tool call "${callId}" is already finished: ${how}.`), how }
}
