/**
 * A conversation's transcript: the events a reload replays to rebuild the chat as the user left
 * it. It is the stream, kept small — the client applies only the last of several updates, so
 * older ones are dropped as new ones arrive:
 *
 *   - consecutive text deltas become one;
 *   - a call keeps its latest progress, its last `MAX_LOGS_PER_CALL` logs and answer records, and
 *     only the question it still waits on (answered questions are history the plugin does not
 *     render again; their one-line records stay);
 *   - what matters only to the response it came in (refusals, errors, `call_aborted`, the final
 *     `conversation_state`) is not kept.
 */
import type { TranscriptEvent } from '../protocol/chat-wire.ts'

export const MAX_LOGS_PER_CALL = 100

export function appendToTranscript(events: readonly TranscriptEvent[], event: TranscriptEvent): TranscriptEvent[] {
  const next = [...events]
  pushToTranscript(next, event)
  return next
}

/** `appendToTranscript` in place: a long transcript is rebuilt without a copy per event. */
export function pushToTranscript(events: TranscriptEvent[], event: TranscriptEvent): void {
  /** Remove the events `gone` matches, in place. */
  const dropAll = (gone: (e: TranscriptEvent) => boolean) => {
    let kept = 0
    for (const e of events) if (!gone(e)) events[kept++] = e
    events.length = kept
  }
  switch (event.type) {
    case 'elicit_refused':
    case 'error':
    case 'call_aborted':
    case 'conversation_state':
      return
    case 'text_delta': {
      const last = events[events.length - 1]
      // One reply keeps when it began (`at` of its first delta).
      if (last?.type === 'text_delta') events[events.length - 1] = { ...last, text: last.text + event.text }
      else events.push(event)
      return
    }
    case 'tool_progress':
      dropAll((e) => e.type === 'tool_progress' && e.callId === event.callId)
      events.push(event)
      return
    case 'tool_log':
    case 'elicit_answered': {
      // A call that logs (or asks) without end keeps its latest entries only.
      let kept = 0
      for (const e of events) if (e.type === event.type && e.callId === event.callId) kept++
      if (kept >= MAX_LOGS_PER_CALL)
        events.splice(
          events.findIndex((e) => e.type === event.type && e.callId === event.callId),
          1,
        )
      events.push(event)
      return
    }
    case 'elicit_request':
    case 'tool_result':
    case 'call_not_found':
      // The call moved on: the question it asked before is answered.
      dropAll((e) => e.type === 'elicit_request' && e.callId === event.callId)
      events.push(event)
      return
    default:
      events.push(event)
  }
}

/**
 * The transcript kept within `maxBytes` of JSON: whole turns go from the front (a turn starts at a
 * user message) until the rest fits, so a reload shows the latest turns as they were. What one
 * client sends cannot grow a conversation — and the cost of each of its writes — without bound.
 */
export function boundTranscript(events: readonly TranscriptEvent[], maxBytes: number): TranscriptEvent[] {
  const sizes = events.map((e) => Buffer.byteLength(JSON.stringify(e)) + 1)
  let total = sizes.reduce((a, b) => a + b, 0)
  let start = 0
  while (total > maxBytes && start < events.length - 1) {
    // Drop the first turn: up to (not including) the next user message, or one event if none follows.
    let end = start + 1
    while (end < events.length - 1 && events[end]!.type !== 'user_message') end++
    for (let i = start; i < end; i++) total -= sizes[i]!
    start = end
  }
  return start === 0 ? [...events] : events.slice(start)
}

/**
 * The last turn of a transcript: where it starts (its user message; -1 if there is none) and the
 * calls it started that have not ended (no result yet: running, or waiting for an answer).
 */
export function lastTurnOf(events: readonly TranscriptEvent[]): { start: number; open: string[] } {
  const start = events.findLastIndex((e) => e.type === 'user_message')
  if (start < 0) return { start, open: [] }
  const turn = events.slice(start)
  const ended = new Set(turn.flatMap((e) => (e.type === 'tool_result' || e.type === 'call_not_found' ? [e.callId] : [])))
  return { start, open: turn.flatMap((e) => (e.type === 'tool_call' && !ended.has(e.callId) ? [e.callId] : [])) }
}
