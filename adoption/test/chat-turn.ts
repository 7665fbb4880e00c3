/**
 * One chat turn over HTTP, the way the browser client does it: a message starts the greet tool,
 * its question arrives with the call's token, the answer goes back, the tool's result comes out.
 */
import { postChat as post } from '../../playground/test/support/chat-post.ts'

/** Returns the tool's result after answering its question with `name`. */
export async function greetOverHttp(base: string, name: string): Promise<unknown> {
  const url = new URL('/api/chat', base).href
  const first = await post(url, { messages: [{ role: 'user', content: [{ type: 'text', text: 'Please greet someone' }] }] })
  const call = first.find((e) => e.type === 'tool_call') as { callId: string; token: string } | undefined
  const question = first.find((e) => e.type === 'elicit_request') as { request: { id: string; key: string } } | undefined
  const state = first.find((e) => e.type === 'conversation_state') as { messages: unknown[] } | undefined
  if (!call || !question || !state) throw new Error(`No question came back: ${JSON.stringify(first).slice(0, 800)}`)
  if (question.request.key !== 'askName') throw new Error(`Unexpected question ${question.request.key}`)
  const second = await post(url, {
    messages: state.messages,
    elicitResponses: [{ callId: call.callId, elicitId: question.request.id, token: call.token, result: { action: 'accept', content: { name } } }],
  })
  const result = second.find((e) => e.type === 'tool_result')
  if (!result) throw new Error(`No tool result: ${JSON.stringify(second).slice(0, 800)}`)
  return result.result
}
