/**
 * Recovery of calls whose server stopped while they ran, on virtual time: two chat instances in
 * this process share one SQLite file and one test clock. The first "dies" as a killed process
 * does — its store connection goes first, so it neither renews its locks nor writes again — in the
 * middle of a step. The second finds the call stranded once the lease lapses, replays its journal
 * and runs it on: the step cut off runs again with the same idempotency key, and what the call
 * does next (its next question, its result) lands in the conversation a reload restores.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { chatInstance } from '../support/chat-instance.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suspend } from 'effection'
import { z } from 'zod'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createChatHandler, createSqliteStore, type ChatHandler } from '../../src/server.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client'
import { FULL_CAPABILITIES } from '../mcp/support/mcp-clients.ts'
import { type ChatRequestBody, type ChatStreamEvent, type ConversationSnapshot, readChatEvents } from '../../src/client.ts'
import { createScriptedModel, createTestClock, type TestClock } from '../../src/testing.ts'
import { openLedger } from '../fixtures/ticket-desk.ts'

const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-recovery-'))
const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const LEASE = 10_000

/**
 * A booking that reserves a fare, asks to confirm, issues a ticket, and (with `rate`) asks how
 * it went. `stall`: the ticket step hangs after its effect, as a server killed in the middle of
 * it would (the effect is in the ledger, the step's result never recorded).
 */
function desk(ledgerPath: string, { stall = false, rate = false } = {}) {
  const ledger = openLedger(ledgerPath)
  cleanups.push(() => ledger.close())
  return createMcpTool('book_ticket')
    .parameters(z.object({ route: z.string() }))
    .elicits({ confirm: z.object({ ok: z.boolean() }), rate: z.object({ stars: z.int().min(1).max(5) }) })
    .execute(function* (params, ctx) {
      yield* ctx.step('reserve fare', function* ({ idempotencyKey }) {
        ledger.add('reserve', idempotencyKey)
      })
      const answer = yield* ctx.elicit('confirm', { message: `Book ${params.route}?` })
      if (answer.action !== 'accept' || !answer.content.ok) return { booked: false }
      const ticket = yield* ctx.step('issue ticket', function* ({ idempotencyKey }) {
        ledger.add('ticket', idempotencyKey)
        if (stall) yield* suspend()
        return `TK-${params.route}`
      })
      if (rate) {
        const rating = yield* ctx.elicit('rate', { message: `Ticket ${ticket} is issued. How was booking?` })
        return { booked: true, ticket, stars: rating.action === 'accept' ? rating.content.stars : undefined }
      }
      return { booked: true, ticket }
    })
}

const model = createScriptedModel({
  onUserMessage: [{ match: /ticket to (\w+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book_ticket', input: { route: m![1]! } }] }) }],
  onToolResult: (name, result) => `${name}: ${JSON.stringify(result)}`,
  fallback: 'ok',
})

/** A chat server sharing `db` (see chat-instance.ts for how it dies). */
const instance = (db: string, clock: TestClock, tool: ReturnType<typeof desk>) => chatInstance(db, clock, { tools: [tool], model, limits: { lockLeaseMs: LEASE } }, cleanups)

const key = { id: 'conversation-recovery-1', secret: 's'.repeat(40) }
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })

async function post(handler: ChatHandler, body: ChatRequestBody, { stopAt }: { stopAt?: ChatStreamEvent['type'] } = {}): Promise<ChatStreamEvent[]> {
  const response = await handler(new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }))
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) {
    events.push(e)
    if (e.type === stopAt) break
  }
  return events
}

async function snapshot(handler: ChatHandler): Promise<ConversationSnapshot> {
  const response = await handler(new Request(`http://127.0.0.1/api/chat?conversation=${key.id}`, { headers: { authorization: `Bearer ${key.secret}` } }))
  expect(response.status).toBe(200)
  return (await response.json()) as ConversationSnapshot
}

const find = <T extends ChatStreamEvent['type']>(events: readonly ChatStreamEvent[], type: T) => events.findLast((e): e is Extract<ChatStreamEvent, { type: T }> => e.type === type)

/** Book on `a` up to the ticket step, which hangs there: the server is "killed" mid-step. */
async function bookUntilTheTicketStep(a: Awaited<ReturnType<typeof instance>>, ledgerPath: string) {
  const asked = await post(a.handler, { messages: [user('a ticket to OSL')], conversation: key })
  const question = find(asked, 'elicit_request')!
  const call = find(asked, 'tool_call')!
  const messages = find(asked, 'conversation_state')!.messages
  const answer: ChatRequestBody = {
    messages,
    conversation: key,
    elicitResponses: [{ callId: call.callId, elicitId: question.request.id, token: call.token!, result: { action: 'accept', content: { ok: true } } }],
  }
  // The response stays open while the step hangs; the "kill" ends it.
  void post(a.handler, answer).catch(() => undefined)
  const ledger = openLedger(ledgerPath)
  cleanups.push(() => ledger.close())
  await vi.waitFor(() => expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve', 'ticket']), { timeout: 10_000 })
  await a.die()
  return { callId: call.callId, answer, ledger }
}

describe('a call running when its server stopped', () => {
  it('is taken over by another instance within 1.5 leases; the step cut off runs again with the same idempotency key, and its result reaches the conversation', async () => {
    const db = join(dir, 'result.db')
    const ledgerPath = join(dir, 'result-ledger.db')
    const clock = createTestClock()
    const a = await instance(db, clock, desk(ledgerPath, { stall: true }))
    const { callId, ledger } = await bookUntilTheTicketStep(a, ledgerPath)
    const b = await instance(db, clock, desk(ledgerPath))
    expect((await b.store.get(callId))?.status).toBe('running')
    await clock.advance(LEASE - 1) // the dead server's lease has not lapsed: nothing is taken over
    expect(b.handler.calls.size).toBe(0)
    await clock.advance(LEASE / 2) // lapsed, and the next scan came
    await vi.waitFor(async () => expect((await b.store.get(callId))?.status).toBe('completed'), { timeout: 10_000 })

    const rows = ledger.rows()
    expect(rows.map((r) => r.kind)).toEqual(['reserve', 'ticket', 'ticket'])
    // The same key both times: a ledger keyed by it (as a payment API is) holds one ticket.
    expect(rows[2]!.key).toBe(rows[1]!.key)
    // Said through the app's logger, with fields a log search can filter on.
    expect(b.logged).toContainEqual({
      level: 'info',
      fields: expect.objectContaining({ callId, tool: 'book_ticket', journalEntries: expect.any(Number) }),
      message: expect.stringContaining(`recovered tool call ${callId} (book_ticket): its server`),
    })

    // A reload finds the call's end: its card and the result the model will read.
    const restored = await snapshot(b.handler)
    expect(restored.events.findLast((e) => e.type === 'tool_result')).toMatchObject({ callId, result: { booked: true, ticket: 'TK-OSL' } })
    const results = restored.messages.flatMap((m) => m.content).filter((c) => c.type === 'tool_result')
    expect(results).toEqual([expect.objectContaining({ toolUseId: callId, structuredContent: { booked: true, ticket: 'TK-OSL' } })])
    // The reply after it is the model's next turn: the client asks for it (no new user message).
    const next = await post(b.handler, { messages: restored.messages, conversation: key })
    const reply = next.flatMap((e) => (e.type === 'text_delta' ? [e.text] : [])).join('')
    expect(reply).toBe('book_ticket: {"booked":true,"ticket":"TK-OSL"}')
  }, 60_000)

  it('asks its next question in the conversation; the question, restored with its token, is answered on the instance that recovered it', async () => {
    const db = join(dir, 'question.db')
    const ledgerPath = join(dir, 'question-ledger.db')
    const clock = createTestClock()
    const a = await instance(db, clock, desk(ledgerPath, { stall: true, rate: true }))
    const { callId, answer, ledger } = await bookUntilTheTicketStep(a, ledgerPath)
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const b = await instance(db, clock, desk(ledgerPath, { rate: true }))
    // An answer re-sent to the call meanwhile is refused as busy, honestly, and changes nothing.
    await clock.advance(LEASE - 1)
    expect(find(await post(b.handler, answer), 'elicit_refused')).toMatchObject({ code: 'BUSY', message: expect.stringMatching(/held by another server.*Try again then/) })
    await clock.advance(LEASE / 2)
    await vi.waitFor(async () => expect((await b.store.get(callId))?.status).toBe('waiting'), { timeout: 10_000 })

    const restored = await snapshot(b.handler)
    const question = restored.events.findLast((e) => e.type === 'elicit_request')
    expect(question).toMatchObject({ callId, request: { key: 'rate', message: 'Ticket TK-OSL is issued. How was booking?' } })
    const token = restored.events.find((e) => e.type === 'tool_call' && e.callId === callId)
    expect(token).toMatchObject({ token: expect.any(String) })
    const done = await post(b.handler, {
      messages: restored.messages,
      conversation: key,
      elicitResponses: [
        {
          callId,
          elicitId: question!.type === 'elicit_request' ? question!.request.id : '',
          token: (token as { token: string }).token,
          result: { action: 'accept', content: { stars: 5 } },
        },
      ],
    })
    expect(find(done, 'tool_result')).toMatchObject({ callId, result: { booked: true, ticket: 'TK-OSL', stars: 5 } })
    expect(ledger.rows().filter((r) => r.kind === 'ticket')).toHaveLength(2) // the cut-off step, once more, same key
    expect(
      new Set(
        ledger
          .rows()
          .filter((r) => r.kind === 'ticket')
          .map((r) => r.key),
      ).size,
    ).toBe(1)
  }, 60_000)

  it('is not taken over while its server lives: a slow step keeps its lock through many leases', async () => {
    const db = join(dir, 'alive.db')
    const ledgerPath = join(dir, 'alive-ledger.db')
    const clock = createTestClock()
    const a = await instance(db, clock, desk(ledgerPath, { stall: true }))
    const asked = await post(a.handler, { messages: [user('a ticket to ROM')], conversation: key })
    const call = find(asked, 'tool_call')!
    void post(a.handler, {
      messages: find(asked, 'conversation_state')!.messages,
      conversation: key,
      elicitResponses: [{ callId: call.callId, elicitId: find(asked, 'elicit_request')!.request.id, token: call.token!, result: { action: 'accept', content: { ok: true } } }],
    }).catch(() => undefined)
    const b = await instance(db, clock, desk(ledgerPath))
    await vi.waitFor(async () => expect((await b.store.get(call.callId))?.status).toBe('running'), { timeout: 10_000 })
    for (let i = 0; i < 8; i++) await clock.advance(LEASE / 2)
    expect(b.handler.calls.size).toBe(0)
    expect(a.handler.calls.size).toBe(1)
  }, 60_000)

  it('is never stored running with its lock free: another instance scanning at the moment a new call is first stored cannot take it over', async () => {
    const db = join(dir, 'first-write.db')
    const ledgerPath = join(dir, 'first-write-ledger.db')
    const clock = createTestClock()
    const store = await createSqliteStore({ path: db, clock })
    cleanups.push(() => store.close())
    // Another instance's recovery scan, run right after each record is first stored: it lists the
    // running records and tries to take their locks, as #recoverOne does.
    const taken: Array<{ listed: boolean; locked: boolean }> = []
    const scanned = new Proxy(store, {
      get(target, name, receiver) {
        if (name !== 'create') return Reflect.get(target, name, receiver)
        return async (record: Parameters<typeof store.create>[0]) => {
          const created = await target.create(record)
          if (record.status !== 'running') return created
          const listed = await target.stranded(10, 'chat')
          const lease = await target.lock(record.callId, 'another-instance', LEASE)
          taken.push({ listed: listed.includes(record.callId), locked: lease !== undefined })
          if (lease) await target.unlock(lease)
          return created
        }
      },
    })
    const handler = createChatHandler({ tools: [desk(ledgerPath)], model, store: scanned, clock, limits: { lockLeaseMs: LEASE } })
    cleanups.push(() => handler.close())
    const asked = await post(handler, { messages: [user('a ticket to BER')], conversation: key })
    expect(find(asked, 'elicit_request')).toBeDefined()
    // The booking's first record (its reserve step ran) was listed as running, its lock already held.
    expect(taken).toEqual([{ listed: false, locked: false }])
  }, 60_000)
})

type Round = CallToolResult | { resultType: 'input_required'; inputRequests: Record<string, { method: string; params: { message?: string } }>; requestState: string }

async function mcpInstance(db: string, clock: TestClock, tool: ReturnType<typeof desk>) {
  const store = await createSqliteStore({ path: db, clock })
  const server = createMcpServer({ name: 'desk', version: '1', tools: [tool], secret: 'a-test-secret-of-at-least-32-bytes!!', store, clock, limits: { lockLeaseMs: LEASE } })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const handle = server.listen({ transport: serverSide })
  const client = new Client({ name: 'manual', version: '1' }, { capabilities: FULL_CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } })
  await client.connect(clientSide)
  let dead = false
  const die = async () => {
    if (dead) return
    dead = true
    await store.close()
    await client.close().catch(() => undefined)
    await handle.close()
    await server.close()
  }
  cleanups.push(die)
  const call = (params: Record<string, unknown>) => client.callTool({ name: 'book_ticket', arguments: { route: 'OSL' }, ...params }, { allowInputRequired: true }) as Promise<Round>
  return { server, store, call, die }
}

/** Book over MCP on `a` up to the ticket step, which hangs there: the server is "killed" mid-step (the client's request dies with it). */
async function mcpBookUntilTheTicketStep(a: Awaited<ReturnType<typeof mcpInstance>>, ledgerPath: string) {
  const first = (await a.call({})) as Extract<Round, { resultType: 'input_required' }>
  expect(Object.keys(first.inputRequests)).toEqual(['elicit-confirm-2'])
  const retry = { inputResponses: { 'elicit-confirm-2': { action: 'accept', content: { ok: true } } }, requestState: first.requestState }
  const lost = a.call(retry).catch((error: Error) => error)
  const ledger = openLedger(ledgerPath)
  cleanups.push(() => ledger.close())
  await vi.waitFor(() => expect(ledger.rows().map((r) => r.kind)).toEqual(['reserve', 'ticket']), { timeout: 10_000 })
  await a.die()
  expect(await lost).toBeInstanceOf(Error)
  const callId = (JSON.parse(Buffer.from(first.requestState.split('.')[1]!, 'base64url').toString()) as { p: { callId: string } }).p.callId
  return { retry, ledger, callId }
}

describe('an MCP call running when its server stopped', () => {
  it('is recovered by an instance sharing the store; the client retrying its last round gets the question the call asks now, then its result', async () => {
    const db = join(dir, 'mcp.db')
    const ledgerPath = join(dir, 'mcp-ledger.db')
    const clock = createTestClock()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const a = await mcpInstance(db, clock, desk(ledgerPath, { stall: true, rate: true }))
    const { retry, ledger, callId } = await mcpBookUntilTheTicketStep(a, ledgerPath)

    const b = await mcpInstance(db, clock, desk(ledgerPath, { rate: true }))
    // Before the dead server's hold lapses: refused, honestly, and nothing changed.
    await expect(b.call(retry)).rejects.toThrow(/is held by another server, which is running or answering it — or stopped while it did; its hold lapses within 10 s/)
    await clock.advance(LEASE + LEASE / 2)
    await vi.waitFor(async () => expect((await b.store.get(callId))?.status).toBe('waiting'), {
      timeout: 10_000,
    })
    // The retried round: its answer was taken before the crash, so it gets the next question, not a second booking.
    const now = (await b.call(retry)) as Extract<Round, { resultType: 'input_required' }>
    expect(Object.keys(now.inputRequests)).toEqual(['elicit-rate-4'])
    expect(now.inputRequests['elicit-rate-4']!.params.message).toContain('Ticket TK-OSL is issued. How was booking?')
    const done = (await b.call({ inputResponses: { 'elicit-rate-4': { action: 'accept', content: { stars: 4 } } }, requestState: now.requestState })) as CallToolResult
    expect(done.structuredContent).toEqual({ booked: true, ticket: 'TK-OSL', stars: 4 })
    // Once more, the first retry: the result, nothing run again.
    expect(((await b.call(retry)) as CallToolResult).structuredContent).toEqual(done.structuredContent)
    const tickets = ledger.rows().filter((r) => r.kind === 'ticket')
    expect(tickets).toHaveLength(2) // the step cut off by the crash ran again on recovery, with the same key
    expect(new Set(tickets.map((r) => r.key)).size).toBe(1)
  }, 60_000)
})

describe('calls of a chat handler and an MCP server sharing one store', () => {
  /**
   * Both surfaces on one store (as the playground runs them), each with a booking cut off in its
   * ticket step when their process dies. Then only one surface comes back: it must recover its
   * own call and leave the other's alone — stranded, with its record as it was — for the other
   * surface to carry on in its own format (a chat question in the conversation, an MCP round the
   * client retries). One order per surface, so each is the one that could take the other's.
   */
  async function strandBoth(name: string, clock: TestClock) {
    const db = join(dir, `${name}.db`)
    const chatLedger = join(dir, `${name}-chat-ledger.db`)
    const mcpLedger = join(dir, `${name}-mcp-ledger.db`)
    const chatA = await instance(db, clock, desk(chatLedger, { stall: true, rate: true }))
    const mcpA = await mcpInstance(db, clock, desk(mcpLedger, { stall: true, rate: true }))
    const chat = await bookUntilTheTicketStep(chatA, chatLedger)
    const { retry, callId: mcpCallId } = await mcpBookUntilTheTicketStep(mcpA, mcpLedger)
    return { db, chatLedger, mcpLedger, chatCallId: chat.callId, mcpCallId, retry }
  }

  async function recoverChat(s: Awaited<ReturnType<typeof strandBoth>>, clock: TestClock) {
    const b = await instance(s.db, clock, desk(s.chatLedger, { rate: true }))
    await clock.advance(LEASE + LEASE / 2)
    await vi.waitFor(async () => expect((await b.store.get(s.chatCallId))?.status).toBe('waiting'), { timeout: 10_000 })
    const restored = await snapshot(b.handler)
    expect(restored.events.findLast((e) => e.type === 'elicit_request')).toMatchObject({ callId: s.chatCallId, request: { key: 'rate' } })
    return b
  }

  async function recoverMcp(s: Awaited<ReturnType<typeof strandBoth>>, clock: TestClock) {
    const c = await mcpInstance(s.db, clock, desk(s.mcpLedger, { rate: true }))
    await clock.advance(LEASE + LEASE / 2)
    await vi.waitFor(async () => expect((await c.store.get(s.mcpCallId))?.status).toBe('waiting'), { timeout: 10_000 })
    const now = (await c.call(s.retry)) as Extract<Round, { resultType: 'input_required' }>
    expect(Object.keys(now.inputRequests)).toEqual(['elicit-rate-4'])
    return c
  }

  it('a chat handler alone recovers the chat call and leaves the MCP call stranded for an MCP server, which recovers it', async () => {
    const clock = createTestClock()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const s = await strandBoth('surfaces-chat-first', clock)
    const b = await recoverChat(s, clock)
    for (let i = 0; i < 4; i++) await clock.advance(LEASE / 2) // scans enough to take it, had it been taken
    const mcpRecord = await b.store.get(s.mcpCallId)
    expect(mcpRecord).toMatchObject({ surface: 'mcp', status: 'running' })
    expect(b.handler.calls.get(s.mcpCallId)).toBeUndefined()
    expect(await b.store.stranded(10, 'mcp')).toEqual([s.mcpCallId])
    await recoverMcp(s, clock)
    expect(await b.store.get(s.mcpCallId)).toMatchObject({ surface: 'mcp', status: 'waiting' })
    // Nor can the chat side answer or cancel it — not even its own dev tooling, which skips tokens.
    const foreign = /belongs to this server's MCP endpoint, not its chat; answer or cancel it there/
    expect(await b.handler.calls.resume(s.mcpCallId, { trusted: true, replay: () => undefined })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: expect.stringMatching(foreign),
    })
    expect(await b.handler.calls.abort(s.mcpCallId, undefined, 'cancelled', { trusted: true })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: expect.stringMatching(foreign),
    })
    expect(await b.store.get(s.mcpCallId)).toMatchObject({ surface: 'mcp', status: 'waiting' })
    expect(await b.store.get(s.chatCallId)).toMatchObject({ surface: 'chat', status: 'waiting' })
  }, 90_000)

  it('an MCP server alone recovers the MCP call and leaves the chat call stranded for a chat handler, which recovers it', async () => {
    const clock = createTestClock()
    vi.spyOn(console, 'info').mockImplementation(() => {})
    const s = await strandBoth('surfaces-mcp-first', clock)
    const c = await recoverMcp(s, clock)
    for (let i = 0; i < 4; i++) await clock.advance(LEASE / 2)
    expect(await c.store.get(s.chatCallId)).toMatchObject({ surface: 'chat', status: 'running' })
    expect(await c.store.stranded(10, 'chat')).toEqual([s.chatCallId])
    await recoverChat(s, clock)
    expect(await c.store.get(s.chatCallId)).toMatchObject({ surface: 'chat', status: 'waiting' })
    expect(await c.store.get(s.mcpCallId)).toMatchObject({ surface: 'mcp', status: 'waiting' })
  }, 90_000)
})
