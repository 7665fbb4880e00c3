/**
 * Message actions against the real chat handler, with a kept conversation: edit-and-resend of
 * the last message and regenerate of the last reply replace the last turn — on screen, in the
 * messages the model gets, and in what a reload restores — and are refused while a call of that
 * turn is open. Every message says when it was sent.
 */
import { describe, expect, it } from 'vitest'
import { createChatHandler, type ChatHandler } from '../../src/server.ts'
import { createChatController, type ChatItem } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import type { McpMessage } from '../../src/index.ts'
import { bookingPlugin, FlightList, nextEmission, until } from '../support/booking-client.ts'

let replies = 0
const model = createScriptedModel({
  onUserMessage: [
    { match: /book/i, reply: { toolCalls: [{ name: 'book_flight', input: { from: 'JFK', destination: 'LAX' } }] } },
    {
      match: /.*/,
      reply: (text: string) => `Reply ${++replies} to "${text}"`,
    },
  ],
})
const texts = (messages: readonly McpMessage[]) => messages.map((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''))

function storage() {
  const data = new Map<string, string>()
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) }
}

function connect(handler: ChatHandler, store = storage()) {
  const bodies: Array<Record<string, unknown>> = []
  const chat = createChatController({
    id: 'main',
    storage: store,
    plugins: [bookingPlugin.client],
    fetch: ((url: string, init: RequestInit) => {
      if (init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>
        bodies.push(body)
      }
      return handler(new Request(`http://127.0.0.1${url}`, init))
    }) as typeof fetch,
  })
  return { chat, bodies, store }
}

const shown = (items: readonly ChatItem[]) => items.map((i) => (i.kind === 'tool' ? `tool:${i.status}` : `${i.kind}:${i.text}`))
const ready = (chat: ReturnType<typeof connect>['chat']) => until(chat, () => chat.getState().status === 'ready' || chat.getState().status === 'awaiting_input')

describe('the last turn replaced', () => {
  it('editLastMessage: the edited message replaces the last one and its reply, for the model and for a reload', async () => {
    replies = 0
    const handler = createChatHandler({ tools: [bookingPlugin], model })
    const { chat, bodies, store } = connect(handler)
    await chat.sendMessage('first')
    await ready(chat)
    await chat.sendMessage('second')
    await ready(chat)
    expect(shown(chat.getState().items)).toEqual(['user:first', 'assistant:Reply 1 to "first"', 'user:second', 'assistant:Reply 2 to "second"'])
    await chat.editLastMessage('second, edited')
    await ready(chat)
    expect(shown(chat.getState().items)).toEqual(['user:first', 'assistant:Reply 1 to "first"', 'user:second, edited', 'assistant:Reply 3 to "second, edited"'])
    // The model never saw the replaced message: the request carried the turns before it.
    expect(bodies.at(-1)).toMatchObject({ replaceLastTurn: true })
    expect(texts(bodies.at(-1)!.messages as McpMessage[])).toEqual(['first', 'Reply 1 to "first"', 'second, edited'])
    // A reload shows the conversation as it is now.
    chat.dispose()
    const again = connect(handler, store).chat
    await again.restore()
    expect(shown(again.getState().items)).toEqual(['user:first', 'assistant:Reply 1 to "first"', 'user:second, edited', 'assistant:Reply 3 to "second, edited"'])
    again.dispose()
    await handler.close()
  })

  it('the chat’s title follows its first message when that message is edited — not a later one, and not once the person named the chat', async () => {
    replies = 0
    const handler = createChatHandler({ tools: [bookingPlugin], model })
    const { chat } = connect(handler)
    const title = () => chat.getState().conversations.find((c) => c.current)?.title
    await chat.sendMessage('Plan a trip to Rome')
    await ready(chat)
    expect(title()).toBe('Plan a trip to Rome')
    await chat.editLastMessage('Plan a trip to Lisbon')
    await ready(chat)
    expect(title()).toBe('Plan a trip to Lisbon')
    await chat.sendMessage('and a hotel')
    await ready(chat)
    await chat.editLastMessage('and a cheap hotel')
    await ready(chat)
    expect(title()).toBe('Plan a trip to Lisbon')
    // Named by the person: an edit of the first message no longer changes it.
    chat.newConversation()
    await chat.sendMessage('Pick a colour')
    await ready(chat)
    chat.renameConversation(chat.getState().conversations.find((c) => c.current)!.id, 'Colours')
    await chat.editLastMessage('Pick a theme colour')
    await ready(chat)
    expect(title()).toBe('Colours')
    chat.dispose()
    await handler.close()
  })

  it('regenerate: the same message is sent again and its new reply takes the old one’s place', async () => {
    replies = 0
    const handler = createChatHandler({ tools: [bookingPlugin], model })
    const { chat, store } = connect(handler)
    await chat.sendMessage('hello')
    await ready(chat)
    await chat.regenerate()
    await ready(chat)
    expect(shown(chat.getState().items)).toEqual(['user:hello', 'assistant:Reply 2 to "hello"'])
    chat.dispose()
    const again = connect(handler, store).chat
    await again.restore()
    expect(shown(again.getState().items)).toEqual(['user:hello', 'assistant:Reply 2 to "hello"'])
    again.dispose()
    await handler.close()
  })

  it('is refused while a call of the last turn waits: the controller says why and sends nothing; the server refuses it too (409 TURN_STILL_OPEN) and keeps the turn', async () => {
    const handler = createChatHandler({ tools: [bookingPlugin], model })
    const { chat, bodies, store } = connect(handler)
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    const sent = bodies.length
    await chat.editLastMessage('Book me a hotel')
    expect(bodies).toHaveLength(sent)
    expect(chat.getState().error).toMatchObject({
      code: 'QUESTION_PENDING',
      message: expect.stringMatching(/cannot be replaced while the call of book_flight above is still waiting for you/),
    })
    expect(shown(chat.getState().items)).toEqual(['user:Book me a flight', 'tool:awaiting_input'])
    // The server's own check, for a client that skips the controller's.
    const key = JSON.parse(store.getItem('mcp-bridge:chat:main')!) as { id: string; secret: string }
    const response = await handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Book me a hotel' }] }], conversation: key, replaceLastTurn: true }),
      }),
    )
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({ code: 'TURN_STILL_OPEN', message: expect.stringMatching(/still running or waiting for an answer; it cannot be replaced/) })
    const snapshot = (await (await handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${key.secret}` } }))).json()) as {
      events: Array<{ type: string }>
    }
    expect(snapshot.events.map((e) => e.type)).toEqual(['user_message', 'tool_call', 'tool_log', 'elicit_request'])
    chat.dispose()
    await handler.close()
  })
})

describe('times', () => {
  it('each message and reply says when it was sent, live and after a reload (the server’s time)', async () => {
    const handler = createChatHandler({ tools: [], model })
    const { chat, store } = connect(handler)
    const before = Date.now()
    await chat.sendMessage('what time is it')
    await ready(chat)
    const after = Date.now()
    for (const item of chat.getState().items) expect((item as { at?: number }).at).toSatisfy((at: number) => at >= before && at <= after)
    chat.dispose()
    const again = connect(handler, store).chat
    await again.restore()
    expect(again.getState().items.map((i) => i.kind)).toEqual(['user', 'assistant'])
    for (const item of again.getState().items) expect((item as { at?: number }).at).toSatisfy((at: number) => at >= before && at <= after)
    again.dispose()
    await handler.close()
  })
})
