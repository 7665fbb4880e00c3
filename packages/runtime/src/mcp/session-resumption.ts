/**
 * A 2025-11-25 tool call whose server stopped mid-call. Its session lived in that process and died
 * with it, but its call did not: the call's id is derived from the session and the request
 * (`sessionCallId`), and the ids of the events the client received name the request
 * (`eventIdOf`). The client's transport resumes its dropped response stream with `GET` and
 * `Last-Event-ID` — at another instance, or the restarted one — and that instance, which holds no
 * such session, answers the request from the call store instead of refusing the session:
 *
 *   - the call ended (it completed, or was recovered and completed): its result, once, on that stream;
 *   - it runs (being recovered): the stream waits for it to end or stop at a question;
 *   - it waits on a question: nobody can answer it (the question was asked in the dead session), so
 *     the call is ended — saying what it had done, ticket numbers included — and that is the answer;
 *   - no record (the server stopped before the call started — such a call is stored before it
 *     runs anything — or the request was not a tool call): an error that says to send it again.
 *
 * Without this a 2025-11-25 client waits to its own request timeout: the official SDK 1.x client
 * does not fail a pending request when its resumed stream is refused (404).
 */
import { createHash } from 'node:crypto'
import { until, type Operation } from 'effection'
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server'
import { errorResult, toolResultOf } from '../bridge/tool-result.ts'
import { bridgeOutcomeOf } from '../calls/call-record.ts'
import type { CallRegistry } from '../calls/call-registry.ts'
import type { CallRecord } from '../calls/stores/call-store.ts'
import type { Clock } from '../time/clock.ts'
import type { McpRound } from './mcp-call.ts'

/** The id of the call a 2025-11-25 session's `tools/call` request starts: the same on every instance. */
export function sessionCallId(sessionId: string, requestId: RequestId): string {
  return `mcp-session-${createHash('sha256')
    .update(`${sessionId}\u0000${JSON.stringify(requestId)}`)
    .digest('base64url')
    .slice(0, 32)}`
}

/** An SSE event id: the stream and sequence (as the SDK's example store makes them), then the request the stream answers. */
export function eventIdOf(streamId: string, seq: number, request: RequestId | undefined): string {
  const base = `${streamId}_${seq}`
  return request === undefined ? base : `${base}~${Buffer.from(JSON.stringify(request)).toString('base64url')}`
}

/** The request an event's stream answered, if its id names one. */
export function requestOfEventId(eventId: string): RequestId | undefined {
  const at = eventId.lastIndexOf('~')
  if (at === -1) return undefined
  try {
    const request: unknown = JSON.parse(Buffer.from(eventId.slice(at + 1), 'base64url').toString())
    return typeof request === 'string' || (typeof request === 'number' && Number.isSafeInteger(request)) ? request : undefined
  } catch {
    return undefined
  }
}

export interface ResumptionService {
  calls: CallRegistry<McpRound>
  clock: Clock
  /** How long a resumed stream waits for a running call to end or ask (`limits.idleTimeoutMs`). */
  waitMs: number
}

/** Whose a call is, as a session binds it: the OAuth client and subject ('' without OAuth). */
export function recordPrincipal(record: CallRecord): string {
  const auth = record.auth as { clientId?: string; subject?: string } | undefined
  return auth?.clientId === undefined ? '' : `${auth.clientId}\u0000${auth.subject ?? ''}`
}

/** How often a resumed stream looks at a running call's record. */
const POLL_MS = 250

/** Said when a call is ended because the session its question was asked in is gone. */
export const SESSION_GONE = 'its question was asked in a session whose server stopped (a 2025-11-25 session lives in one server process); call the tool again'

/**
 * The response to request `requestId` of the dead session `sessionId`, for `principal`: a JSON-RPC
 * result or error message. `undefined`: not a call of this caller (the session stays unknown: 404).
 */
export function* answerFromStore(service: ResumptionService, sessionId: string, requestId: RequestId, principal: string): Operation<JSONRPCMessage | undefined> {
  const callId = sessionCallId(sessionId, requestId)
  const started = service.clock.now()
  for (;;) {
    const record = yield* until(service.calls.store.get(callId))
    if (!record) {
      return {
        jsonrpc: '2.0',
        id: requestId,
        error: { code: -32000, message: 'The server answering this request stopped before it started a tool call for it, so nothing of it ran; send it again.' },
      }
    }
    if (record.surface !== 'mcp' || recordPrincipal(record) !== principal) return undefined
    // With the steps an aborted call had done, and their results (a ticket's number).
    if (record.outcome) return { jsonrpc: '2.0', id: requestId, result: { ...toolResultOf(bridgeOutcomeOf(record.outcome, record.journal)) } }
    if (record.status === 'waiting') {
      const aborted = yield* until(service.calls.abort(callId, undefined, SESSION_GONE, { trusted: true, cancelled: false }))
      if (!aborted.ok && aborted.code !== 'FINISHED') return { jsonrpc: '2.0', id: requestId, error: { code: -32000, message: aborted.message } }
    } else if (service.clock.now() - started >= service.waitMs) {
      return { jsonrpc: '2.0', id: requestId, result: { ...errorResult(`Tool call ${callId} is still running on another server; it did not end within ${service.waitMs} ms.`) } }
    } else {
      yield* service.clock.sleep(POLL_MS)
    }
  }
}
