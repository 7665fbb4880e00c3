/**
 * SSE resumability for one 2025-11-25 session: every message the server sends on a stream is kept
 * here under an event id, so a client whose connection dropped (mid-elicitation, say) reconnects
 * with `Last-Event-ID` and receives what it missed — the tool's result included. The SDK's
 * transport writes a priming event (an id, no data) first, which is what lets the client resume.
 *
 * In memory, per session, on purpose: a legacy session lives in the process that holds its
 * transport, so its events cannot be replayed anywhere else either; they go with the session.
 * Bounded: the oldest events are dropped past `maxEvents` (a client that missed more than that
 * cannot resume, and says so).
 *
 * The events of a stream that answers one request name it in their ids (`session-resumption.ts`):
 * when the process dies, the client resumes at another (or the restarted) one, which holds no
 * session and no events but can still answer that request from the call store.
 */
import type { EventId, EventStore, JSONRPCMessage, RequestId, StreamId } from '@modelcontextprotocol/server'
import { UnknownEventIdError } from '../errors/server-errors.ts'
import { eventIdOf } from './session-resumption.ts'

export const DEFAULT_MAX_SESSION_EVENTS = 1_000

interface StoredEvent {
  id: EventId
  streamId: StreamId
  message: JSONRPCMessage
}

/**
 * `requestsOf`: the requests a stream answers, asked when its first event (the priming one) is
 * stored — the transport maps them before it writes that event.
 */
export function createSessionEventStore(requestsOf: (streamId: StreamId) => readonly RequestId[] = () => [], maxEvents = DEFAULT_MAX_SESSION_EVENTS): EventStore {
  const events: StoredEvent[] = []
  /** The request each stream answers (when it answers exactly one), fixed at its first event. */
  const answering = new Map<StreamId, RequestId | undefined>()
  let seq = 0
  const find = (id: EventId) => events.findIndex((e) => e.id === id)
  return {
    async storeEvent(streamId, message) {
      if (!answering.has(streamId)) {
        const requests = requestsOf(streamId)
        answering.set(streamId, requests.length === 1 ? requests[0] : undefined)
      }
      const id = eventIdOf(streamId, ++seq, answering.get(streamId))
      events.push({ id, streamId, message })
      if (events.length > maxEvents) {
        const dropped = events.shift()!
        if (!events.some((e) => e.streamId === dropped.streamId)) answering.delete(dropped.streamId)
      }
      return id
    },
    async getStreamIdForEventId(id) {
      return events[find(id)]?.streamId
    },
    async replayEventsAfter(lastEventId, { send }) {
      const index = find(lastEventId)
      if (index === -1) {
        throw new UnknownEventIdError(`Event ${lastEventId} is not (or no longer) kept for this session (the last ${maxEvents} are); start the request again.`)
      }
      const { streamId } = events[index]!
      for (const event of events.slice(index + 1)) {
        // Priming events carry no message; the client has its id already.
        if (event.streamId === streamId && Object.keys(event.message).length > 0) await send(event.id, event.message)
      }
      return streamId
    },
  }
}
