/**
 * Conversations that survive a reload: the chat controller with an `id` (what `useChat({ id })`
 * runs) against the real chat handler on a SQLite file. A "reload" is a new controller over the
 * same storage; a "restart" is a new handler over the same file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sleep } from 'effection'
import { afterAll, describe, expect, it } from 'vitest'
import { createMcpTool } from '../../src/index.ts'
import { type CallStore, type ChatHandler, createChatHandler, createMemoryStore, createSqliteStore } from '../../src/server.ts'
import {
  type ChatController,
  type ChatItem,
  type ConversationKey,
  type ConversationSnapshot,
  type ConversationStorage,
  createChatController,
  readChatEvents,
  type ChatStreamEvent,
  type ToolItem,
} from '../../src/client.ts'
import { appendToTranscript, boundTranscript, MAX_LOGS_PER_CALL } from '../../src/chat/transcript.ts'
import type { TranscriptEvent } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { bookingPlugin, FlightList, nextEmission, SeatPicker, until } from '../support/booking-client.ts'
import { chatPage, memoryStorage } from '../support/chat-page.ts'

const page = (handler: ChatHandler, storage: ConversationStorage): ChatController => chatPage(handler, storage, [bookingPlugin.client])

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-conversations-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs for a while after it starts, reporting as it goes: a reload lands while it runs. */
const slowCount = createMcpTool('slow_count')
  .elicits({})
  .execute(function* (_p, ctx) {
    yield* ctx.notify('counting', 1, 2)
    yield* sleep(600)
    yield* ctx.notify('counted', 2, 2)
    return { counted: 2 }
  })

const model = createScriptedModel({
  onUserMessage: [
    { match: /book/i, reply: { text: 'On it. ', toolCalls: [{ name: 'book_flight', input: { from: 'JFK', destination: 'LAX' } }] } },
    { match: /count/i, reply: { toolCalls: [{ name: 'slow_count', input: {} }] } },
  ],
  onToolResult: (name, r) => (name === 'book_flight' ? `Booked: ${(r as { ticketNumber: string }).ticketNumber}` : `${name} done.`),
  onSample: () => 'Use terminal 4.',
})

const handlers: ChatHandler[] = []
function serve(store: CallStore): ChatHandler {
  const handler = createChatHandler({ tools: [bookingPlugin, slowCount], model, store })
  handlers.push(handler)
  return handler
}
afterAll(async () => {
  for (const h of handlers) await h.close()
})

/** Lets what the last step started run (a request it sent, if any). */
const sleep0 = () => new Promise((resolve) => setTimeout(resolve, 50))

/** What a person sees of the items (ids are per page). */
const seen = (items: readonly ChatItem[]) =>
  items.map((i) =>
    i.kind === 'tool' ? { tool: i.toolName, status: i.status, logs: i.logs, progress: i.progress, result: i.result, asks: i.elicitation?.request.key } : { [i.kind]: i.text },
  )

const keyIn = (storage: ReturnType<typeof memoryStorage>) => JSON.parse(storage.data.get('mcp-bridge:chat:main')!) as ConversationKey

/** A page on a new handler over `store` that asked to book a flight, up to its first question. */
async function askedToPickAFlight(store: CallStore) {
  const handler = serve(store)
  const storage = memoryStorage()
  const chat = page(handler, storage)
  await chat.sendMessage('Book me a flight')
  await nextEmission(chat, FlightList)
  return { handler, chat, key: keyIn(storage) }
}

async function getSnapshot(handler: ChatHandler, key: ConversationKey, secret = key.secret, headers: Record<string, string> = {}) {
  return handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${secret}`, ...headers } }))
}

describe('conversations survive reloads and restarts', () => {
  it('a reload after a restart shows the chat as it was, and the seat picker it waits on completes the booking', async () => {
    const path = join(dir, 'reload.db')
    const storage = memoryStorage()
    let store = await createSqliteStore({ path })
    let handler = serve(store)

    const first = page(handler, storage)
    await first.restore() // nothing saved yet: a new conversation
    expect(first.getState()).toMatchObject({ status: 'ready', items: [] })
    await first.sendMessage('Book me a flight')
    ;(await nextEmission(first, FlightList)).respond({ flightId: 'SH-142' })
    await nextEmission(first, SeatPicker)
    await until(first, () => first.getState().status === 'awaiting_input')
    const before = seen(first.getState().items)
    expect(before).toEqual([
      { user: 'Book me a flight' },
      { assistant: 'On it. ' },
      { tool: 'book_flight', status: 'awaiting_input', logs: [{ level: 'info', message: 'Found 2 flights' }], progress: undefined, result: undefined, asks: 'pickSeat' },
    ])

    // The page goes away and the server restarts on the same file.
    first.dispose()
    await handler.close()
    await store.close()
    store = await createSqliteStore({ path })
    handler = serve(store)

    const second = page(handler, storage)
    await second.restore()
    expect(seen(second.getState().items)).toEqual(before)
    expect(second.getState().status).toBe('awaiting_input')
    // Shown again by the plugin's own handler, and answerable: the call resumes from its journal.
    ;(await nextEmission(second, SeatPicker)).respond({ row: 9, seat: 'A' })
    await until(second, () => second.getState().status === 'ready' && second.getState().items.length === 4)
    const booked = seen(second.getState().items)
    expect(booked.at(2)).toMatchObject({ tool: 'book_flight', status: 'completed', result: { ticketNumber: 'TK-SH-142-9A' } })
    expect(booked.at(3)).toEqual({ assistant: 'Booked: TK-SH-142-9A' })
    expect(second.store.getSnapshot().emissions).toEqual([])

    // Reloaded once more: the finished booking, nothing to answer; the next message continues it.
    second.dispose()
    const third = page(handler, storage)
    await third.restore()
    expect(seen(third.getState().items)).toEqual(booked)
    expect(third.getState().status).toBe('ready')
    expect(third.store.getSnapshot().emissions).toEqual([])
    await third.sendMessage('Book me another one')
    await nextEmission(third, FlightList)
    expect(third.getState().items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool'])
    third.dispose()
    await store.close()
  }, 30_000)

  it('keeps call tokens sealed in the store, and shows a conversation only to its secret', async () => {
    const store = createMemoryStore()
    const { handler, chat, key } = await askedToPickAFlight(store)
    // 128 random bits each, never the page's name for the chat.
    expect(key.id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(key.secret).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const response = await getSnapshot(handler, key)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const snapshot = (await response.json()) as ConversationSnapshot
    const toolCall = snapshot.events.find((e) => e.type === 'tool_call')!
    expect(snapshot.events.map((e) => e.type)).toEqual(['user_message', 'text_delta', 'tool_call', 'tool_log', 'elicit_request'])
    expect(toolCall.token).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    const stored = JSON.stringify(await store.getConversation(key.id))
    expect(stored).not.toContain(toolCall.token!)
    expect(stored).not.toContain(key.secret)

    const problem = async (r: Response) => [r.status, ((await r.json()) as { code: string }).code]
    expect(await problem(await getSnapshot(handler, key, 'x'.repeat(43)))).toEqual([404, 'CONVERSATION_NOT_FOUND'])
    expect(await problem(await handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`)))).toEqual([401, 'CONVERSATION_SECRET_MISSING'])
    expect(await problem(await getSnapshot(handler, { id: 'short', secret: key.secret }))).toEqual([400, 'INVALID_CONVERSATION_KEY'])
    // A page on another origin cannot read it, even with the secret.
    expect(await problem(await getSnapshot(handler, key, key.secret, { origin: 'https://evil.example' }))).toEqual([403, 'FORBIDDEN_ORIGIN'])

    // Someone else's turn under this id changes nothing.
    const revision = (await store.getConversation(key.id))!.revision
    const intruder = await handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'book' }] }], conversation: { id: key.id, secret: 'y'.repeat(43) } }),
      }),
    )
    expect(await problem(intruder)).toEqual([403, 'CONVERSATION_FORBIDDEN'])
    expect((await store.getConversation(key.id))!.revision).toBe(revision)
    chat.dispose()
  }, 20_000)

  it("a call's token answers it only in its own conversation: from another one (a leaked token), answer and cancel are refused and nothing lands there", async () => {
    const store = createMemoryStore()
    const { handler, chat, key: mine } = await askedToPickAFlight(store)
    const snapshot = (await (await getSnapshot(handler, mine)).json()) as ConversationSnapshot
    const call = snapshot.events.find((e) => e.type === 'tool_call')!
    const asked = snapshot.events.find((e) => e.type === 'elicit_request')!
    const post = async (body: object) => {
      const events: ChatStreamEvent[] = []
      const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
      for await (const e of readChatEvents(response.body!)) events.push(e)
      return events
    }
    // Someone holding the call's token, in a conversation of their own (its key is theirs, valid).
    const theirs = { id: 'T'.repeat(22), secret: 's'.repeat(43) }
    const answer = { callId: call.callId, elicitId: asked.request.id, token: call.token, result: { action: 'accept', content: { flightId: 'JS-501' } } }
    const answered = await post({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], conversation: theirs, elicitResponses: [answer] })
    expect(answered.find((e) => e.type === 'elicit_refused')).toMatchObject({
      callId: call.callId,
      code: 'FORBIDDEN',
      message: `Tool call ${call.callId} belongs to another conversation; answer or cancel it there. Nothing was changed.`,
    })
    const cancelled = await post({ messages: [], conversation: theirs, abort: { callId: call.callId, token: call.token } })
    expect(cancelled.find((e) => e.type === 'error')).toMatchObject({ code: 'FORBIDDEN' })
    // The call still waits for its own conversation, and nothing of it is in theirs.
    expect(await store.get(call.callId)).toMatchObject({ status: 'waiting' })
    const theirLog = ((await store.getConversation(theirs.id))!.log as Array<{ events?: ChatStreamEvent[] }>).flatMap((entry) => entry.events ?? [])
    expect(theirLog.filter((e) => JSON.stringify(e).includes(call.callId)).map((e) => e.type)).toEqual(['elicit_refused', 'error']) // the refusals, nothing of the call
    // Its own conversation answers it.
    const own = await post({ messages: snapshot.messages, conversation: mine, elicitResponses: [answer] })
    expect(own.find((e) => e.type === 'elicit_refused')).toBeUndefined()
    expect(own.find((e) => e.type === 'elicit_answered')).toMatchObject({ callId: call.callId })
    chat.dispose()
  }, 20_000)

  it('a restore served where a call runs says how far it got now, not only at its last save', async () => {
    const handler = serve(createMemoryStore())
    const storage = memoryStorage()
    const chat = page(handler, storage)
    const turn = chat.sendMessage('count to two')
    await until(chat, () => chat.getState().items.some((i) => i.kind === 'tool' && i.progress?.message === 'counting'))
    // Saved when the call started (its card), not at each tick: its progress comes from the call itself.
    const { events } = (await (await getSnapshot(handler, keyIn(storage))).json()) as { events: TranscriptEvent[] }
    expect(events.filter((e) => e.type === 'tool_progress')).toEqual([{ type: 'tool_progress', callId: expect.any(String), message: 'counting', progress: 1, total: 2 }])
    await turn
    chat.dispose()
  }, 20_000)

  it('a call that was running when the page left is followed after the reload until it ends', async () => {
    const handler = serve(createMemoryStore())
    const storage = memoryStorage()
    const first = page(handler, storage)
    const turn = first.sendMessage('count to two')
    await until(first, () => first.getState().items.some((i) => i.kind === 'tool' && i.progress?.message === 'counting'))
    first.dispose() // the page closes its response mid-call; the call goes on on the server

    const second = page(handler, storage)
    await second.restore()
    const card = () => second.getState().items.find((i): i is ToolItem => i.kind === 'tool')
    expect(card()).toMatchObject({ status: 'running' })
    await until(second, () => card()?.status === 'completed')
    expect(card()).toMatchObject({ result: { counted: 2 }, progress: { message: 'counted', progress: 2, total: 2 } })
    // No response was there to go on when it ended: the page that found its result asks the
    // model for its reply (once), so the closing reply arrives after a reload too.
    await until(second, () => second.getState().items.some((i) => i.kind === 'assistant'))
    expect(seen(second.getState().items).slice(-1)).toEqual([{ assistant: 'slow_count done.' }])
    await until(second, () => second.getState().status === 'ready')
    // A third tab opened now finds the reply there and asks for none.
    const third = page(handler, storage)
    await third.restore()
    await sleep0()
    expect(third.getState().items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant'])
    expect(third.getState().status).toBe('ready')
    third.dispose()
    await turn
    await second.sendMessage('count again')
    await until(second, () => second.getState().items.filter((i) => i.kind === 'assistant').length === 2)
    expect(second.getState().items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant', 'user', 'tool', 'assistant'])
    second.dispose()
  }, 20_000)

  it('a message retried after its response was lost is not taken twice: the page restores what the first try did', async () => {
    const handler = serve(createMemoryStore())
    const storage = memoryStorage()
    let posts = 0
    let loseNext = true
    const chat = createChatController({
      id: 'main',
      storage,
      plugins: [bookingPlugin.client],
      fetch: (async (url: string, init: RequestInit) => {
        const response = await handler(new Request(`http://127.0.0.1${url}`, init))
        if (init.method !== 'POST') return response
        posts++
        if (!loseNext) return response
        // The server took the turn; its response never came back.
        loseNext = false
        await response.text()
        throw new TypeError('network connection was lost')
      }) as typeof fetch,
    })
    await chat.sendMessage('Book me a flight')
    const failed = chat.getState().items.find((i) => i.kind === 'user')
    expect(failed).toMatchObject({ failed: true })
    await chat.retry(failed!.id)
    await nextEmission(chat, FlightList)
    // One call on the server; the retry was refused (409) and the page restored it instead.
    expect(posts).toBe(2)
    expect(handler.calls.size).toBe(1)
    expect(seen(chat.getState().items)).toEqual([
      { user: 'Book me a flight' },
      { assistant: 'On it. ' },
      expect.objectContaining({ tool: 'book_flight', status: 'awaiting_input', asks: 'pickFlight' }),
    ])
    chat.dispose()
  }, 20_000)

  it('DELETE with the secret forgets a conversation and cancels its calls still waiting; without it, nothing changes', async () => {
    const handler = serve(createMemoryStore())
    const storage = memoryStorage()
    const chat = page(handler, storage)
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    const key = keyIn(storage)
    expect(handler.calls.size).toBe(1)
    const del = (secret: string) => handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${secret}` } }))
    expect((await del('w'.repeat(43))).status).toBe(404)
    expect((await getSnapshot(handler, key)).status).toBe(200)
    expect((await del(key.secret)).status).toBe(204)
    expect((await getSnapshot(handler, key)).status).toBe(404)
    expect(handler.calls.size).toBe(0) // its question can never be answered: the call was cancelled
    expect((await del(key.secret)).status).toBe(404)
    chat.dispose()
  }, 20_000)

  it('keeps a list of the conversations: New chat keeps the old one, which reopens as it was; renamed; deleted on the server too', async () => {
    const handler = serve(createMemoryStore())
    const storage = memoryStorage()
    const chat = page(handler, storage)
    await chat.restore()
    await chat.sendMessage('count to two')
    await until(chat, () => chat.getState().items.some((i) => i.kind === 'tool' && i.status === 'completed'))
    const first = keyIn(storage)
    chat.newConversation()
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    const titles = () => chat.getState().conversations.map((c) => [c.title, c.current])
    expect(titles()).toEqual([
      ['Book me a flight', true],
      ['count to two', false],
    ])
    // Reopen the first: as it was, from the server.
    await chat.openConversation(first.id)
    expect(chat.getState().items.map((i) => i.kind)).toEqual(['user', 'tool', 'assistant'])
    expect(titles()).toEqual([
      ['Book me a flight', false],
      ['count to two', true],
    ])
    chat.renameConversation(first.id, '  Counting  ')
    expect(chat.getState().conversations.find((c) => c.id === first.id)?.title).toBe('Counting')
    // A reload (a new page on the same storage) lists them too.
    const again = page(handler, storage)
    await again.restore()
    expect(again.getState().conversations.map((c) => c.title)).toEqual(['Book me a flight', 'Counting'])
    again.dispose()
    // Delete the one with the open question: gone here and on the server; its call cancelled.
    const second = chat.getState().conversations.find((c) => !c.current)!
    const listed = JSON.parse(storage.data.get('mcp-bridge:chats:main')!) as ConversationKey[]
    const secondKey = listed.find((k) => k.id === second.id)!
    expect((await getSnapshot(handler, { id: secondKey.id, secret: secondKey.secret })).status).toBe(200)
    await chat.deleteConversation(second.id)
    expect(chat.getState().conversations.map((c) => c.title)).toEqual(['Counting'])
    expect((await getSnapshot(handler, { id: secondKey.id, secret: secondKey.secret })).status).toBe(404)
    expect(handler.calls.size).toBe(0)
    // Deleting the one on screen starts over.
    await chat.deleteConversation(first.id)
    expect(chat.getState().items).toEqual([])
    expect(chat.getState().conversations).toEqual([])
    chat.dispose()
  }, 30_000)

  it('newConversation starts over under a new key', async () => {
    const handler = serve(createMemoryStore())
    const storage = memoryStorage()
    const chat = page(handler, storage)
    await chat.sendMessage('Book me a flight')
    await nextEmission(chat, FlightList)
    const old = keyIn(storage)
    chat.newConversation()
    expect(chat.getState()).toMatchObject({ status: 'ready', items: [] })
    expect(chat.store.getSnapshot().emissions).toEqual([])
    expect(keyIn(storage).id).not.toBe(old.id)
    const reloaded = page(handler, storage)
    await reloaded.restore()
    expect(reloaded.getState().items).toEqual([])
    // The old one is still on the server, for its own secret.
    expect((await getSnapshot(handler, old)).status).toBe(200)
    chat.dispose()
    reloaded.dispose()
  }, 20_000)
})

describe('a conversation one client keeps growing', () => {
  it('stays within maxTranscriptBytes: the oldest turns go, the latest stay restorable', async () => {
    const store = createMemoryStore()
    const handler = createChatHandler({ tools: [slowCount], model, store, limits: { maxTranscriptBytes: 64 << 10 } })
    handlers.push(handler)
    const key = { id: 'growing-conversation-1', secret: 'g'.repeat(43) }
    const big = (i: number) => `turn ${i} ${'x'.repeat(20_000)}`
    for (let i = 0; i < 20; i++) {
      const response = await handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: big(i) }] }], conversation: key }),
        }),
      )
      await response.text()
    }
    const record = await store.getConversation(key.id)
    const events = (record!.state as { events: TranscriptEvent[] }).events
    expect(Buffer.byteLength(JSON.stringify(events))).toBeLessThanOrEqual(64 << 10)
    const said = events.flatMap((e) => (e.type === 'user_message' ? [e.text.slice(0, 8)] : []))
    expect(said.at(-1)).toBe('turn 19 ')
    expect(said.length).toBeLessThan(20)
    // Each kept turn is whole: it starts at its user message.
    expect(events[0]!.type).toBe('user_message')
    const restored = await getSnapshot(handler, key)
    expect(restored.status).toBe(200)
  })

  it('a reload is at most its messages (bounded by maxBodyBytes, as the client sends them back) and its transcript (maxTranscriptBytes)', async () => {
    const limits = { maxTranscriptBytes: 64 << 10, maxBodyBytes: 128 << 10 }
    const handler = createChatHandler({ tools: [slowCount], model, store: createMemoryStore(), limits })
    handlers.push(handler)
    const key = { id: 'growing-conversation-2', secret: 'h'.repeat(43) }
    // Each turn sends the conversation so far and a big message, as a client does, until the body limit refuses one.
    let messages: unknown[] = []
    for (let i = 0, accepted = true; accepted && i < 20; i++) {
      const body = JSON.stringify({ messages: [...messages, { role: 'user', content: [{ type: 'text', text: `turn ${i} ${'y'.repeat(20_000)}` }] }], conversation: key })
      const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
      accepted = response.status === 200
      if (!accepted) break
      for await (const e of readChatEvents(response.body!)) if (e.type === 'conversation_state') messages = e.messages
    }
    expect(messages.length).toBeGreaterThan(4)
    const restored = await getSnapshot(handler, key)
    const bytes = Buffer.byteLength(await restored.text())
    expect(bytes).toBeGreaterThan(limits.maxBodyBytes) // both parts are near their caps…
    expect(bytes).toBeLessThanOrEqual(limits.maxBodyBytes + limits.maxTranscriptBytes) // …and the reload within their sum
  })

  it('one client keeps at most maxConversationsPerClient: a new one past it forgets its oldest; other clients keep theirs', async () => {
    const store = createMemoryStore()
    const handler = createChatHandler({ tools: [slowCount], model, store, limits: { maxConversationsPerClient: 3 }, clientKey: (r) => r.headers.get('x-client') ?? '?' })
    handlers.push(handler)
    const start = async (client: string, id: string) => {
      const response = await handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client': client },
          body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], conversation: { id, secret: 's'.repeat(43) } }),
        }),
      )
      await response.text()
    }
    await start('alice', 'alice-conversation-0')
    for (let i = 0; i < 5; i++) await start('mallory', `mallory-conversation-${i}`)
    await start('mallory', 'mallory-conversation-4') // a turn of one she has: no new one
    const kept = async (id: string) => (await getSnapshot(handler, { id, secret: 's'.repeat(43) })).status
    expect(await Promise.all([0, 1, 2, 3, 4].map((i) => kept(`mallory-conversation-${i}`)))).toEqual([404, 404, 200, 200, 200])
    expect(await kept('alice-conversation-0')).toBe(200)
  })

  it('boundTranscript drops whole turns from the front and keeps at least the last event', () => {
    const turn = (n: number): TranscriptEvent[] => [
      { type: 'user_message', text: `q${n}` },
      { type: 'text_delta', text: `a${n}`.padEnd(50, '.') },
    ]
    const events = [...turn(1), ...turn(2), ...turn(3)]
    const size = (es: TranscriptEvent[]) => es.reduce((n, e) => n + Buffer.byteLength(JSON.stringify(e)) + 1, 0)
    expect(boundTranscript(events, size(events))).toEqual(events)
    expect(boundTranscript(events, size(events) - 1)).toEqual([...turn(2), ...turn(3)])
    expect(boundTranscript(events, 10)).toEqual([events.at(-1)])
  })
})

describe('the transcript keeps what a reload needs, small', () => {
  const call = (callId: string): TranscriptEvent => ({ type: 'tool_call', callId, toolName: 't', params: {} })
  const build = (events: TranscriptEvent[]) => events.reduce(appendToTranscript, [] as TranscriptEvent[])

  it('merges text, keeps the latest progress and only the open question', () => {
    const question = (id: string): TranscriptEvent => ({
      type: 'elicit_request',
      callId: 'a',
      toolName: 't',
      request: { id, key: 'k', message: 'm', schema: {}, context: {} },
    })
    const events = build([
      { type: 'user_message', text: 'hi' },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo' },
      call('a'),
      { type: 'tool_progress', callId: 'a', message: '1' },
      question('a#1'),
      { type: 'elicit_refused', callId: 'a', elicitId: 'a#1', code: 'INVALID', message: 'no' },
      question('a#2'),
      { type: 'tool_progress', callId: 'a', message: '2' },
      { type: 'error', code: 'X', message: 'once' },
    ])
    expect(events).toEqual([
      { type: 'user_message', text: 'hi' },
      { type: 'text_delta', text: 'Hello' },
      call('a'),
      question('a#2'),
      { type: 'tool_progress', callId: 'a', message: '2' },
    ])
    expect(appendToTranscript(events, { type: 'tool_result', callId: 'a', toolName: 't', result: 1 }).map((e) => e.type)).toEqual([
      'user_message',
      'text_delta',
      'tool_call',
      'tool_progress',
      'tool_result',
    ])
  })

  it(`keeps a call's last ${MAX_LOGS_PER_CALL} logs`, () => {
    const logs = Array.from({ length: MAX_LOGS_PER_CALL + 5 }, (_, i): TranscriptEvent => ({ type: 'tool_log', callId: 'a', level: 'info', message: `${i}` }))
    const kept = build([call('a'), ...logs]).filter((e) => e.type === 'tool_log')
    expect(kept).toHaveLength(MAX_LOGS_PER_CALL)
    expect(kept[0]).toMatchObject({ message: '5' })
  })
})
