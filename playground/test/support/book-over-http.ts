/**
 * A booking over the chat protocol, as the browser client makes it: the message starts
 * book_flight, each question comes with the call's token and the conversation so far, each answer
 * goes back with them, and the tool's result comes out. For servers run without a browser.
 */
import { postChat as post, type ChatEvent as Event } from './chat-post.ts'

const find = <T>(events: Event[], type: string) => events.find((e) => e.type === type) as (Event & T) | undefined

/** Books Oslo → Berlin on JetStream JS-501, seat 3B; returns the tool's result. */
export async function bookOverHttp(base: string): Promise<Record<string, unknown>> {
  const url = new URL('/api/chat', base).href
  let events = await post(url, { messages: [{ role: 'user', content: [{ type: 'text', text: 'Book a flight from Oslo to Berlin' }] }] })
  const call = find<{ callId: string; token: string }>(events, 'tool_call')
  if (!call) throw new Error(`book_flight did not start: ${JSON.stringify(events).slice(0, 800)}`)
  for (const [key, content] of [
    ['pickFlight', { flightId: 'JS-501' }],
    ['pickSeat', { row: 3, seat: 'B' }],
  ] as const) {
    const question = find<{ request: { id: string; key: string } }>(events, 'elicit_request')
    const state = find<{ messages: unknown[] }>(events, 'conversation_state')
    if (question?.request.key !== key || !state) throw new Error(`expected the ${key} question: ${JSON.stringify(events).slice(0, 800)}`)
    events = await post(url, {
      messages: state.messages,
      elicitResponses: [{ callId: call.callId, elicitId: question.request.id, token: call.token, result: { action: 'accept', content } }],
    })
  }
  const result = find<{ result: Record<string, unknown> }>(events, 'tool_result')
  if (!result) throw new Error(`no result: ${JSON.stringify(events).slice(0, 800)}`)
  return result.result
}
