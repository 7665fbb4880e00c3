/**
 * A kept conversation as its calls say it is, on read: a call whose card the conversation shows
 * but whose question or end it never recorded (its server wrote the call's record and died
 * before the conversation's entry, or another instance ended it) is shown as its record says —
 * waiting on its question, or ended with its result (for the page, and in the messages the
 * model reads next). The conversation and its calls never disagree, whoever wrote last.
 */
import { bridgeOutcomeOf } from '../calls/call-record.ts'
import type { CallStore } from '../calls/stores/call-store.ts'
import type { ElicitRequestWire, TranscriptEvent } from '../protocol/chat-wire.ts'
import type { McpMessage } from '../sampling/content.ts'
import { addToolResult, callEnd } from './call-end.ts'

export async function reconcileCalls(store: CallStore, messages: McpMessage[], events: TranscriptEvent[]): Promise<{ messages: McpMessage[]; events: TranscriptEvent[] }> {
  const ended = new Set(events.flatMap((e) => (e.type === 'tool_result' || e.type === 'call_not_found' ? [e.callId] : [])))
  const asked = new Set(events.flatMap((e) => (e.type === 'elicit_request' ? [`${e.callId}\u0000${e.request.id}`] : [])))
  const open = events.filter((e): e is Extract<TranscriptEvent, { type: 'tool_call' }> => e.type === 'tool_call' && !ended.has(e.callId))
  if (open.length === 0) return { messages, events }
  // A record that cannot be read now leaves the conversation as stored: the next read reconciles it.
  const records = await Promise.all(open.map((call) => store.get(call.callId).catch(() => undefined)))
  const reconciled = { messages: [...messages], events: [...events] }
  open.forEach((call, i) => {
    const record = records[i]
    if (!record || record.surface !== 'chat') return
    if (record.outcome) {
      const { result, event } = callEnd(call.callId, call.toolName, bridgeOutcomeOf(record.outcome, record.journal))
      addToolResult(reconciled.messages, call.callId, result)
      reconciled.events.push(event)
    } else if (record.status === 'waiting' && record.pending) {
      const request = record.pending.wire as ElicitRequestWire
      if (!asked.has(`${call.callId}\u0000${request.id}`)) reconciled.events.push({ type: 'elicit_request', callId: call.callId, toolName: call.toolName, request })
    }
  })
  return reconciled
}
