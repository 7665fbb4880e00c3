/**
 * A conversation read back agrees with its calls, whoever wrote last: a call that ended where its
 * conversation never heard of it (the server that ended it died before writing the conversation,
 * or it was ended through another path) is shown ended on reload — its result on the page and in
 * the messages the model reads next — and one waiting on a question the conversation never
 * recorded shows that question, answerable.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createChatHandler, type ChatHandler } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { nextEvent } from '../../src/calls/live-call.ts'
import { createScriptedModel } from '../../src/testing.ts'

const book = createMcpTool('book_ticket')
  .parameters(z.object({ route: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }), seat: z.object({ seat: z.string() }) })
  .execute(function* (params, ctx) {
    const ticket = yield* ctx.step('issue ticket', function* () {
      return `TK-${params.route}`
    })
    const answer = yield* ctx.elicit('confirm', { message: `Keep ${ticket}?` })
    if (answer.action !== 'accept' || !answer.content.ok) return { ticket, kept: false }
    const seat = yield* ctx.elicit('seat', { message: 'Which seat?' })
    return { ticket, kept: true, seat: seat.action === 'accept' ? seat.content.seat : undefined }
  })
const model = createScriptedModel({
  onUserMessage: [{ match: /ticket to (\w+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) }],
  fallback: 'ok',
})
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const conversation = { id: 'reconcile-calls-0001', secret: 's'.repeat(40) }

async function post(handler: ChatHandler, body: ChatRequestBody): Promise<ChatStreamEvent[]> {
  const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) events.push(e)
  return events
}

async function reload(handler: ChatHandler) {
  const response = await handler(new Request(`http://127.0.0.1/api/chat?conversation=${conversation.id}`, { headers: { authorization: `Bearer ${conversation.secret}` } }))
  return (await response.json()) as { messages: McpMessage[]; events: ChatStreamEvent[] }
}

/** Answer the call's question behind the conversation's back (as a server that died before saving the conversation would have). */
async function answerElsewhere(handler: ChatHandler, callId: string, result: { action: 'accept'; content: Record<string, unknown> }) {
  const resumed = await handler.calls.resume(callId, { trusted: true, replay: () => undefined })
  if (!resumed.ok) throw new Error(resumed.message)
  const { call } = resumed
  expect(call.host.respond({ id: call.host.pending()!.id, result }).ok).toBe(true)
  for (let e = await nextEvent(call); e; e = await nextEvent(call)) {
    if (e.type === 'elicit') return handler.calls.park(call, { id: e.request.id, key: e.request.key, wire: { id: e.request.id, key: e.request.key, message: e.request.message } })
  }
  await handler.calls.settled(call)
}

describe('a conversation read back', () => {
  it('shows a call ended where the conversation never heard of it as ended: its result on the page and for the model', async () => {
    const handler = createChatHandler({ tools: [book], model })
    const first = await post(handler, { messages: [user('a ticket to OSL')], conversation })
    const callId = first.find((e) => e.type === 'tool_call')!.callId
    const before = await reload(handler)
    expect(before.events.filter((e) => e.type === 'tool_result')).toEqual([])
    // The call is answered and completes; the conversation is not written (its server died just then).
    await answerElsewhere(handler, callId, { action: 'accept', content: { ok: false } })
    const after = await reload(handler)
    expect(after.events.filter((e) => e.type === 'tool_result')).toEqual([{ type: 'tool_result', callId, toolName: 'book_ticket', result: { ticket: 'TK-OSL', kept: false } }])
    const results = after.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result')
    expect(results).toEqual([expect.objectContaining({ toolUseId: callId, structuredContent: { ticket: 'TK-OSL', kept: false } })])
    await handler.close()
  })

  it('shows a call waiting on a question the conversation never recorded with that question', async () => {
    const handler = createChatHandler({ tools: [book], model })
    const first = await post(handler, { messages: [user('a ticket to BER')], conversation: { ...conversation } })
    const callId = first.find((e) => e.type === 'tool_call')!.callId
    await answerElsewhere(handler, callId, { action: 'accept', content: { ok: true } })
    const after = await reload(handler)
    const questions = after.events.filter((e) => e.type === 'elicit_request')
    expect(questions.map((e) => (e as Extract<ChatStreamEvent, { type: 'elicit_request' }>).request.key)).toEqual(['confirm', 'seat'])
    expect(after.events.filter((e) => e.type === 'tool_result')).toEqual([])
    await handler.close()
  })
})
