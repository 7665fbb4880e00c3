/**
 * When an answer is stored (`record` in create-bridge-host.ts): a resume that goes straight on to
 * the next question writes the call's record once (the question, with the answer in its journal),
 * and an answer is stored before any step body runs — a step never acts on an answer a crash
 * could lose.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool } from '../../src/index.ts'
import { type CallRecord, type CallStore, createChatHandler, createMemoryStore } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'

describe('storing answers', () => {
  it('one write per resume that reaches the next question; the answer is stored before a step runs', async () => {
    const base = createMemoryStore()
    const updates: CallRecord[] = []
    const store: CallStore = Object.assign(Object.create(base) as CallStore, {
      update: (record: CallRecord) => (updates.push(record), base.update(record)),
    })
    const seenByStep: unknown[] = []
    const tool = createMcpTool('two_questions')
      .elicits({ first: z.object({ a: z.string() }), second: z.object({ b: z.string() }) })
      .execute(function* (_p, ctx) {
        const first = yield* ctx.elicit('first', { message: 'a?' })
        const second = yield* ctx.elicit('second', { message: 'b?' })
        const callId = ctx.callId
        yield* ctx.step('act', async () => {
          // What a crash right now would leave: the record as stored.
          seenByStep.push((await base.get(callId))?.journal.map((e) => e.name))
        })
        return [first.action, second.action]
      })
    const model = createScriptedModel({ onUserMessage: [{ match: /go/, reply: { toolCalls: [{ name: 'two_questions', input: {} }] } }], fallback: 'ok' })
    const handler = createChatHandler({ tools: [tool], model, store })
    const post = async (body: ChatRequestBody) => {
      const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
      const events: ChatStreamEvent[] = []
      for await (const e of readChatEvents(response.body!)) events.push(e)
      return events
    }
    try {
      let events = await post({ messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }] })
      const call = events.find((e) => e.type === 'tool_call')
      if (call?.type !== 'tool_call') throw new Error('no tool call')
      const messages = (events.find((e) => e.type === 'conversation_state') as Extract<ChatStreamEvent, { type: 'conversation_state' }>).messages
      const answer = (content: Record<string, unknown>) => {
        const asked = events.find((e) => e.type === 'elicit_request') as Extract<ChatStreamEvent, { type: 'elicit_request' }>
        return post({ messages, elicitResponses: [{ callId: call.callId, elicitId: asked.request.id, token: call.token!, result: { action: 'accept', content } }] })
      }

      updates.length = 0
      events = await answer({ a: 'x' })
      expect(events.some((e) => e.type === 'elicit_request')).toBe(true)
      // The answer and the next question in one write.
      expect(updates.map((r) => [r.status, r.journal.map((e) => e.name)])).toEqual([['waiting', ['first']]])

      updates.length = 0
      events = await answer({ b: 'y' })
      expect(seenByStep).toEqual([['first', 'second']])
      expect(updates.at(-1)?.status).toBe('completed')
    } finally {
      await handler.close()
    }
  }, 30_000)
})
