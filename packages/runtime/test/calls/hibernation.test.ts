/**
 * Waiting costs storage, not memory: a parked call's generator stays in memory only while it is
 * among the `warmCalls` most recently parked. Past that it is let go of (its `finally` runs, its
 * record keeps everything), and an answer replays it from its journal — no step runs again, the
 * answer is never refused for this process's capacity, and its idle time is kept by its record.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createChatHandler, createMemoryStore, type ChatHandler } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel, createTestClock } from '../../src/testing.ts'
import { createMcpServer } from '../../src/mcp.ts'
import { bookFlight } from '../fixtures/book-flight.ts'
import { accept, connectClient, GENERATIONS } from '../mcp/support/mcp-clients.ts'

const log: string[] = []
const book = createMcpTool('book')
  .parameters(z.object({ who: z.string() }))
  .elicits({ ok: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    try {
      const fare = yield* ctx.step('reserve', function* () {
        log.push(`reserve ${params.who}`)
        return `F-${params.who}`
      })
      const answer = yield* ctx.elicit('ok', { message: `Book ${fare}?` })
      return { booked: answer.action === 'accept' && answer.content.ok, fare }
    } finally {
      log.push(`finally ${params.who}`)
    }
  })
const model = createScriptedModel({
  onUserMessage: [{ match: /book (\S+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'book', input: { who: m![1]! } }] }) }],
  onToolResult: (_name, result) => `done: ${JSON.stringify(result)}`,
  fallback: 'ok',
})
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })

async function post(handler: ChatHandler, body: ChatRequestBody, client = 'c'): Promise<ChatStreamEvent[]> {
  const response = await handler(
    new Request('http://127.0.0.1/api/chat', { method: 'POST', headers: { 'content-type': 'application/json', 'x-client': client }, body: JSON.stringify(body) }),
  )
  const events: ChatStreamEvent[] = []
  for await (const e of readChatEvents(response.body!)) events.push(e)
  return events
}
const find = <T extends ChatStreamEvent['type']>(events: readonly ChatStreamEvent[], type: T) => events.findLast((e): e is Extract<ChatStreamEvent, { type: T }> => e.type === type)

/** Start a booking for `who`; returns the answer that accepts it. */
async function ask(handler: ChatHandler, who: string, client = 'c') {
  const events = await post(handler, { messages: [user(`book ${who}`)] }, client)
  const call = find(events, 'tool_call')!
  const question = find(events, 'elicit_request')
  const answer = (ok = true): ChatRequestBody => ({
    messages: find(events, 'conversation_state')?.messages ?? [],
    elicitResponses: [{ callId: call.callId, elicitId: question!.request.id, token: call.token!, result: { action: 'accept', content: { ok } } }],
  })
  return { events, call, question, answer }
}

function setup(limits: Parameters<typeof createChatHandler>[0]['limits'] = {}) {
  log.length = 0
  const clock = createTestClock()
  const store = createMemoryStore({ clock })
  const handler = createChatHandler({ tools: [book], model, store, clock, limits, clientKey: (r) => r.headers.get('x-client') ?? '?' })
  return { handler, store, clock }
}

describe('parked calls past warmCalls', () => {
  it('are let go of from memory (their finally runs) and replay from the journal when answered, without running a step again', async () => {
    const { handler } = setup({ warmCalls: 2 })
    const asked = []
    for (const who of ['ann', 'ben', 'cat', 'dan', 'eve']) asked.push(await ask(handler, who))
    for (const a of asked) expect(a.question).toBeDefined()
    // Two generators stay; the three longest-waiting were let go of, their finally ran.
    expect(handler.calls.size).toBe(2)
    expect(
      handler.calls
        .list()
        .map((c) => c.callId)
        .sort(),
    ).toEqual([asked[3]!.call.callId, asked[4]!.call.callId].sort())
    expect(log.filter((l) => l.startsWith('finally'))).toEqual(['finally ann', 'finally ben', 'finally cat'])
    // Answering a let-go call replays it: the reserve step is not run again.
    const done = await post(handler, asked[0]!.answer())
    expect(find(done, 'tool_result')).toMatchObject({ result: { booked: true, fare: 'F-ann' } })
    expect(log.filter((l) => l === 'reserve ann')).toHaveLength(1)
    // A warm one is answered from memory (and its step not run again either).
    expect(find(await post(handler, asked[4]!.answer(false)), 'tool_result')).toMatchObject({ result: { booked: false, fare: 'F-eve' } })
    expect(log.filter((l) => l.startsWith('reserve'))).toHaveLength(5)
    // The answered call's record says how it ended; a second answer finds it finished.
    expect(find(await post(handler, asked[0]!.answer()), 'call_not_found')?.message).toMatch(/already finished: it completed/)
    await handler.close()
  })

  it('with warmCalls 0 keeps no generator at all while calls wait', async () => {
    const { handler } = setup({ warmCalls: 0 })
    const asked = [await ask(handler, 'fay'), await ask(handler, 'gus')]
    expect(handler.calls.size).toBe(0)
    for (const a of asked) expect(find(await post(handler, a.answer()), 'tool_result')).toMatchObject({ result: { booked: true } })
    expect(log.filter((l) => l.startsWith('reserve'))).toEqual(['reserve fay', 'reserve gus'])
    await handler.close()
  })

  it('never refuse an answer for this process’s capacity: only new calls count against the limits', async () => {
    const { handler } = setup({ warmCalls: 1, maxActiveCalls: 3, maxCallsPerClient: 3 })
    const asked = [await ask(handler, 'hal'), await ask(handler, 'ivy'), await ask(handler, 'jon')]
    // Full: a fourth call of the same client is refused, clearly (its share shrank as the server filled).
    const refused = await post(handler, { messages: [user('book kim')] })
    expect(find(refused, 'tool_result')).toMatchObject({
      isError: true,
      result: expect.stringMatching(
        /You hold 3 tool calls on this server; while it is 100 % full each client may hold 1 \(limits\.maxCallsPerClient is 3 while it is at most half full\)\. Answer or cancel some first\./,
      ),
    })
    // Every waiting call is answered, warm or not, and each answer frees its place.
    for (const a of asked) expect(find(await post(handler, a.answer()), 'tool_result')).toMatchObject({ result: { booked: true } })
    expect(find(await post(handler, { messages: [user('book kim')] }), 'elicit_request')).toBeDefined()
    await handler.close()
  })

  it('time out by their record: an answer after idleTimeoutMs is refused as finished, and the record says why', async () => {
    const { handler, store, clock } = setup({ warmCalls: 0, idleTimeoutMs: 60_000 })
    const a = await ask(handler, 'lea')
    await clock.advance(59_000)
    const b = await ask(handler, 'max')
    await clock.advance(2_000)
    // lea's deadline passed (nothing in memory timed her out); max still has time.
    expect(find(await post(handler, a.answer()), 'call_not_found')?.message).toMatch(/already finished: it was aborted: no answer came within 60 s \(limits\.idleTimeoutMs\)/)
    expect((await store.get(a.call.callId))?.outcome).toEqual({ status: 'aborted', reason: 'no answer came within 60 s (limits.idleTimeoutMs)' })
    expect(find(await post(handler, b.answer()), 'tool_result')).toMatchObject({ result: { booked: true } })
    // A timed-out call is no longer held: it does not count against its client.
    expect(await store.admit({ callId: 'probe', client: 'c', until: clock.now() + 1 }, { perClient: 1, total: 10 })).toEqual({ admitted: true })
    await handler.close()
  })
})

describe('an instance full of waiting calls', () => {
  it("shares the limits with every instance on the store: a client's calls on one count on the other", async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const limits = { maxCallsPerClient: 2, warmCalls: 0 }
    const clientKey = (r: Request) => r.headers.get('x-client') ?? '?'
    const [a, b] = [0, 1].map(() => createChatHandler({ tools: [book], model, store, clock, limits, clientKey }))
    log.length = 0
    const first = await ask(a!, 'nia', 'mo')
    await ask(b!, 'oli', 'mo')
    expect(find(await post(a!, { messages: [user('book pat')] }, 'mo'), 'tool_result')).toMatchObject({
      isError: true,
      result: expect.stringMatching(/You already hold 2 tool calls/),
    })
    expect(find(await post(b!, { messages: [user('book pat')] }, 'someone-else'), 'elicit_request')).toBeDefined()
    // Answered on the other instance, the call frees its client's place on both.
    expect(find(await post(b!, first.answer()), 'tool_result')).toMatchObject({ result: { booked: true, fare: 'F-nia' } })
    expect(find(await post(a!, { messages: [user('book pat')] }, 'mo'), 'elicit_request')).toBeDefined()
    await a!.close()
    await b!.close()
  })
})

describe.each(GENERATIONS)('MCP calls let go of from memory (%s)', (generation) => {
  it('complete every round with warmCalls 0, two clients at once', async () => {
    const server = createMcpServer({ name: 's', version: '1', tools: [bookFlight], secret: 'a-test-secret-of-at-least-32-bytes!!', limits: { warmCalls: 0 } })
    const [x, y] = await Promise.all([connectClient(server, generation), connectClient(server, generation)])
    try {
      x.elicitAnswers.push(accept({ flightId: 'SH-142' }), accept({ row: 1, seat: 'B' }))
      y.elicitAnswers.push(accept({ flightId: 'CA-287' }), accept({ row: 30, seat: 'D' }))
      x.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'tip X' }, model: 'm' }))
      y.sampleAnswers.push(() => ({ role: 'assistant', content: { type: 'text', text: 'tip Y' }, model: 'm' }))
      const [rx, ry] = await Promise.all([x.call('book_flight', { from: 'OSL', destination: 'BER' }), y.call('book_flight', { from: 'NYC', destination: 'LAX' })])
      expect(rx.structuredContent).toMatchObject({ ticketNumber: 'TK-SH-142-1B', tip: 'tip X' })
      expect(ry.structuredContent).toMatchObject({ ticketNumber: 'TK-CA-287-30D', tip: 'tip Y' })
    } finally {
      await x.close()
      await y.close()
      await server.close()
    }
  }, 30_000)
})
