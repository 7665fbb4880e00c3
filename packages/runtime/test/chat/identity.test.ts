/**
 * In-app tools act as the signed-in user: `createChatHandler({ authenticate })` reads the app's
 * own session cookie, tools read the caller as `ctx.auth`, and the caller is recorded with the
 * call — the same when the call resumes on another instance and when it is recovered after its
 * server died. Another signed-in user holding the call's token and the conversation's secret
 * can neither answer, cancel nor read it. Two instances share one SQLite file and a test clock.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suspend } from 'effection'
import { z } from 'zod'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createChatHandler, type AppCaller, type ChatHandler } from '../../src/server.ts'
import { AuthenticationError } from '../../src/errors.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel, createTestClock, type TestClock } from '../../src/testing.ts'
import { chatInstance } from '../support/chat-instance.ts'

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-identity-'))
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const LEASE = 10_000

/** The app's users and, server-side only, the API key each acts with (never in a call's journal). */
const USERS: Record<string, { name: string; apiKey: string }> = {
  'u-ada': { name: 'Ada', apiKey: 'key-ada-7f3a' },
  'u-bob': { name: 'Bob', apiKey: 'key-bob-91bc' },
}
/** The app's sessions: a cookie value → the signed-in user. */
const SESSIONS: Record<string, string> = { 'sess-ada': 'u-ada', 'sess-bob': 'u-bob' }

/** The app's `authenticate`: its own session cookie, nothing of ours. */
function authenticate(request: Request): AppCaller | undefined {
  const session = /(?:^|;\s*)session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1]
  if (session === undefined) return undefined
  const subject = SESSIONS[session]
  if (!subject) throw new AuthenticationError('Your session has expired: sign in again.')
  return { subject, scopes: ['notes:write'], extra: { name: USERS[subject]!.name } }
}

/** What the app's notes API saw: which key each write used (the effect a step makes). */
const apiWrites: Array<{ title: string; apiKey: string; by: string }> = []

/** Saves a note through the app's API as the signed-in user; `stall`: the save hangs after its effect, as a killed server. */
function saveNote({ stall = false } = {}) {
  return createMcpTool('save_note')
    .elicits({ title: z.object({ title: z.string().min(1) }) })
    .execute(function* (_params, ctx) {
      const answer = yield* ctx.elicit('title', { message: 'Title?' })
      if (answer.action !== 'accept') return { saved: false }
      const subject = ctx.auth?.subject
      const saved = yield* ctx.step('save through the API', function* () {
        // The credential is looked up on the server from the caller, at the moment it is needed.
        const apiKey = subject ? USERS[subject]!.apiKey : 'anonymous'
        apiWrites.push({ title: answer.content.title, apiKey, by: subject ?? 'nobody' })
        if (stall) yield* suspend()
        return { id: apiWrites.length }
      })
      return { saved: true, id: saved.id, by: subject, name: ctx.auth?.extra?.name, scopes: ctx.auth?.scopes }
    })
}

const model = createScriptedModel({
  onUserMessage: [{ match: /note/, reply: { toolCalls: [{ name: 'save_note', input: {} }] } }],
  onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
  fallback: 'ok',
})

/** A chat server sharing `db`, signing users in with `authenticate` (see chat-instance.ts for how it dies). */
const instance = (db: string, clock: TestClock, tool: ReturnType<typeof saveNote>) =>
  chatInstance(db, clock, { tools: [tool], model, authenticate, limits: { lockLeaseMs: LEASE } }, cleanups)

const key = { id: 'conversation-identity-1', secret: 's'.repeat(40) }
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const as = (session: string | undefined): Record<string, string> => (session ? { cookie: `theme=dark; session=${session}` } : {})

async function post(handler: ChatHandler, body: ChatRequestBody, session: string | undefined): Promise<ChatStreamEvent[]> {
  const response = await handler(
    new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json', ...as(session) }, body: JSON.stringify(body) }),
  )
  expect(response.status).toBe(200)
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) events.push(e)
  return events
}

const find = <T extends ChatStreamEvent['type']>(events: readonly ChatStreamEvent[], type: T) => events.findLast((e): e is Extract<ChatStreamEvent, { type: T }> => e.type === type)

/** Ada asks for a note on `handler`: the call waits on its question. */
async function adaAsks(handler: ChatHandler) {
  const asked = await post(handler, { messages: [user('a note please')], conversation: key }, 'sess-ada')
  const question = find(asked, 'elicit_request')!
  const call = find(asked, 'tool_call')!
  const messages = find(asked, 'conversation_state')!.messages
  const answer = (title: string): ChatRequestBody => ({
    messages,
    conversation: key,
    elicitResponses: [{ callId: call.callId, elicitId: question.request.id, token: call.token!, result: { action: 'accept', content: { title } } }],
  })
  return { callId: call.callId, token: call.token!, messages, answer }
}

describe('in-app tools act as the signed-in user', () => {
  it("another user with the call's token and the conversation's secret can neither answer, cancel nor read it; the call is Ada's, resumed on another instance as Ada", async () => {
    const db = join(dir, 'owner.db')
    const clock = createTestClock()
    const a = await instance(db, clock, saveNote())
    const b = await instance(db, clock, saveNote())
    apiWrites.length = 0
    const ada = await adaAsks(a.handler)
    const record = await a.store.get(ada.callId)
    // Recorded with the call: who, never a credential.
    expect(record?.auth).toEqual({ subject: 'u-ada', scopes: ['notes:write'], extra: { name: 'Ada' } })
    expect(JSON.stringify(record)).not.toMatch(/sess-ada|key-ada/)

    // Bob, with Ada's token, on either instance: refused, nothing changed. Through the
    // conversation he cannot even write (it is not his); with the call's token alone, the call says no.
    const throughConversation = await b.handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as('sess-bob') },
        body: JSON.stringify(ada.answer('Bob was here')),
      }),
    )
    expect(throughConversation.status).toBe(403)
    expect(await throughConversation.json()).toMatchObject({ code: 'CONVERSATION_FORBIDDEN' })
    const bobAnswers = await post(b.handler, { ...ada.answer('Bob was here'), conversation: undefined }, 'sess-bob')
    expect(find(bobAnswers, 'elicit_refused')).toMatchObject({
      callId: ada.callId,
      code: 'FORBIDDEN',
      message: expect.stringContaining('belongs to another signed-in user; nothing was changed'),
    })
    const bobCancels = await post(a.handler, { messages: ada.messages, abort: { callId: ada.callId, token: ada.token } }, 'sess-bob')
    expect(find(bobCancels, 'error')).toMatchObject({ code: 'FORBIDDEN' })
    // Nobody signed in is not Ada either.
    const anonymous = await post(b.handler, { ...ada.answer('anyone'), conversation: undefined }, undefined)
    expect(find(anonymous, 'elicit_refused')).toMatchObject({ code: 'FORBIDDEN' })
    expect(apiWrites).toEqual([])
    expect((await a.store.get(ada.callId))?.status).toBe('waiting')

    // Bob holding the conversation's id and secret finds nothing to read or delete; Ada does.
    const read = (session: string) =>
      b.handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${key.secret}`, ...as(session) } }))
    expect((await read('sess-bob')).status).toBe(404)
    const bobDeletes = await b.handler(
      new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${key.secret}`, ...as('sess-bob') } }),
    )
    expect(bobDeletes.status).toBe(404)
    expect((await read('sess-ada')).status).toBe(200)

    // Ada answers on the other instance: the call replays there, as Ada, with her key.
    const done = await post(b.handler, ada.answer('Groceries'), 'sess-ada')
    expect(find(done, 'tool_result')).toMatchObject({ callId: ada.callId, result: { saved: true, id: 1, by: 'u-ada', name: 'Ada', scopes: ['notes:write'] } })
    expect(apiWrites).toEqual([{ title: 'Groceries', apiKey: 'key-ada-7f3a', by: 'u-ada' }])
  }, 60_000)

  it('a call recovered after its server died runs on as the user who started it', async () => {
    const db = join(dir, 'recovered.db')
    const clock = createTestClock()
    const a = await instance(db, clock, saveNote({ stall: true }))
    apiWrites.length = 0
    const ada = await adaAsks(a.handler)
    void post(a.handler, ada.answer('Tickets'), 'sess-ada').catch(() => undefined)
    await vi.waitFor(() => expect(apiWrites).toHaveLength(1), { timeout: 10_000 })
    await a.die() // killed in the middle of the save
    const b = await instance(db, clock, saveNote())
    await clock.advance(LEASE * 1.5)
    await vi.waitFor(async () => expect((await b.store.get(ada.callId))?.status).toBe('completed'), { timeout: 10_000 })
    expect((await b.store.get(ada.callId))?.outcome).toMatchObject({ status: 'completed', result: { saved: true, by: 'u-ada', name: 'Ada' } })
    // The save cut off ran again, with Ada's key, not anyone else's.
    expect(apiWrites.map((w) => w.apiKey)).toEqual(['key-ada-7f3a', 'key-ada-7f3a'])
  }, 60_000)

  it('a session authenticate refuses gets 401 with its sentence; without authenticate nothing changes for anyone', async () => {
    const clock = createTestClock()
    const a = await instance(join(dir, 'refused.db'), clock, saveNote())
    const expired = await a.handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...as('sess-stolen') },
        body: JSON.stringify({ messages: [user('a note')] }),
      }),
    )
    expect(expired.status).toBe(401)
    expect(await expired.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Your session has expired: sign in again.' })
    // An authenticate that returns what is not a caller is a clear 401, not a crash.
    const wrong = createChatHandler({ tools: [saveNote()], model, authenticate: (() => ({ id: 'u-ada' })) as never })
    cleanups.push(() => wrong.close())
    const response = await wrong(
      new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [user('a note')] }) }),
    )
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringContaining('must return { subject: string') })
    expect(() => createChatHandler({ tools: [saveNote()], model, authenticate: 'cookie' as never })).toThrow(/authenticate.*must be a function/)
  }, 60_000)
})
