/**
 * How a live call becomes a stored `CallRecord`, and the few checks a request makes against a
 * record before it may touch the call (its token, whether it is over). Kept apart from the
 * registry so the rules read in one place.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { completedSteps, type JournalEntry } from '../bridge/journal.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { CallRecord, StoredCallStatus, StoredOutcome, StoredQuestion } from './stores/call-store.ts'

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/** Constant-time: does `token` hash to `tokenHash`? */
export function tokenMatches(tokenHash: string | undefined, token: unknown): boolean {
  if (tokenHash === undefined || typeof token !== 'string') return false
  const a = Buffer.from(tokenHash)
  const b = Buffer.from(hashToken(token))
  return a.length === b.length && timingSafeEqual(a, b)
}

export function storedOutcome(outcome: BridgeOutcome<unknown>): StoredOutcome {
  if (outcome.status === 'completed') return { status: 'completed', result: outcome.result }
  if (outcome.status === 'aborted') return { status: 'aborted', reason: outcome.reason, ...(outcome.cancelled && { cancelled: true as const }) }
  const { error } = outcome
  return { status: 'failed', message: error.message, ...(error instanceof McpBridgeError && { code: error.code }) }
}

/**
 * A stored outcome as the outcome it was, to say it again (a retried request for a finished call);
 * with its `journal`, an aborted call's completed steps too (what it had done stays done).
 */
export function bridgeOutcomeOf(stored: StoredOutcome, journal: readonly JournalEntry[] = []): BridgeOutcome<unknown> {
  if (stored.status === 'completed') return { status: 'completed', result: stored.result }
  if (stored.status === 'aborted') {
    const completed = completedSteps(journal)
    return { status: 'aborted', reason: stored.reason, ...(completed.length > 0 && { completed }), ...(stored.cancelled && { cancelled: true as const }) }
  }
  return { status: 'failed', error: new Error(stored.message) }
}

/** "it completed", "it was aborted: the user cancelled", for messages. */
export function describeOutcome(outcome: StoredOutcome): string {
  return outcome.status === 'aborted' ? `it was aborted: ${outcome.reason}` : outcome.status === 'failed' ? `it failed: ${outcome.message}` : 'it completed'
}

export function isFinished(status: StoredCallStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'aborted'
}

/** What changes in a record at a write: everything else is carried over. */
export interface RecordChange {
  status: StoredCallStatus
  journal: CallRecord['journal']
  pending?: StoredQuestion
  outcome?: StoredOutcome
  /** Waiting: for how long (ms; default the registry's `idleTimeoutMs`). */
  waitMs?: number
}
