/**
 * A call's record as this process writes it: on top of the revision its copy last wrote (a write
 * another instance got in before is refused: the copy is superseded), its lock taken before its
 * first record (a running record whose lock is free means its server stopped), and how long it
 * is kept — a waiting call as long as it may wait and as long again, so a late answer is told it
 * timed out; a finished one as long as a call may wait, so a late answer is told it finished.
 */
import { CallSupersededError } from '../errors/call-limit-errors.ts'
import type { Clock } from '../time/clock.ts'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import type { McpBridgeLogger } from '../telemetry/logger.ts'
import { isFinished, storedOutcome, type RecordChange } from './call-record.ts'
import type { LiveCall } from './live-call.ts'
import type { CallRecord, CallStore, CallSurface, StoredOutcome } from './stores/call-store.ts'

export interface RecordWrites {
  store: CallStore
  clock: Clock
  /** This instance, as recorded in `owner`. */
  instanceId: string
  surface: CallSurface
  idleTimeoutMs: number
  leaseMs: number
}

/**
 * Write the call's record on top of the revision this copy last wrote. Writes of one call are
 * chained, so they reach the store in order. With `strict`, a refused write (another instance
 * advanced the call) throws `CallSupersededError` into the tool, which stops.
 */
export function writeRecord<X>(w: RecordWrites, call: LiveCall<X>, change: RecordChange, strict = false): Promise<void> {
  const next = call.writes.then(async () => {
    if (call.superseded) {
      if (strict) throw new CallSupersededError(call.callId)
      return
    }
    const now = w.clock.now()
    const finished = isFinished(change.status)
    const record: CallRecord = {
      callId: call.callId,
      surface: w.surface,
      tool: call.toolName,
      params: call.params,
      paramsDigest: call.paramsDigest,
      client: call.client,
      ...(call.auth && { auth: call.auth }),
      status: change.status,
      journal: change.journal,
      ...(change.pending && { pending: change.pending }),
      ...(call.tokenHash !== undefined && { tokenHash: call.tokenHash }),
      ...(call.origin !== undefined && { origin: call.origin }),
      ...(call.trace.traceparent !== undefined && { trace: call.trace.traceparent }),
      owner: w.instanceId,
      revision: call.revision + 1,
      createdAt: call.createdAt,
      updatedAt: now,
      // A waiting call lives as long as it may wait; a finished one is remembered as long, so a
      // late answer or requestState for it is still refused as finished.
      // A waiting call's record outlives its deadline as long again, so an answer that comes too
      // late is told it timed out rather than that the call is unknown.
      expiresAt: now + (change.status === 'waiting' ? 2 * w.idleTimeoutMs : w.idleTimeoutMs + (finished ? 0 : w.leaseMs)),
      ...(change.status === 'waiting' && { answerBy: now + (change.waitMs ?? w.idleTimeoutMs) }),
      ...(change.outcome && { outcome: change.outcome }),
    }
    // A new call's first record: from the moment it is stored others can find it (a recovery
    // scan lists running records), so its lock is taken first — a running record whose lock is
    // free means its server stopped, and another instance would take it over.
    if (call.revision === 0 && change.status === 'running' && !call.lease) {
      call.lease = await w.store.lock(call.callId, w.instanceId, w.leaseMs)
      if (!call.lease) throw new CallSupersededError(call.callId) // a call of this id is held elsewhere
    }
    let written = call.revision === 0 ? await w.store.create(record) : await w.store.update(record)
    // The record expired while a request held the call for longer than its retention: this
    // copy is still the current one (nobody can take over a call without its record).
    if (!written && call.revision > 0 && !(await w.store.get(call.callId))) written = await w.store.create(record)
    if (written) {
      call.revision = record.revision
      call.storedQuestion = change.status === 'waiting' ? change.pending?.id : undefined
      return
    }
    call.superseded = true
    if (strict) throw new CallSupersededError(call.callId)
  })
  call.writes = next.catch(() => undefined)
  return next
}

/** Record how a call that is not running ended, directly in its record (its lock held by the caller). False if the record moved on. */
export function recordFinished(w: RecordWrites, record: CallRecord, outcome: StoredOutcome): Promise<boolean> {
  const now = w.clock.now()
  return w.store.update({ ...record, status: outcome.status, outcome, revision: record.revision + 1, updatedAt: now, owner: w.instanceId, expiresAt: now + w.idleTimeoutMs })
}

/**
 * Store how a copy ended (a copy that never stored anything needs no record: its place among held
 * calls is given back). Never rejects: nobody waits on it any more, so a store that does not take
 * it is logged with the call.
 */
export function recordEnd<X>(w: RecordWrites, call: LiveCall<X>, outcome: BridgeOutcome<unknown>, log: McpBridgeLogger): Promise<void> {
  const unsaved = (what: string) => (error: unknown) =>
    log.error({ callId: call.callId, tool: call.toolName, err: error }, `tool call ${call.callId} (${call.toolName}): ${what}: ${(error as Error).message}`)
  if (call.revision === 0 && call.host.journal.length === 0)
    return call.writes.then(() => w.store.release(call)).catch(unsaved('its place among held calls could not be given back'))
  const change: RecordChange = { status: outcome.status, journal: [...call.host.journal], outcome: storedOutcome(outcome) }
  return writeRecord(w, call, change).catch(unsaved(`its end (${outcome.status}) could not be recorded`))
}
