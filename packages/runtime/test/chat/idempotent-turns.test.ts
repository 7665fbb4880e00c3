/**
 * A turn retried after its response was lost is the same turn: with the client's request id, the
 * conversation remembers the turns it took, so the retry runs nothing (no second tool call, no
 * second ticket) and says how to see what the first try did.
 */
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createChatHandler, type ChatHandler } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'

let booked = 0
const book = createMcpTool('book_ticket')
  .parameters(z.object({ route: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    yield* ctx.step('reserve', function* () {
      booked++
    })
    const answer = yield* ctx.elicit('confirm', { message: `Book ${params.route}?` })
    return { booked: answer.action === 'accept' }
  })
const model = createScriptedModel({
  onUserMessage: [{ match: /ticket to (\w+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) }],
  fallback: 'ok',
})
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })

async function post(handler: ChatHandler, body: ChatRequestBody): Promise<{ status: number; events: ChatStreamEvent[]; problem?: { code: string; message: string } }> {
  const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  if (!response.ok) return { status: response.status, events: [], problem: (await response.json()) as { code: string; message: string } }
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) events.push(e)
  return { status: response.status, events }
}

describe('a turn with a request id', () => {
  it('retried after its first try was taken runs nothing again, and says so with 409 REQUEST_ALREADY_APPLIED', async () => {
    booked = 0
    const handler = createChatHandler({ tools: [book], model })
    const conversation = { id: 'idempotent-turns-0001', secret: 'x'.repeat(40) }
    const body: ChatRequestBody = { messages: [user('a ticket to OSL')], conversation, requestId: 'req-0001-abcdef' }
    const first = await post(handler, body)
    expect(first.events.some((e) => e.type === 'elicit_request')).toBe(true)
    const retry = await post(handler, body)
    expect(retry.status).toBe(409)
    expect(retry.problem).toEqual({
      code: 'REQUEST_ALREADY_APPLIED',
      message: `Request req-0001-abcdef was already taken in conversation ${conversation.id} (a retry whose first try arrived); nothing was done again. Restore the conversation (GET ?conversation=<id>) to see what it did.`,
    })
    expect(booked).toBe(1)
    expect(handler.calls.size).toBe(1)
    // Another request id is another turn: the person asked again, so it books again.
    const other = await post(handler, { ...body, requestId: 'req-0002-abcdef' })
    expect(other.status).toBe(200)
    expect(booked).toBe(2)
    await handler.close()
  })

  it('sent twice at once is taken once', async () => {
    booked = 0
    const handler = createChatHandler({ tools: [book], model })
    const conversation = { id: 'idempotent-turns-0002', secret: 'y'.repeat(40) }
    const body: ChatRequestBody = { messages: [user('a ticket to BER')], conversation, requestId: 'req-same-123456' }
    const results = await Promise.all(Array.from({ length: 5 }, () => post(handler, body)))
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409])
    expect(booked).toBe(1)
    await handler.close()
  })

  it('a request from a page behind the stored conversation is refused (409 CONVERSATION_MOVED_ON) and writes nothing; the end of a turn names the revision it saved', async () => {
    booked = 0
    const handler = createChatHandler({ tools: [book], model })
    const conversation = { id: 'idempotent-turns-0003', secret: 'z'.repeat(40) }
    const first = await post(handler, { messages: [user('a ticket to OSL')], conversation })
    const state = first.events.findLast((e) => e.type === 'conversation_state')
    expect(state).toMatchObject({ revision: expect.any(Number) })
    const revision = (state as { revision: number }).revision
    const stored = await handler.calls.store.getConversation(conversation.id)
    expect(stored!.revision).toBe(revision)
    // A page that saw an older revision (another tab moved on since): nothing runs, nothing is written.
    const stale = await post(handler, { messages: [user('a ticket to BER')], conversation, conversationRevision: revision - 1 })
    expect([stale.status, stale.problem?.code]).toEqual([409, 'CONVERSATION_MOVED_ON'])
    expect(stale.problem?.message).toMatch(/changed since this page last saw it .* nothing was done\. Restore it/)
    expect((await handler.calls.store.getConversation(conversation.id))!.revision).toBe(revision)
    expect(booked).toBe(1)
    // The page that saw the latest goes on.
    const current = await post(handler, { messages: [user('a ticket to BER')], conversation, conversationRevision: revision })
    expect(current.status).toBe(200)
    expect(booked).toBe(2)
    await handler.close()
  })

  it('refuses a malformed request id, naming the rule', async () => {
    const handler = createChatHandler({ tools: [book], model })
    const bad = await post(handler, { messages: [user('hi')], requestId: 'no spaces allowed' })
    expect(bad.status).toBe(400)
    expect(bad.problem?.message).toContain('requestId: an id of 8 to 128 characters')
    await handler.close()
  })

  it('without a conversation too: a retry runs nothing again, sent once or five times at once, for the same client only', async () => {
    booked = 0
    const handler = createChatHandler({ tools: [book], model, clientKey: (request) => request.headers.get('x-client') ?? 'anonymous' })
    const body: ChatRequestBody = { messages: [user('a ticket to LIS')], requestId: 'req-loose-123456' }
    const as = (client: string) =>
      handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json', 'x-client': client }, body: JSON.stringify(body) }))
    const results = await Promise.all(Array.from({ length: 5 }, () => as('ada')))
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409])
    const refused = results.find((r) => r.status === 409)!
    expect(await refused.json()).toEqual({
      code: 'REQUEST_ALREADY_APPLIED',
      message: 'Request req-loose-123456 was already taken (a retry whose first try arrived); nothing was done again.',
    })
    const taken = results.find((r) => r.status === 200)!
    for await (const _event of readChatEvents(taken.body!)); // the turn, read to its question
    expect(booked).toBe(1)
    // Another client's request id is its own: it books.
    const other = await as('bob')
    expect(other.status).toBe(200)
    for await (const _event of readChatEvents(other.body!));
    expect(booked).toBe(2)
    await handler.close()
  })
})
