/**
 * Type tests, checked by `tsc` in `npm test` (and run by Vitest, where they are no-ops).
 * Each `@ts-expect-error` must be an error, or tsc fails on the unused directive.
 */
import type { Operation } from 'effection'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type ElicitResult, type McpTool, type SampleResult, type ToolResult } from '../../src/index.ts'
import { createMockMcpClient, runMcpTool } from '../../src/testing.ts'

const flightSchema = z.object({ id: z.string(), price: z.number() })

const elicits = {
  pickFlight: {
    response: z.object({ flightId: z.string() }),
    context: z.object({ flights: z.array(flightSchema) }),
  },
  pickSeat: z.object({ row: z.number(), seat: z.string(), window: z.boolean().default(false) }),
}

describe('builder types', () => {
  it('types ctx.step by its body; before() takes no steps, after() does, branches have none', () => {
    createMcpTool('steps')
      .elicits({})
      .execute(function* (_params, ctx) {
        const charge = yield* ctx.step('charge', function* ({ idempotencyKey }) {
          expectTypeOf(idempotencyKey).toBeString()
          return { id: 'ch_1', cents: 500 }
        })
        expectTypeOf(charge).toEqualTypeOf<{ id: string; cents: number }>()
        const fetched = yield* ctx.step('lookup', async () => 42)
        expectTypeOf(fetched).toBeNumber()
        yield* ctx.branch(function* (b) {
          // @ts-expect-error a branch cannot take steps
          yield* b.step('x', function* () {})
        })
        return charge.id
      })
    createMcpTool('handoff_steps')
      .elicits({})
      .handoff({
        *before(_p, ctx) {
          // @ts-expect-error before() is a step itself
          yield* ctx.step('x', function* () {})
          return 1
        },
        *client() {
          return 2
        },
        *after(h, r, ctx) {
          return yield* ctx.step('finish', function* () {
            return h + r
          })
        },
      })
    expect(true).toBe(true)
  })

  it('types ctx.elicit by key: declared keys only, response type follows the key', () => {
    createMcpTool('book_flight')
      .parameters(z.object({ from: z.string(), to: z.string() }))
      .elicits(elicits)
      .execute(function* (params, ctx) {
        expectTypeOf(params).toEqualTypeOf<{ from: string; to: string }>()

        const flight = yield* ctx.elicit('pickFlight', { message: 'Pick', flights: [{ id: 'a', price: 1 }] })
        expectTypeOf(flight).toEqualTypeOf<ElicitResult<{ flightId: string }>>()
        if (flight.action === 'accept') expectTypeOf(flight.content.flightId).toBeString()

        const seat = yield* ctx.elicit('pickSeat', { message: 'Seat', anything: 'goes' })
        // Output type: the default makes `window` present.
        expectTypeOf(seat).toEqualTypeOf<ElicitResult<{ row: number; seat: string; window: boolean }>>()

        const strict = yield* ctx.elicit.strict('pickSeat', { message: 'Seat' })
        expectTypeOf(strict).toEqualTypeOf<{ row: number; seat: string; window: boolean }>()

        const retried = yield* ctx.elicit.withRetry('pickSeat', { message: 'Seat', maxAttempts: 3, onDecline: 'retry' })
        expectTypeOf(retried).toEqualTypeOf<ElicitResult<{ row: number; seat: string; window: boolean }>>()

        // @ts-expect-error an undeclared key is rejected
        yield* ctx.elicit('pickMeal', { message: 'Meal' })

        // @ts-expect-error the message is required
        yield* ctx.elicit('pickSeat', {})

        // @ts-expect-error a wrong context type is rejected (flights must be Flight[])
        yield* ctx.elicit('pickFlight', { message: 'Pick', flights: 'none' })

        // @ts-expect-error context props the key does not declare are rejected
        yield* ctx.elicit('pickFlight', { message: 'Pick', flights: [], extra: 1 })

        // @ts-expect-error declared context is required
        yield* ctx.elicit('pickFlight', { message: 'Pick' })

        // @ts-expect-error URL mode is not supported
        yield* ctx.elicit('pickSeat', { message: 'Pay', mode: 'url' })

        // @ts-expect-error withRetry needs its retry options
        yield* ctx.elicit.withRetry('pickSeat', { message: 'Seat' })

        return { flight, seat }
      })
  })

  it('a tool that never asks leaves .elicits() out: .execute() takes no question key; .handoff() still needs its keys', async () => {
    const ping = createMcpTool('no_elicits')
      .description('x')
      .execute(function* (_params, ctx) {
        // @ts-expect-error no key is declared: nothing to ask
        void ctx.elicit('anything', { message: 'x' })
        return 1
      })
    expect(ping.elicits).toEqual({})
    expect(await runMcpTool(ping, {}, createMockMcpClient())).toMatchObject({ result: 1 })
    const builder = createMcpTool('no_elicits_handoff')
    // @ts-expect-error .handoff does not exist before .elicits
    void builder.handoff
    expect(() => (builder as unknown as { handoff(p: unknown): unknown }).handoff({ *before() {}, *client() {}, *after() {} })).toThrow(
      /\.elicits\(\{\.\.\.\}\) must come before \.handoff\(\)/,
    )
  })

  it('types sample, log, notify and branch', () => {
    createMcpTool('sampler')
      .elicits({})
      .execute(function* (_params, ctx) {
        const raw = yield* ctx.sample({ prompt: 'Hi' })
        expectTypeOf(raw).toEqualTypeOf<SampleResult>()
        expectTypeOf(raw.text).toBeString()

        const structured = yield* ctx.sample({ prompt: 'Move?', schema: z.object({ cell: z.int() }) })
        expectTypeOf(structured.parsed).toEqualTypeOf<{ cell: number }>()
        expectTypeOf(structured.exchange.parsed).toEqualTypeOf<{ cell: number } | undefined>()

        // @ts-expect-error prompt and messages are exclusive
        yield* ctx.sample({ prompt: 'a', messages: [] })

        yield* ctx.log('warning', 'careful')
        // @ts-expect-error not an MCP log level
        yield* ctx.log('verbose', 'x')
        yield* ctx.notify('Working', 1, 3)

        const n = yield* ctx.branch(function* (b) {
          const r = yield* b.sample({ prompt: 'sub' })
          // @ts-expect-error a branch context has no elicit
          void b.elicit
          return r.text.length
        })
        expectTypeOf(n).toBeNumber()
        return n
      })
  })

  it('flows handoff data before → client → after, and types the tool result', () => {
    const tool = createMcpTool('handoff_tool')
      .parameters(z.object({ city: z.string() }))
      .elicits({ confirm: z.object({ ok: z.boolean() }) })
      .handoff({
        *before(params, ctx) {
          expectTypeOf(params.city).toBeString()
          // @ts-expect-error server phases cannot elicit
          void ctx.elicit
          return { flights: ['SH-1', 'CA-2'] }
        },
        *client(handoff, ctx) {
          expectTypeOf(handoff).toEqualTypeOf<{ flights: string[] }>()
          const answer = yield* ctx.elicit('confirm', { message: `Book ${handoff.flights[0]}?` })
          return { confirmed: answer.action === 'accept' && answer.content.ok }
        },
        *after(handoff, clientResult) {
          expectTypeOf(handoff).toEqualTypeOf<{ flights: string[] }>()
          expectTypeOf(clientResult).toEqualTypeOf<{ confirmed: boolean }>()
          return clientResult.confirmed ? `Booked ${handoff.flights.length}` : 'Cancelled'
        },
      })
    expectTypeOf(tool).toExtend<McpTool<'handoff_tool'>>()
    expectTypeOf(tool.name).toEqualTypeOf<'handoff_tool'>()
    type Body = Extract<typeof tool.body, { kind: 'handoff' }>
    expectTypeOf<ReturnType<Body['after']>>().toEqualTypeOf<Operation<string>>()
  })

  it('rejects a non-object parameter schema and a non-object response schema', () => {
    // @ts-expect-error parameters must be a zod object
    expect(() => createMcpTool('p').parameters(z.string())).toThrow(/zod 4 object/)
    // @ts-expect-error a response schema must be a zod object
    expect(() => createMcpTool('q').elicits({ bad: z.string() })).toThrow(/must be z\.object/)
  })

  it('types the body return with .returns(): the schema input in, its output as the result', () => {
    const quote = z.object({ price: z.number(), currency: z.enum(['EUR', 'USD']).default('EUR') })
    const tool = createMcpTool('quote')
      .returns(quote)
      .elicits({})
      .execute(function* () {
        return { price: 3 } // currency has a default: optional on the way in
      })
    expectTypeOf<ToolResult<typeof tool>>().toEqualTypeOf<{ price: number; currency: 'EUR' | 'USD' }>()
    createMcpTool('quote2')
      .returns(quote)
      .elicits({})
      // @ts-expect-error price must be a number
      .execute(function* () {
        return { price: 'free' }
      })
    // Without .returns() any value goes, typed as returned.
    const free = createMcpTool('free')
      .elicits({})
      .execute(function* () {
        return 42 as const
      })
    expectTypeOf<ToolResult<typeof free>>().toEqualTypeOf<42>()
  })
})
