import { getEventListeners } from 'node:events'
import { spawn, suspend, withResolvers, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type ElicitRequest, type SamplingProvider, type SamplingRequest, type SamplingResponse, SCHEMA_TOOL_NAME } from '../../src/index.ts'
import {
  ConcurrentElicitationError,
  ElicitationCancelledError,
  ElicitationDeclinedError,
  ElicitInBranchError,
  JournalDivergenceError,
  SamplingSchemaError,
  ToolParamsError,
  UnsupportedElicitationModeError,
} from '../../src/errors.ts'
import { type BridgeHost, type BridgeOutcome, createBridgeHost } from '../../src/server.ts'
import { createMockMcpClient } from '../../src/testing.ts'
import { bookFlight } from '../fixtures/book-flight.ts'

const confirm = z.object({ ok: z.boolean() })

function errorOf(outcome: BridgeOutcome<unknown>): Error {
  if (outcome.status !== 'failed') throw new Error(`expected the call to fail, it ${outcome.status}`)
  return outcome.error
}

/** Wait until the host is suspended on an elicitation (no sleeps: driven by its event log). */
async function nextElicit(host: BridgeHost<unknown>): Promise<ElicitRequest> {
  for await (const event of host.subscribe()) {
    if (event.type === 'elicit' && host.pending() === event.request) return event.request
  }
  throw new Error(`the call ended without eliciting (${host.status()})`)
}

function scriptedModel(replies: Array<SamplingResponse | string>): SamplingProvider & { requests: SamplingRequest[] } {
  const requests: SamplingRequest[] = []
  return {
    requests,
    *createMessage(request): Operation<SamplingResponse> {
      requests.push(request)
      const reply = replies.shift()
      if (reply === undefined) throw new Error('script exhausted')
      return typeof reply === 'string' ? { role: 'assistant', content: [{ type: 'text', text: reply }] } : reply
    },
  }
}

describe('createBridgeHost: parameters', () => {
  it('refuses bad params with every issue by path; the tool never runs', async () => {
    let ran = false
    const tool = createMcpTool('typed')
      .parameters(z.object({ from: z.string(), count: z.int().min(1), nested: z.object({ ok: z.boolean() }) }))
      .elicits({})
      .execute(function* () {
        ran = true
        return 1
      })
    const host = createBridgeHost({ tool, params: { from: 3, count: 0, nested: {} }, callId: 'c1' })
    const outcome = await host.outcome
    expect(ran).toBe(false)
    expect(outcome.status).toBe('failed')
    const error = errorOf(outcome) as ToolParamsError
    expect(error).toBeInstanceOf(ToolParamsError)
    expect(error.issues.map((i) => i.path)).toEqual(['from', 'count', 'nested.ok'])
    expect(error.message).toMatch(/Invalid parameters for tool "typed"; the tool did not run/)
  })
})

describe('createBridgeHost: elicit', () => {
  it('emits a complete ElicitRequest and resumes with the validated, typed answer', async () => {
    const host = createBridgeHost({ tool: bookFlight, params: { from: 'NYC', destination: 'LAX' }, callId: 'call_7' })
    const request = await nextElicit(host)
    expect(host.status()).toBe('awaiting_elicit')
    expect(Object.keys(request).sort()).toEqual(['context', 'handoff', 'id', 'key', 'message', 'params', 'schema'])
    expect(request).toMatchObject({ id: 'call_7#1', key: 'pickFlight', handoff: undefined })
    expect(request.message).toBe('Select your flight')
    expect(request.params).toEqual({ from: 'NYC', destination: 'LAX' })
    expect(request.context).toMatchObject({ flights: [{ id: 'SH-142' }, { id: 'CA-287' }] })
    // The key's compiled model, by reference: the context travels beside the schema, not inside it.
    expect(request.schema.json).toBe(bookFlight.compiled.pickFlight!.wire)
    expect(request.schema.zod).toBe(bookFlight.compiled.pickFlight!.response)
    expect(request.schema.json).toMatchObject({ type: 'object', properties: { flightId: { type: 'string' } } })
    expect(request.schema.json).not.toHaveProperty('x-model-context')
    expect(request.schema.zod.safeParse({ flightId: 'x' }).success).toBe(true)

    expect(host.respond({ id: request.id, result: { action: 'accept', content: { flightId: 'SH-142' } } })).toEqual({ ok: true })
    const second = await nextElicit(host)
    expect(second).toMatchObject({ id: 'call_7#2', key: 'pickSeat' })
    await host.abort('test over')
  })

  it('refuses invalid content with the zod issues and keeps the elicitation pending until corrected', async () => {
    const host = createBridgeHost({ tool: bookFlight, params: { from: 'A', destination: 'B' }, callId: 'c' })
    const flight = await nextElicit(host)
    host.respond({ id: flight.id, result: { action: 'accept', content: { flightId: 'SH-142' } } })
    const seat = await nextElicit(host)

    const refused = host.respond({ id: seat.id, result: { action: 'accept', content: { row: 0, seat: 'E' } } })
    expect(refused).toMatchObject({ ok: false, code: 'INVALID_CONTENT' })
    expect(refused.ok === false && refused.issues?.map((i) => i.path)).toEqual(['row', 'seat'])
    expect(host.pending()).toBe(seat)
    expect(host.status()).toBe('awaiting_elicit')

    expect(host.respond({ id: seat.id, result: { action: 'accept', content: { row: 4, seat: 'B' } } })).toEqual({ ok: true })
    expect(host.pending()).toBeUndefined()
    await host.abort()
  })

  it('refuses answers for another id or a stale seq, and duplicates after resumption', async () => {
    const host = createBridgeHost({ tool: bookFlight, params: { from: 'A', destination: 'B' }, callId: 'c' })
    const first = await nextElicit(host)
    expect(host.respond({ id: 'c#2', result: { action: 'decline' } })).toMatchObject({ code: 'ID_MISMATCH' })
    expect(host.respond({ id: 'other#1', result: { action: 'decline' } })).toMatchObject({ code: 'ID_MISMATCH' })
    expect(host.respond({ id: { callId: 'c', seq: 1 } as never, result: { action: 'decline' } })).toMatchObject({ code: 'ID_MISMATCH' })
    expect(host.respond({ id: first.id, result: { action: 'maybe' } as never })).toMatchObject({ code: 'INVALID_RESULT' })
    expect(host.pending()).toBe(first)

    host.respond({ id: first.id, result: { action: 'accept', content: { flightId: 'SH-142' } } })
    const second = await nextElicit(host)
    // The first answer again: stale seq.
    expect(host.respond({ id: first.id, result: { action: 'accept', content: { flightId: 'SH-142' } } })).toMatchObject({
      code: 'ID_MISMATCH',
    })
    host.respond({ id: second.id, result: { action: 'decline' } })
    await host.outcome
    expect(host.respond({ id: second.id, result: { action: 'decline' } })).toMatchObject({ code: 'NOT_PENDING' })
  })

  it('throws ConcurrentElicitationError for a second elicitation while one is pending', async () => {
    const tool = createMcpTool('two_at_once')
      .elicits({ a: confirm, b: confirm })
      .execute(function* (_p, ctx) {
        yield* spawn(() => ctx.elicit('a', { message: 'A?' }))
        yield* ctx.elicit('b', { message: 'B?' })
        return 'unreachable'
      })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 'c' }).outcome
    expect(outcome.status).toBe('failed')
    expect(errorOf(outcome)).toBeInstanceOf(ConcurrentElicitationError)
    // A spawned child starts when its parent next waits, so "b" is pending first and "a" is refused.
    expect(errorOf(outcome).message).toMatch(/asked for "a" while "b" is still waiting/)
  })

  it('throws ElicitInBranchError inside ctx.branch, while sampling works there', async () => {
    const model = scriptedModel(['from the branch'])
    const tool = createMcpTool('brancher')
      .elicits({ a: confirm })
      .execute(function* (_p, ctx) {
        const text = yield* ctx.branch(function* (b) {
          return (yield* b.sample({ prompt: 'sub-agent' })).text
        })
        try {
          yield* ctx.branch(function* () {
            // The outer ctx captured in a closure: still refused inside the branch.
            return yield* ctx.elicit('a', { message: 'no' })
          })
        } catch (e) {
          return { text, error: e }
        }
        return { text, error: undefined }
      })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 'c', sampling: model }).outcome
    expect(outcome.status).toBe('completed')
    const result = (outcome as { result: { text: string; error: Error } }).result
    expect(result.text).toBe('from the branch')
    expect(result.error).toBeInstanceOf(ElicitInBranchError)
  })

  it('allows elicit again after a branch ends', async () => {
    const tool = createMcpTool('after_branch')
      .elicits({ a: confirm })
      .execute(function* (_p, ctx) {
        yield* ctx.branch(function* () {
          return 1
        })
        return yield* ctx.elicit('a', { message: 'now?' })
      })
    const host = createBridgeHost({ tool, params: {}, callId: 'c' })
    const req = await nextElicit(host)
    host.respond({ id: req.id, result: { action: 'accept', content: { ok: true } } })
    expect(await host.outcome).toEqual({ status: 'completed', result: { action: 'accept', content: { ok: true } } })
  })

  it('throws UnsupportedElicitationModeError for URL mode', async () => {
    const tool = createMcpTool('pay')
      .elicits({ a: confirm })
      .execute(function* (_p, ctx) {
        return yield* ctx.elicit('a', { message: 'Pay here', mode: 'url' as 'form', url: 'https://pay.example' })
      })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 'c' }).outcome
    expect(errorOf(outcome)).toBeInstanceOf(UnsupportedElicitationModeError)
  })
})

describe('createBridgeHost: elicit helpers', () => {
  const strictTool = createMcpTool('strict')
    .elicits({ a: confirm })
    .execute(function* (_p, ctx) {
      return yield* ctx.elicit.strict('a', { message: 'ok?' })
    })

  it.each([
    ['decline', ElicitationDeclinedError],
    ['cancel', ElicitationCancelledError],
  ] as const)('elicit.strict throws on %s', async (action, ErrorClass) => {
    const host = createBridgeHost({ tool: strictTool, params: {}, callId: 'c' })
    const req = await nextElicit(host)
    host.respond({ id: req.id, result: { action } })
    const outcome = await host.outcome
    expect(errorOf(outcome)).toBeInstanceOf(ErrorClass)
  })

  it('elicit.strict returns the content on accept', async () => {
    const host = createBridgeHost({ tool: strictTool, params: {}, callId: 'c' })
    const req = await nextElicit(host)
    host.respond({ id: req.id, result: { action: 'accept', content: { ok: true } } })
    expect(await host.outcome).toEqual({ status: 'completed', result: { ok: true } })
  })

  function retryTool(onDecline: 'retry' | 'error' | 'return') {
    return createMcpTool('retry')
      .elicits({ a: confirm })
      .execute(function* (_p, ctx) {
        return yield* ctx.elicit.withRetry('a', { message: 'ok?', retryMessage: 'Please?', maxAttempts: 3, onDecline })
      })
  }

  async function answerAll(host: BridgeHost<unknown>, answers: Array<'decline' | 'cancel' | 'accept'>) {
    const messages: string[] = []
    for (const action of answers) {
      const req = await nextElicit(host)
      messages.push(req.message)
      host.respond({ id: req.id, result: action === 'accept' ? { action, content: { ok: true } } : { action } })
    }
    return { messages, outcome: await host.outcome }
  }

  it("withRetry 'retry' asks again with the retry message and returns the accepted answer", async () => {
    const host = createBridgeHost({ tool: retryTool('retry'), params: {}, callId: 'c' })
    const { messages, outcome } = await answerAll(host, ['decline', 'decline', 'accept'])
    expect(messages).toEqual(['ok?', 'Please?', 'Please?'])
    expect(outcome).toEqual({ status: 'completed', result: { action: 'accept', content: { ok: true } } })
  })

  it("withRetry 'retry' throws once attempts run out", async () => {
    const host = createBridgeHost({ tool: retryTool('retry'), params: {}, callId: 'c' })
    const { outcome } = await answerAll(host, ['decline', 'decline', 'decline'])
    expect(errorOf(outcome).message).toMatch(/declined "a" of tool "retry" 3 times/)
  })

  it("withRetry 'error' throws at the first decline; 'return' hands it back; cancel is never retried", async () => {
    const error = await answerAll(createBridgeHost({ tool: retryTool('error'), params: {}, callId: 'c' }), ['decline'])
    expect(errorOf(error.outcome)).toBeInstanceOf(ElicitationDeclinedError)
    const returned = await answerAll(createBridgeHost({ tool: retryTool('return'), params: {}, callId: 'c' }), ['decline'])
    expect(returned.outcome).toEqual({ status: 'completed', result: { action: 'decline' } })
    const cancelled = await answerAll(createBridgeHost({ tool: retryTool('retry'), params: {}, callId: 'c' }), ['cancel'])
    expect(cancelled.outcome).toEqual({ status: 'completed', result: { action: 'cancel' } })
  })
})

describe('createBridgeHost: log and notify', () => {
  it('turns log and notify into events, in order, and rejects bad levels', async () => {
    const tool = createMcpTool('reporter')
      .elicits({})
      .execute(function* (_p, ctx) {
        yield* ctx.log('debug', 'starting', { step: 0 })
        yield* ctx.notify('half', 1, 2)
        yield* ctx.notify('unknown total')
        yield* ctx.log('emergency', 'done')
        yield* ctx.log('verbose' as 'info', 'nope')
        return 'x'
      })
    const host = createBridgeHost({ tool, params: {}, callId: 'c' })
    const outcome = await host.outcome
    expect(host.events.slice(0, 4)).toEqual([
      { type: 'log', level: 'debug', message: 'starting', data: { step: 0 } },
      { type: 'notify', message: 'half', progress: 1, total: 2 },
      { type: 'notify', message: 'unknown total' },
      { type: 'log', level: 'emergency', message: 'done' },
    ])
    expect(errorOf(outcome).message).toMatch(/"verbose" is not an MCP log level/)
  })
})

describe('createBridgeHost: sample', () => {
  it('raw sampling: content-block request, text, and a 2-message exchange', async () => {
    const model = scriptedModel(['Hello there'])
    const tool = createMcpTool('raw')
      .elicits({})
      .execute(function* (_p, ctx) {
        return yield* ctx.sample({ prompt: 'Say hi', systemPrompt: 'Be brief', maxTokens: 50 })
      })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 'c', sampling: model }).outcome
    expect(model.requests[0]).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hi' }] }],
      systemPrompt: 'Be brief',
      maxTokens: 50,
    })
    const result = (outcome as { result: { text: string; parsed: unknown; exchange: { messages: unknown[] } } }).result
    expect(result.text).toBe('Hello there')
    expect(result.parsed).toBeUndefined()
    expect(result.exchange).toEqual({
      request: { role: 'user', content: [{ type: 'text', text: 'Say hi' }] },
      response: { role: 'assistant', content: [{ type: 'text', text: 'Hello there' }] },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Say hi' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello there' }] },
      ],
    })
  })

  it('structured sampling: __schema__ tool with required choice, parsed output, 3-message exchange with an ok ack', async () => {
    const move = z.object({ cell: z.int().min(0).max(8) })
    const model = scriptedModel([{ role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: SCHEMA_TOOL_NAME, input: { cell: 4 } }] }])
    const history = [
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'earlier' }] },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'reply' }] },
      { role: 'user' as const, content: [{ type: 'text' as const, text: 'Your move' }] },
    ]
    const tool = createMcpTool('ttt')
      .elicits({})
      .execute(function* (_p, ctx) {
        return yield* ctx.sample({ messages: history, schema: move })
      })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 'c', sampling: model }).outcome
    const request = model.requests[0]!
    expect(request.messages).toEqual(history)
    expect(request.toolChoice).toEqual({ mode: 'required' })
    expect(request.tools).toMatchObject([{ name: '__schema__', inputSchema: { type: 'object', properties: { cell: { type: 'integer', minimum: 0, maximum: 8 } } } }])
    const result = (outcome as { result: { parsed: unknown; exchange: { messages: unknown[]; parsed: unknown } } }).result
    expect(result.parsed).toEqual({ cell: 4 })
    expect(result.exchange.parsed).toEqual({ cell: 4 })
    expect(result.exchange.messages).toEqual([
      history[2],
      { role: 'assistant', content: [{ type: 'tool_use', id: 'tu_1', name: '__schema__', input: { cell: 4 } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'tu_1', content: [{ type: 'text', text: 'ok' }] }] },
    ])
  })

  it.each([
    ['a reply that fails the schema', { structured: { cell: 12 } }, /does not match the schema[\s\S]*cell/],
    ['a reply without the __schema__ tool', 'I pick the middle', /did not call the __schema__ tool/],
  ])('SamplingSchemaError for %s', async (_, reply, message) => {
    const tool = createMcpTool('s')
      .elicits({})
      .execute(function* (_p, ctx) {
        return yield* ctx.sample({ prompt: 'move', schema: z.object({ cell: z.int().max(8) }) })
      })
    const client = createMockMcpClient({ sampleResponses: [reply] })
    const outcome = await createBridgeHost({ tool, params: {}, callId: 'c', sampling: client }).outcome
    expect(errorOf(outcome)).toBeInstanceOf(SamplingSchemaError)
    expect(errorOf(outcome).message).toMatch(message)
  })

  it('reports awaiting_sample while the model works, and a malformed reply clearly', async () => {
    const gate = withResolvers<SamplingResponse>()
    const provider: SamplingProvider = {
      *createMessage() {
        return yield* gate.operation
      },
    }
    const tool = createMcpTool('slow')
      .elicits({})
      .execute(function* (_p, ctx) {
        return yield* ctx.sample({ prompt: 'x' })
      })
    const host = createBridgeHost({ tool, params: {}, callId: 'c', sampling: provider })
    for await (const e of host.subscribe()) if (e.type === 'sample') break
    expect(host.status()).toBe('awaiting_sample')
    gate.resolve({ role: 'assistant', content: [] })
    const outcome = await host.outcome
    expect(errorOf(outcome).message).toMatch(/malformed message[\s\S]*content/)
  })
})

describe('createBridgeHost: handoff', () => {
  it('runs before once, hands its value to client and after, and returns after', async () => {
    const calls: string[] = []
    const tool = createMcpTool('handoff_flight')
      .parameters(z.object({ city: z.string() }))
      .elicits({ confirm })
      .handoff({
        *before(params) {
          calls.push('before')
          return { flights: [`${params.city}-1`, `${params.city}-2`] }
        },
        *client(handoff, ctx) {
          calls.push('client')
          const answer = yield* ctx.elicit('confirm', { message: `Book ${handoff.flights[0]}?` })
          return { ok: answer.action === 'accept' && answer.content.ok }
        },
        *after(handoff, result) {
          calls.push('after')
          return result.ok ? `Booked ${handoff.flights[0]}` : 'Not booked'
        },
      })
    const host = createBridgeHost({ tool, params: { city: 'OSL' }, callId: 'c' })
    const req = await nextElicit(host)
    expect(req.handoff).toEqual({ flights: ['OSL-1', 'OSL-2'] })
    host.respond({ id: req.id, result: { action: 'accept', content: { ok: true } } })
    expect(await host.outcome).toEqual({ status: 'completed', result: 'Booked OSL-1' })
    expect(calls).toEqual(['before', 'client', 'after'])
    expect(host.journal.map((j) => `${j.kind}:${j.name}`)).toEqual(['step:handoff.before', 'elicit:confirm'])
  })
})

describe('createBridgeHost: lifecycle and cleanup', () => {
  function resourcefulTool(log: string[]) {
    return createMcpTool('resourceful')
      .elicits({ a: confirm })
      .execute(function* (_p, ctx) {
        yield* spawn(function* () {
          try {
            yield* suspend()
          } finally {
            log.push('child cleaned')
          }
        })
        try {
          return yield* ctx.elicit('a', { message: 'go?' })
        } finally {
          log.push('tool finally')
        }
      })
  }

  it('abort halts the generator, runs finally blocks, closes the pending elicitation, and is idempotent', async () => {
    const log: string[] = []
    const host = createBridgeHost({ tool: resourcefulTool(log), params: {}, callId: 'c' })
    const req = await nextElicit(host)
    const [a, b] = await Promise.all([host.abort('user left'), host.abort('again')])
    expect(a).toEqual({ status: 'aborted', reason: 'user left' })
    expect(b).toEqual(a)
    expect(await host.abort('third')).toEqual(a)
    expect(log).toEqual(['tool finally', 'child cleaned'])
    expect(host.status()).toBe('aborted')
    expect(host.pending()).toBeUndefined()
    expect(host.events.slice(-2)).toEqual([
      { type: 'elicit_cancelled', id: req.id, reason: 'user left' },
      { type: 'aborted', reason: 'user left' },
    ])
    expect(host.respond({ id: req.id, result: { action: 'accept', content: { ok: true } } })).toMatchObject({ code: 'NOT_PENDING' })
  })

  it('completion and failure halt spawned children too (nothing outlives the call)', async () => {
    const log: string[] = []
    const host = createBridgeHost({ tool: resourcefulTool(log), params: {}, callId: 'c' })
    const req = await nextElicit(host)
    host.respond({ id: req.id, result: { action: 'decline' } })
    expect((await host.outcome).status).toBe('completed')
    expect(log).toEqual(['tool finally', 'child cleaned'])

    const failLog: string[] = []
    const failing = createMcpTool('failing')
      .elicits({})
      .execute(function* () {
        const started = withResolvers<void>()
        yield* spawn(function* () {
          try {
            started.resolve()
            yield* suspend()
          } finally {
            failLog.push('child cleaned')
          }
        })
        yield* started.operation
        throw new Error('boom')
      })
    const outcome = await createBridgeHost({ tool: failing, params: {}, callId: 'c' }).outcome
    expect(errorOf(outcome).message).toBe('boom')
    expect(failLog).toEqual(['child cleaned'])
  })

  it('an AbortSignal aborts the call, and its listener is removed at the end', async () => {
    const log: string[] = []
    const controller = new AbortController()
    const host = createBridgeHost({ tool: resourcefulTool(log), params: {}, callId: 'c', signal: controller.signal })
    await nextElicit(host)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1)
    controller.abort(new Error('request closed'))
    expect(await host.outcome).toEqual({ status: 'aborted', reason: 'request closed' })
    expect(log).toEqual(['tool finally', 'child cleaned'])
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)

    const other = new AbortController()
    const done = createBridgeHost({ tool: resourcefulTool([]), params: {}, callId: 'd', signal: other.signal })
    const req = await nextElicit(done)
    done.respond({ id: req.id, result: { action: 'cancel' } })
    await done.outcome
    expect(getEventListeners(other.signal, 'abort')).toHaveLength(0)
  })

  it('a late subscriber sees every event from the start, and readers end with the call', async () => {
    const host = createBridgeHost({ tool: bookFlight, params: { from: 'A', destination: 'B' }, callId: 'c' })
    const req = await nextElicit(host)
    host.respond({ id: req.id, result: { action: 'decline' } })
    await host.outcome
    const seen: string[] = []
    for await (const e of host.subscribe()) seen.push(e.type)
    expect(seen).toEqual(['log', 'elicit', 'elicit_resolved', 'completed'])
  })
})

describe('createBridgeHost: journal replay', () => {
  it('resumes a call from its journal on a new host without asking again', async () => {
    const first = createBridgeHost({ tool: bookFlight, params: { from: 'A', destination: 'B' }, callId: 'c' })
    const flight = await nextElicit(first)
    first.respond({ id: flight.id, result: { action: 'accept', content: { flightId: 'SH-142' } } })
    await nextElicit(first)
    const journal = structuredClone(first.journal)
    await first.abort('server restart')

    const resumed = createBridgeHost({
      tool: bookFlight,
      params: { from: 'A', destination: 'B' },
      callId: 'c',
      replay: journal,
      sampling: createMockMcpClient({ sampleResponses: ['tip'] }),
    })
    const seat = await nextElicit(resumed)
    expect(seat).toMatchObject({ id: 'c#2', key: 'pickSeat' })
    expect(resumed.events.filter((e) => e.type === 'elicit')).toHaveLength(1)
    resumed.respond({ id: seat.id, result: { action: 'accept', content: { row: 1, seat: 'B' } } })
    expect(await resumed.outcome).toMatchObject({ status: 'completed', result: { flight: 'SH-142', seat: '1B' } })
  })

  it('fails with JournalDivergenceError when the tool takes another path on replay', async () => {
    const outcome = await createBridgeHost({
      tool: bookFlight,
      params: { from: 'A', destination: 'B' },
      callId: 'c',
      replay: [{ kind: 'elicit', name: 'pickSeat', seq: 1, result: { action: 'decline' } }],
    }).outcome
    expect(errorOf(outcome)).toBeInstanceOf(JournalDivergenceError)
  })
})
