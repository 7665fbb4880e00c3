/**
 * Why a request may not resume or abort a call, said for people with a stable code: the record is
 * gone, finished, moved on, another surface's or another user's, the token is wrong, or someone
 * holds the call now (and until when at the latest).
 */
import { mayActOn } from '../tool/caller-auth.ts'
import { describeOutcome, tokenMatches } from './call-record.ts'
import type { CallRefusal, ResumeOptions } from './registry-types.ts'
import type { CallRecord, CallStore, CallSurface } from './stores/call-store.ts'

const SURFACE_NAMES: Record<CallSurface, string> = { chat: 'chat', mcp: 'MCP endpoint', 'ai-sdk': 'AI SDK route' }

export function refusal(code: CallRefusal['code'], message: string): CallRefusal {
  return { ok: false, code, message }
}

/** A request by someone other than the signed-in user who started the call. */
export function forbidden(callId: string): CallRefusal {
  return refusal('FORBIDDEN', `Tool call ${callId} belongs to another signed-in user; nothing was changed.`)
}

/**
 * A request from another conversation than the one the call is kept in (`origin.conversation`):
 * a call's token answers it only where it was asked, so a token that leaked cannot move the call,
 * or its events, into another conversation. `conversation` null: the request names none.
 */
export function otherConversation(callId: string, origin: unknown, conversation: string | null | undefined): CallRefusal | undefined {
  if (conversation === undefined) return undefined
  const own = (origin as { conversation?: unknown } | undefined)?.conversation
  if (typeof own !== 'string' || own === conversation) return undefined
  return refusal('FORBIDDEN', `Tool call ${callId} belongs to another conversation; answer or cancel it there. Nothing was changed.`)
}

/** What the record says of a request for the call: `undefined` when it may go on. */
export function checkRecord(
  callId: string,
  record: CallRecord | undefined,
  options: Pick<ResumeOptions<unknown>, 'token' | 'caller' | 'revision' | 'trusted' | 'conversation'>,
  surface: CallSurface,
): CallRefusal | undefined {
  if (!record) {
    return refusal('NOT_FOUND', 'This tool call is no longer known (it expired, or it was held by a server that keeps calls only in memory).')
  }
  if (!options.trusted && (options.token !== undefined || record.tokenHash !== undefined)) {
    if (!tokenMatches(record.tokenHash, options.token)) {
      return refusal('WRONG_TOKEN', `This request does not carry the token of tool call ${callId}; nothing was changed.`)
    }
  }
  if (!options.trusted && !mayActOn(record.auth, options.caller)) return forbidden(callId)
  const elsewhere = options.trusted ? undefined : otherConversation(callId, record.origin, options.conversation)
  if (elsewhere) return elsewhere
  // Another surface's call (they may share a store): its own surface answers it, in its own format.
  if (record.surface !== surface) {
    return refusal('NOT_FOUND', `Tool call "${callId}" belongs to this server's ${SURFACE_NAMES[record.surface]}, not its ${SURFACE_NAMES[surface]}; answer or cancel it there.`)
  }
  if (record.outcome) {
    const how = describeOutcome(record.outcome)
    return { ...refusal('FINISHED', `Tool call "${callId}" is already finished: ${how}.`), how }
  }
  if (record.status !== 'waiting') return refusal('BUSY', `Tool call "${callId}" is running, not waiting for an answer.`)
  if (options.revision !== undefined && options.revision !== record.revision) {
    return refusal('STALE', `Tool call "${callId}" has moved on since this request's state was issued.`)
  }
  return undefined
}

/**
 * Why a call's lock could not be taken, said honestly: a request here is answering it, or a
 * server holds it — answering or running it, or stopped while it did (nobody can tell a dead
 * holder from a slow one before its hold lapses) — and when the hold lapses at the latest.
 */
export async function held(store: CallStore, callId: string, instanceId: string, answeringHere: () => boolean): Promise<CallRefusal> {
  const holder = await store.lockHolder(callId).catch(() => undefined)
  if (holder?.owner === instanceId && answeringHere()) {
    return refusal('BUSY', `Tool call "${callId}" is being answered by another request right now; wait for it.`)
  }
  if (!holder) return refusal('BUSY', `Tool call "${callId}" was busy a moment ago; try again.`)
  const seconds = Math.max(1, Math.ceil(holder.expiresInMs / 1000))
  return {
    ...refusal(
      'BUSY',
      `Tool call "${callId}" is held by ${holder.owner === instanceId ? 'this' : 'another'} server, which is running or answering it — or stopped while it did; its hold lapses within ${seconds} s at the latest. Try again then.`,
    ),
    retryAfterMs: holder.expiresInMs,
  }
}
