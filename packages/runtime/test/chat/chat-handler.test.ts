/**
 * The chat handler over real HTTP (Node `http` on 127.0.0.1), with the scripted model.
 * No sleeps: every step waits on a response.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { withResolvers } from 'effection'
import { z } from 'zod'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { type ChatHandler, type ChatModel, createChatHandler, toNodeListener } from '../../src/server.ts'
import { type ChatRequestBody, type ChatStreamEvent, type ElicitResultWire, readChatEvents } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'
import { bookFlight } from '../fixtures/book-flight.ts'
import { longReport } from '../fixtures/long-report.ts'
import { until } from '../support/until.ts'

const cleanupLog: string[] = []
const slowTool = createMcpTool('hold')
  .elicits({ go: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    try {
      return yield* ctx.elicit('go', { message: 'Go?', blob: 'x' })
    } finally {
      cleanupLog.push('hold finally')
    }
  })
const report = longReport(() => cleanupLog.push('long_report finally'))
const bigContext = createMcpTool('big_context')
  .elicits({ go: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    return yield* ctx.elicit('go', { message: 'Go?', blob: 'x'.repeat(10_000) })
  })

const model = createScriptedModel({
  onUserMessage: [
    {
      match: /book a flight from (\w+) to (\w+)/i,
      reply: (_t, m) => ({ text: 'Searching flights. ', toolCalls: [{ name: 'book_flight', input: { from: m![1]!, destination: m![2]! } }] }),
    },
    { match: /hold/, reply: { toolCalls: [{ name: 'hold', input: {} }] } },
    { match: /big/, reply: { toolCalls: [{ name: 'big_context', input: {} }] } },
    { match: /report/, reply: { toolCalls: [{ name: 'long_report', input: {} }] } },
    { match: /ghost/, reply: { toolCalls: [{ name: 'no_such_tool', input: {} }] } },
  ],
  onToolResult: (name, result, isError) => (isError ? `${name} failed: ${String(result)}` : `${name} done: ${JSON.stringify(result)}`),
  onSample: () => 'Arrive two hours early.',
  fallback: 'Hello from the demo model.',
})

const servers: Array<{ server: Server; handler: ChatHandler }> = []
afterEach(async () => {
  for (const { server, handler } of servers.splice(0)) {
    await handler.close()
    await new Promise((r) => server.close(r))
  }
})

async function start(options: Partial<Parameters<typeof createChatHandler>[0]> = {}) {
  const handler = createChatHandler({ tools: [bookFlight, slowTool, bigContext, report], model, ...options })
  const server = createServer(toNodeListener(handler))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  servers.push({ server, handler })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`
  async function post(body: ChatRequestBody): Promise<ChatStreamEvent[]> {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/x-ndjson')
    const events: ChatStreamEvent[] = []
    for await (const e of readChatEvents(res.body!)) events.push(e)
    return events
  }
  /** The events of a response as they arrive. */
  async function* open(body: ChatRequestBody): AsyncGenerator<ChatStreamEvent> {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    yield* readChatEvents(res.body!)
  }
  return { handler, url, post, open }
}

const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })
const ofType = <T extends ChatStreamEvent['type']>(events: ChatStreamEvent[], type: T) => events.filter((e): e is Extract<ChatStreamEvent, { type: T }> => e.type === type)
const one = <T extends ChatStreamEvent['type']>(events: ChatStreamEvent[], type: T) => {
  const found = ofType(events, type)
  expect(found, `exactly one ${type} in ${JSON.stringify(events.map((e) => e.type))}`).toHaveLength(1)
  return found[0]!
}
const stateOf = (events: ChatStreamEvent[]) => one(events, 'conversation_state').messages

type Question = Extract<ChatStreamEvent, { type: 'elicit_request' }> & { token: string }

/** The question a response ends on, with the token of its call (from this response or an earlier one). */
function question(events: ChatStreamEvent[], earlier?: Question): Question {
  const asked = one(events, 'elicit_request')
  const token = ofType(events, 'tool_call').find((c) => c.callId === asked.callId)?.token ?? earlier?.token
  expect(token, 'a token for the call').toBeTypeOf('string')
  return { ...asked, token: token! }
}

function answer(q: Question, messages: McpMessage[], result: ElicitResultWire, token = q.token): ChatRequestBody {
  return { messages, elicitResponses: [{ callId: q.callId, elicitId: q.request.id, token, result }] }
}

describe('createChatHandler over HTTP', () => {
  it('a message sent while a question is open is not taken, and the client is told (QUESTION_PENDING); the question stays answerable', async () => {
    const { post } = await start()
    const first = await post({ messages: [user('Book a flight from NYC to LAX')] })
    const pickFlight = question(first)
    const early = await post({ messages: [...stateOf(first), user('Actually, what is the weather?')] })
    expect(early.map((e) => e.type)).toEqual(['error', 'conversation_state'])
    expect(one(early, 'error')).toMatchObject({ code: 'QUESTION_PENDING', message: expect.stringMatching(/waiting for your answer .*answer or cancel it/) })
    expect(stateOf(early)).toEqual(stateOf(first)) // nothing was added
    const next = await post(answer(pickFlight, stateOf(early), { action: 'accept', content: { flightId: 'SH-142' } }))
    expect(one(next, 'elicit_request').request.key).toBe('pickSeat')
  })

  it('runs book_flight across three requests: flight list, seat picker, confirmation', async () => {
    const { post, handler } = await start()
    const first = await post({ messages: [user('Book a flight from NYC to LAX')] })
    expect(first.map((e) => e.type)).toEqual(['text_delta', 'tool_call', 'tool_log', 'elicit_request', 'conversation_state'])
    const pickFlight = question(first)
    expect(pickFlight).toMatchObject({ toolName: 'book_flight', request: { id: `${pickFlight.callId}#1`, key: 'pickFlight', message: 'Select your flight' } })
    expect(pickFlight.request.params).toEqual({ from: 'NYC', destination: 'LAX' })
    // The context travels once, as data beside the plain requested schema.
    expect(pickFlight.request.context).toMatchObject({ flights: [{ id: 'SH-142' }, { id: 'CA-287' }] })
    expect(pickFlight.request.schema).toEqual(bookFlight.compiled.pickFlight!.wire)
    expect(JSON.stringify(first).match(/SH-142/g)).toHaveLength(1)
    expect(pickFlight.token).toMatch(/^[\w-]{20,}$/)
    expect(handler.calls.list()).toMatchObject([{ callId: pickFlight.callId, status: 'awaiting_elicit', pendingKey: 'pickFlight' }])

    const second = await post(answer(pickFlight, stateOf(first), { action: 'accept', content: { flightId: 'CA-287' } }))
    const pickSeat = question(second, pickFlight)
    expect(pickSeat).toMatchObject({ request: { id: `${pickFlight.callId}#2`, key: 'pickSeat', context: { taken: ['1A', '2C'] } } })

    const third = await post(answer(pickSeat, stateOf(second), { action: 'accept', content: { row: 12, seat: 'C' } }))
    const types = third.map((e) => e.type)
    expect(types.filter((t) => t !== 'text_delta')).toEqual(['elicit_answered', 'tool_progress', 'tool_progress', 'tool_result', 'conversation_state'])
    // The answer, in one line for the tool card once the seat picker is gone.
    expect(one(third, 'elicit_answered')).toEqual({
      type: 'elicit_answered',
      callId: pickSeat.callId,
      elicitId: pickSeat.request.id,
      key: 'pickSeat',
      action: 'accept',
      summary: 'Row: 12 · Seat: C',
    })
    expect(types.indexOf('text_delta')).toBeGreaterThan(types.indexOf('tool_result'))
    const result = one(third, 'tool_result')
    expect(result.result).toMatchObject({ booked: true, ticketNumber: 'TK-CA-287-12C', seat: '12C', price: 349, tip: 'Arrive two hours early.' })
    const text = ofType(third, 'text_delta')
      .map((e) => e.text)
      .join('')
    expect(text).toMatch(/^book_flight done: .*TK-CA-287-12C/)
    const conversation = stateOf(third)
    expect(conversation.map((m) => [m.role, m.content.map((b) => b.type).join('+')])).toEqual([
      ['user', 'text'],
      ['assistant', 'text+tool_use'],
      ['user', 'tool_result'],
      ['assistant', 'text'],
    ])
    expect(handler.calls.size).toBe(0)
  })

  it.each(['decline', 'cancel'] as const)('handles %s: the tool decides, the model hears the result', async (action) => {
    const { post } = await start()
    const first = await post({ messages: [user('book a flight from A to B')] })
    const next = await post(answer(question(first), stateOf(first), { action }))
    expect(one(next, 'tool_result').result).toEqual({ booked: false, reason: action })
  })

  it('refuses invalid content with the issues, keeps the elicitation open, then accepts the correction', async () => {
    const { post } = await start()
    const first = await post({ messages: [user('book a flight from A to B')] })
    const pick = question(first)
    const bad = await post(answer(pick, stateOf(first), { action: 'accept', content: { flightId: 7 } }))
    expect(one(bad, 'elicit_refused')).toMatchObject({ code: 'INVALID_CONTENT', callId: pick.callId, elicitId: pick.request.id, issues: [{ path: 'flightId' }] })
    expect(ofType(bad, 'elicit_request')).toEqual([])
    const good = await post(answer(pick, stateOf(first), { action: 'accept', content: { flightId: 'SH-142' } }))
    expect(one(good, 'elicit_request').request.key).toBe('pickSeat')
  })

  it('refuses a wrong or stale token/elicit id and resumes nothing', async () => {
    const { post, handler } = await start()
    const first = await post({ messages: [user('book a flight from A to B')] })
    const pick = question(first)
    const wrong = await post(answer(pick, stateOf(first), { action: 'accept', content: { flightId: 'SH-142' } }, 'forged-token-000000000000'))
    expect(one(wrong, 'elicit_refused')).toMatchObject({ code: 'WRONG_TOKEN' })
    const stale = await post(answer({ ...pick, request: { ...pick.request, id: `${pick.callId}#9` } }, stateOf(first), { action: 'decline' }))
    expect(one(stale, 'elicit_refused')).toMatchObject({ code: 'ID_MISMATCH' })
    expect(handler.calls.list()[0]).toMatchObject({ status: 'awaiting_elicit', pendingKey: 'pickFlight' })
  })

  it('an answer re-sent after its response was lost is refused with the question the call waits on now', async () => {
    const { post } = await start()
    const first = await post({ messages: [user('book a flight from A to B')] })
    const pick = question(first)
    const picked = await post(answer(pick, stateOf(first), { action: 'accept', content: { flightId: 'SH-142' } }))
    const seat = question(picked, pick)
    // The client never saw `picked` (its response was lost) and sends the same answer again.
    const retried = await post(answer(pick, stateOf(first), { action: 'accept', content: { flightId: 'SH-142' } }))
    const refused = one(retried, 'elicit_refused')
    expect(refused).toMatchObject({ code: 'ID_MISMATCH', elicitId: pick.request.id, current: { id: seat.request.id, key: seat.request.key } })
    // With it, the client answers the question that is open now, and the call goes on.
    const done = await post(answer({ ...pick, request: refused.current! }, stateOf(picked), { action: 'accept', content: { row: 12, seat: 'C' } }))
    expect(ofType(done, 'elicit_refused')).toEqual([])
  })

  it('aborts a call mid-elicitation with its token: the tool finally runs, it ends cancelled, and the model is not asked to go on (it reads why next turn)', async () => {
    cleanupLog.length = 0
    const { post, handler } = await start()
    const first = await post({ messages: [user('hold')] })
    const req = question(first)
    const forged = await post({ messages: stateOf(first), abort: { callId: req.callId, token: 'forged-token-000000000000' } })
    expect(one(forged, 'error')).toMatchObject({ code: 'WRONG_TOKEN' })
    expect(cleanupLog).toEqual([])
    expect(handler.calls.size).toBe(1)
    const aborted = await post({ messages: stateOf(first), abort: { callId: req.callId, token: req.token, reason: 'user left' } })
    expect(cleanupLog).toEqual(['hold finally'])
    expect(one(aborted, 'tool_result')).toMatchObject({ callId: req.callId, isError: true, cancelled: true, result: 'The tool call was cancelled: user left.' })
    // Stop means stop: no reply about it (no apology); the result is in the conversation for the next turn.
    expect(ofType(aborted, 'text_delta')).toEqual([])
    const kept = stateOf(aborted)
    expect(kept.at(-1)).toMatchObject({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: req.callId, isError: true, content: [{ text: 'The tool call was cancelled: user left.' }] }],
    })
    expect(handler.calls.size).toBe(0)
  })

  it('aborts a call another response is running: its finally runs, nothing after the abort is reported, that response ends it', async () => {
    cleanupLog.length = 0
    const { open, post, handler } = await start()
    const events: ChatStreamEvent[] = []
    let aborted: ChatStreamEvent[] | undefined
    for await (const event of open({ messages: [user('report')] })) {
      events.push(event)
      if (event.type === 'tool_progress' && !aborted) {
        const call = one(events, 'tool_call')
        aborted = await post({ messages: [user('report')], abort: { callId: call.callId, token: call.token! } })
      }
    }
    expect(aborted?.map((e) => e.type)).toEqual(['call_aborted'])
    expect(cleanupLog).toEqual(['long_report finally'])
    expect(ofType(events, 'tool_progress').map((e) => e.message)).toEqual(['step 1'])
    expect(one(events, 'tool_result')).toMatchObject({ isError: true, cancelled: true, result: 'The tool call was cancelled: the user stopped it.' })
    // The response that ran it ends there: the model is not asked to say anything about the stop.
    expect(ofType(events.slice(events.findIndex((e) => e.type === 'tool_result')), 'text_delta')).toEqual([])
    expect(events.at(-1)?.type).toBe('conversation_state')
    expect(handler.calls.size).toBe(0)
  }, 20_000)

  it('stops the turn when the client disconnects: no tool is started after it and the model is not called again', async () => {
    const gate = withResolvers<void>()
    const started: string[] = []
    const gated = createMcpTool('gated')
      .elicits({})
      .execute(function* () {
        started.push('gated')
        yield* gate.operation
        return 'done'
      })
    const counted = createMcpTool('counted')
      .elicits({})
      .execute(function* () {
        started.push('counted')
        return 'counted'
      })
    let turnSignal: AbortSignal | undefined
    let modelCalls = 0
    const twoTools: ChatModel = {
      id: 'two-tools',
      async *stream(_request, signal) {
        modelCalls += 1
        turnSignal = signal
        yield { type: 'tool-call', id: 'call_gated', name: 'gated', input: {} }
        yield { type: 'tool-call', id: 'call_counted', name: 'counted', input: {} }
      },
    }
    const { url, handler } = await start({ tools: [gated, counted], model: twoTools })
    const client = new AbortController()
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: [user('go')] }), signal: client.signal })
    const events = readChatEvents(res.body!)
    for (let e = await events.next(); !e.done && e.value.type !== 'tool_call'; e = await events.next());
    client.abort()
    await until(() => turnSignal?.aborted === true) // the server noticed the client left
    gate.resolve()
    await until(() => handler.calls.size === 0) // the gated call finished
    // What would go wrong happens right after (the next tool would start); give it time to show.
    await new Promise((r) => setTimeout(r, 300))
    expect(started).toEqual(['gated'])
    expect(modelCalls).toBe(1)
  }, 20_000)

  it('reports an unknown call (e.g. after a restart) and adds a synthetic tool error so the model recovers', async () => {
    const before = await start()
    const first = await before.post({ messages: [user('book a flight from A to B')] })
    const pick = question(first)
    const after = await start() // a new handler: a restarted server holding no calls
    const lost = await after.post(answer(pick, stateOf(first), { action: 'accept', content: { flightId: 'SH-142' } }))
    const message = 'This tool call is no longer running (it ended, expired, or the server restarted). Please retry the operation.'
    expect(one(lost, 'call_not_found')).toMatchObject({ callId: pick.callId, message })
    const conversation = stateOf(lost)
    expect(conversation[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', toolUseId: pick.callId, isError: true, content: [{ type: 'text', text: `Error: ${message}` }] }],
    })
    expect(
      ofType(lost, 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toMatch(/book_flight failed: Error: This tool call is no longer running/)
  })

  it('answers bad requests with a clear 4xx and keeps serving', async () => {
    const { url, post } = await start({ limits: { maxBodyBytes: 2_000 } })
    const send = (body: string, type = 'application/json') => fetch(url, { method: 'POST', headers: { 'content-type': type }, body })
    const malformed = await send(JSON.stringify({ messages: [{ role: 'robot', content: 'hi' }] }))
    expect(malformed.status).toBe(400)
    const problem = (await malformed.json()) as { code: string; message: string; issues: Array<{ path: string }> }
    expect(problem.code).toBe('INVALID_BODY')
    expect(problem.issues.map((i) => i.path)).toEqual(['messages.0.role', 'messages.0.content'])
    const notJson = await send('{"messages": [')
    expect([notJson.status, ((await notJson.json()) as { code: string }).code]).toEqual([400, 'INVALID_JSON'])
    const big = await send(JSON.stringify({ messages: [user('x'.repeat(5_000))] }))
    expect([big.status, ((await big.json()) as { message: string }).message]).toEqual([413, 'The request body is larger than 2000 bytes (limits.maxBodyBytes).'])
    const text = await send('hello', 'text/plain')
    expect([text.status, ((await text.json()) as { code: string }).code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE'])
    // GET restores a conversation, and says what it needs.
    const bare = await fetch(url)
    expect([bare.status, ((await bare.json()) as { code: string }).code]).toEqual([400, 'CONVERSATION_ID_MISSING'])
    expect((await fetch(url, { method: 'PUT' })).status).toBe(405)
    // Methods the Fetch API cannot even represent are refused by the Node adapter, not crashed on.
    expect(await rawStatus(url, 'TRACE')).toBe(405)
    // DELETE deletes a conversation, and (like GET) says what it needs.
    expect(await rawStatus(url, 'DELETE')).toBe(400)
    expect(
      ofType(await post({ messages: [user('hi')] }), 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Hello from the demo model.')
  })

  it('ends with conversation_state even when the model fails mid-stream, after an error event with a code and a sentence (the upstream text goes to the log)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const failing: ChatModel = {
      id: 'failing',
      async *stream() {
        yield { type: 'text-delta', text: 'Thinking' }
        throw new Error('upstream 502 from the model provider')
      },
    }
    const { post } = await start({ model: failing })
    const events = await post({ messages: [user('hi')] })
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error', 'conversation_state'])
    expect(one(events, 'error')).toEqual({ type: 'error', code: 'INTERNAL_ERROR', message: 'Something went wrong on the server. Try again in a moment.' })
    expect(JSON.stringify(events)).not.toContain('upstream 502')
    expect(String(logged.mock.calls.flat().join(' '))).toContain('upstream 502 from the model provider')
    logged.mockRestore()
    expect(stateOf(events)).toEqual([user('hi')])
  })

  it('bounds the work a body can ask for: nesting depth and the number of answers', async () => {
    const { url, post } = await start()
    const send = (body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    // 5,000 levels of nesting in a tool input: refused before anything recursive sees it.
    const deep = '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000)
    const nested = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":${deep}}]}]}`,
    })
    expect([nested.status, ((await nested.json()) as { code: string }).code]).toEqual([400, 'BODY_TOO_DEEP'])
    // 9,000 answers for calls nobody holds: refused as a whole, not worked through one by one.
    const answers = Array.from({ length: 9_000 }, (_, i) => ({ callId: `c${i}`, elicitId: `c${i}#1`, token: 'x', result: { action: 'decline' } }))
    const many = await send({ messages: [user('hi')], elicitResponses: answers })
    const problem = (await many.json()) as { code: string; issues: Array<{ path: string; message: string }> }
    expect([many.status, problem.code, problem.issues[0]?.path]).toEqual([400, 'INVALID_BODY', 'elicitResponses'])
    expect(ofType(await post({ messages: [user('hi')] }), 'text_delta').length).toBeGreaterThan(0)
  })

  it.each([
    ['another Host (DNS rebinding)', {}, { host: 'evil.example' }, 403],
    ['a page of another origin', {}, { host: '127.0.0.1:5173', origin: 'http://evil.example' }, 403],
    ['a host not in allowedHosts', { allowedHosts: ['chat.example.com'] }, { host: 'localhost:5173' }, 403],
    ['no Origin (not a browser)', {}, { host: '127.0.0.1:5173' }, 200],
    ['its own origin', {}, { host: '127.0.0.1:5173', origin: 'http://127.0.0.1:5173' }, 200],
    ['a loopback origin', {}, { host: '127.0.0.1:5173', origin: 'http://localhost:3000' }, 200],
    ['its deployed name, listed', { allowedHosts: ['chat.example.com'] }, { host: 'chat.example.com', origin: 'https://chat.example.com' }, 200],
    ['a listed origin', { allowedOrigins: ['https://app.example.com'] }, { host: '127.0.0.1:5173', origin: 'https://app.example.com' }, 200],
  ] as const)('checks Host and Origin by default: %s → %i', async (_what, options, headers, status) => {
    const handler = createChatHandler({ tools: [bookFlight], model, ...options })
    const res = await handler(
      new Request('http://127.0.0.1:5173/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ messages: [user('hi')] }),
      }),
    )
    expect(res.status).toBe(status)
    if (status === 403) expect(((await res.json()) as { code: string; message: string }).message).toMatch(/allowed(Hosts|Origins)/)
    else await res.text()
    await handler.close()
  })

  it('refuses bad options up front, naming each', () => {
    expect(() => createChatHandler({ tools: [bookFlight], model, allowedHosts: 'localhost' as never })).toThrow(/createChatHandler: allowedHosts/)
    expect(() => createChatHandler({ tools: [bookFlight], model, limits: { idleTimeoutMs: Number.NaN } })).toThrow(/limits\.idleTimeoutMs: /)
    expect(() => createChatHandler({ tools: [bookFlight], model, limits: { idleTimeoutMs: 2 ** 31 } })).toThrow(/idleTimeoutMs/)
    expect(() => createChatHandler({ tools: [bookFlight], model, limits: { maxActiveCalls: Number.POSITIVE_INFINITY } })).toThrow(/maxActiveCalls/)
    expect(() => createChatHandler({ tools: [bookFlight], model, limits: { idleTimeoutMs: '30m' as never } })).toThrow(/idleTimeoutMs/)
    expect(() => createChatHandler({ tools: [bookFlight], model, limits: { maxActiveSessions: 5 } as never })).toThrow(/Unrecognized key: "maxActiveSessions"/)
    expect(() => createChatHandler({ tools: [bookFlight], model, port: 3000 } as never)).toThrow(/Unrecognized key: "port"/)
    expect(() => createChatHandler({ tools: [bookFlight], model: {} as never })).toThrow(/takes a ChatModel/)
  })

  it('reports an unknown tool to the model as a tool error', async () => {
    const { post } = await start()
    const events = await post({ messages: [user('ghost')] })
    expect(one(events, 'tool_result')).toMatchObject({ toolName: 'no_such_tool', isError: true })
  })

  it('enforces maxActiveCalls and maxContextBytes without touching existing calls', async () => {
    const { post, handler } = await start({ limits: { maxActiveCalls: 1, maxContextBytes: 1_024 } })
    const first = await post({ messages: [user('hold')] })
    const held = question(first)
    const refused = await post({ messages: [user('hold')] })
    expect(one(refused, 'tool_result')).toMatchObject({ isError: true, result: expect.stringMatching(/already holds 1 tool calls.*limits\.maxActiveCalls/) })
    expect(handler.calls.list()).toMatchObject([{ callId: held.callId, status: 'awaiting_elicit' }])
    await handler.calls.get(held.callId)!.host.abort()
    const big = await post({ messages: [user('big')] })
    expect(one(big, 'tool_result')).toMatchObject({ isError: true, result: expect.stringMatching(/context of "go" is \d+ bytes \(limit 1024: limits.maxContextBytes\)/) })
  })

  it('limits the calls one client may hold (default key: the remote address), leaving room for the others', async () => {
    const { post, handler } = await start({ limits: { maxCallsPerClient: 2 } })
    for (let i = 0; i < 2; i++) one(await post({ messages: [user('hold')] }), 'elicit_request')
    const third = await post({ messages: [user('hold')] })
    expect(one(third, 'tool_result')).toMatchObject({ isError: true, result: expect.stringMatching(/You already hold 2 tool calls on this server \(limits\.maxCallsPerClient\)/) })
    expect(new Set(handler.calls.list().map((c) => c.client))).toEqual(new Set([expect.stringMatching(/127\.0\.0\.1/)]))

    // Another client, told apart by a key of the app's own, still gets its call.
    const keyed = await start({ limits: { maxCallsPerClient: 2 }, clientKey: (request) => request.headers.get('x-user') ?? 'anonymous' })
    const as = (who: string) =>
      fetch(keyed.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': who }, body: JSON.stringify({ messages: [user('hold')] }) }).then((r) => r.text())
    await as('mallory')
    await as('mallory')
    expect(await as('mallory')).toMatch(/You already hold 2 tool calls/)
    expect(await as('alice')).toMatch(/"type":"elicit_request"/)
    expect(
      keyed.handler.calls
        .list()
        .map((c) => c.client)
        .sort(),
    ).toEqual(['alice', 'mallory', 'mallory'])
  })

  it('keeps two conversations apart', async () => {
    const { post } = await start()
    const [a, b] = await Promise.all([post({ messages: [user('book a flight from OSL to BER')] }), post({ messages: [user('book a flight from NYC to SFO')] })])
    const reqA = question(a)
    const reqB = question(b)
    expect(reqA.callId).not.toBe(reqB.callId)
    expect(JSON.stringify(a)).not.toContain('NYC')
    expect(JSON.stringify(b)).not.toContain('OSL')
    const [a2, b2] = await Promise.all([
      post(answer(reqA, stateOf(a), { action: 'accept', content: { flightId: 'SH-142' } })),
      post(answer(reqB, stateOf(b), { action: 'decline' })),
    ])
    expect(one(a2, 'elicit_request').callId).toBe(reqA.callId)
    expect(one(b2, 'tool_result')).toMatchObject({ callId: reqB.callId, result: { booked: false } })
  })

  it('resumes 200 concurrently suspended calls correctly', async () => {
    // Every request of this test comes from one address: let it hold them all.
    const { post, handler } = await start({ limits: { maxCallsPerClient: 200 } })
    const firsts = await Promise.all(Array.from({ length: 200 }, (_, i) => post({ messages: [user(`book a flight from C${i} to D${i}`)] })))
    expect(handler.calls.size).toBe(200)
    const asked = firsts.map((events) => question(events))
    const seconds = await Promise.all(firsts.map((events, i) => post(answer(asked[i]!, stateOf(events), { action: 'accept', content: { flightId: i % 2 ? 'SH-142' : 'CA-287' } }))))
    const thirds = await Promise.all(
      seconds.map((events, i) => post(answer(question(events, asked[i]), stateOf(events), { action: 'accept', content: { row: (i % 30) + 1, seat: 'B' } }))),
    )
    thirds.forEach((events, i) => {
      const result = one(events, 'tool_result').result as { flight: string; seat: string }
      expect(result.flight).toBe(i % 2 ? 'SH-142' : 'CA-287')
      expect(result.seat).toBe(`${(i % 30) + 1}B`)
      expect(JSON.stringify(stateOf(events)[0])).toContain(`C${i} to D${i}`)
    })
    expect(handler.calls.size).toBe(0)
  }, 60_000)
})

/** The status of a request fetch() refuses to send (TRACE), through Node's http client. */
function rawStatus(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}
