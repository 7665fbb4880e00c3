/**
 * A chat request's id taken once, when the request names no conversation to remember it in: the
 * first to arrive records it in the call store (a record of its own, `request:<digest>`, written
 * with `create`, which only one writer wins, on any instance), and a retry of it finds it taken.
 * The record is finished from the start — never counted as a held call, never recovered — and is
 * forgotten after `REQUEST_MEMORY_MS`, longer than any client retries a lost response.
 */
import { createHash } from 'node:crypto'
import type { CallStore } from '../calls/stores/call-store.ts'
import type { Clock } from '../time/clock.ts'

/** How long a request id without a conversation is remembered. */
export const REQUEST_MEMORY_MS = 60 * 60_000

/** True when this is the first time `client` sent `requestId`; false for a retry of it. */
export function takeRequestOnce(store: CallStore, clock: Clock, client: string, requestId: string): Promise<boolean> {
  const now = clock.now()
  const digest = createHash('sha256').update(`${client}\u0000${requestId}`).digest('base64url')
  return store.create({
    callId: `request:${digest}`,
    surface: 'chat',
    tool: '',
    params: null,
    paramsDigest: '',
    client,
    status: 'completed',
    outcome: { status: 'completed', result: null },
    journal: [],
    owner: '',
    revision: 1,
    createdAt: now,
    updatedAt: now,
    expiresAt: now + REQUEST_MEMORY_MS,
  })
}
