/**
 * A restored conversation's running calls, as far as they got. A call's progress is written to
 * the conversation when the call asks or ends, not each time it moves (a write per progress
 * report would be a store write per tick); a page that reloads while a long call runs would see
 * where it stood at its last save. The instance running the call knows where it is now: a
 * restore served there adds each such call's latest progress, so the reloaded page follows it
 * (it looks again while a call runs). Elsewhere the saved progress stands, and the end arrives
 * from the store as always.
 */
import type { CallRegistry } from '../calls/call-registry.ts'
import type { TranscriptEvent } from '../protocol/chat-wire.ts'

export function withLiveProgress(events: readonly TranscriptEvent[], calls: CallRegistry<undefined>): TranscriptEvent[] {
  const ended = new Set(events.flatMap((e) => (e.type === 'tool_result' ? [e.callId] : [])))
  const now: TranscriptEvent[] = []
  for (const event of events) {
    if (event.type !== 'tool_call' || ended.has(event.callId)) continue
    const live = calls.get(event.callId)
    if (!live || live.host.status() !== 'running') continue
    const latest = live.host.events.findLast((e) => e.type === 'notify')
    if (latest?.type === 'notify') {
      now.push({
        type: 'tool_progress',
        callId: event.callId,
        message: latest.message,
        ...(latest.progress !== undefined && { progress: latest.progress }),
        ...(latest.total !== undefined && { total: latest.total }),
      })
    }
  }
  return now.length > 0 ? [...events, ...now] : [...events]
}
