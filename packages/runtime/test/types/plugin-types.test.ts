/**
 * Type tests for createPlugin: exhaustive handlers, typed requests, typed answers, typed render.
 * Checked by tsc in `npm test`; each @ts-expect-error must be a real error.
 */
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, generatedForm, createPlugin, type ElicitResult, type RenderedProps } from '../../src/index.ts'
import { bookFlight, type Flight } from '../fixtures/book-flight.ts'

function FlightList(props: { flights: Flight[]; message: string } & RenderedProps<{ flightId: string }>) {
  return props.flights.length
}
function SeatPicker(props: { taken: string[] } & RenderedProps<{ row: number; seat: 'A' | 'B' | 'C' | 'D' }>) {
  return props.taken.length
}

describe('createPlugin types', () => {
  it('accepts exactly one handler per key, typed from the tool', () => {
    const plugin = createPlugin(bookFlight)
      .onElicit({
        *pickFlight(req, ctx) {
          expectTypeOf(req.key).toEqualTypeOf<'pickFlight'>()
          expectTypeOf(req.context.flights).toEqualTypeOf<Flight[]>()
          expectTypeOf(req.params).toEqualTypeOf<{ from: string; destination: string }>()
          expectTypeOf(req.id).toEqualTypeOf<string>()
          const picked = yield* ctx.render(FlightList, { flights: req.context.flights, message: req.message })
          expectTypeOf(picked).toEqualTypeOf<{ flightId: string }>()
          return { action: 'accept', content: picked }
        },
        *pickSeat(req, ctx) {
          const seat = yield* ctx.render(SeatPicker, { taken: req.context.taken })
          if (seat.row < 1) return { action: 'decline' }
          return { action: 'accept', content: seat }
        },
      })
      .build()
    expectTypeOf(plugin.name).toEqualTypeOf<'book_flight'>()
    expectTypeOf(plugin.mcp).toEqualTypeOf(bookFlight)
    expect(plugin.client.toolName).toBe('book_flight')
  })

  it('rejects a missing key, an extra key, a wrong answer shape and wrong render props', () => {
    const builder = createPlugin(bookFlight)
    expect(() =>
      // @ts-expect-error pickSeat is missing
      builder.onElicit({
        *pickFlight() {
          return { action: 'decline' }
        },
      }),
    ).toThrow(/no handler for "pickSeat"/)

    expect(() =>
      builder.onElicit({
        *pickFlight() {
          return { action: 'decline' }
        },
        *pickSeat() {
          return { action: 'cancel' }
        },
        // @ts-expect-error pickMeal is not declared by the tool
        *pickMeal() {
          return { action: 'cancel' }
        },
      }),
    ).toThrow(/undeclared key\(s\) "pickMeal"/)

    builder.onElicit({
      // @ts-expect-error flightId must be a string
      *pickFlight() {
        return { action: 'accept', content: { flightId: 42 } }
      },
      *pickSeat(_req, ctx) {
        // @ts-expect-error SeatPicker needs `taken`, not `flights`
        const seat = yield* ctx.render(SeatPicker, { flights: [] })
        return { action: 'accept', content: seat }
      },
    })

    builder.onElicit({
      // @ts-expect-error not an ElicitResult action
      *pickFlight() {
        return { action: 'maybe' }
      },
      *pickSeat() {
        return { action: 'decline' }
      },
    })
  })

  it('yields a plugin for a tool that elicits nothing', () => {
    const plain = createMcpTool('plain')
      .elicits({})
      .execute(function* () {
        return 1
      })
    const plugin = createPlugin(plain).onElicit({}).build()
    expect(plugin.server.tools).toEqual([plain])
    expectTypeOf(plugin.client.handlers).toEqualTypeOf<{}>()
  })

  it('types an untyped-context key as a plain record', () => {
    const tool = createMcpTool('untyped')
      .elicits({ ok: z.object({ yes: z.boolean() }) })
      .execute(function* () {
        return 1
      })
    createPlugin(tool).onElicit({
      *ok(req) {
        expectTypeOf(req.context).toEqualTypeOf<{ [key: string]: unknown }>()
        return { action: 'accept', content: { yes: true } }
      },
    })
  })

  it('delegates a key to the generated form, still naming every key, and types ctx.generatedForm()', () => {
    // One key with its own component, the other drawn from its schema: both keys are named.
    createPlugin(bookFlight).onElicit({
      *pickFlight(req, ctx) {
        const picked = yield* ctx.render(FlightList, { flights: req.context.flights, message: req.message })
        return { action: 'accept', content: picked }
      },
      pickSeat: generatedForm,
    })

    expect(() =>
      // @ts-expect-error pickSeat is neither handled nor delegated
      createPlugin(bookFlight).onElicit({ pickFlight: generatedForm }),
    ).toThrow(/no handler for "pickSeat"/)

    createPlugin(bookFlight).onElicit({
      pickFlight: generatedForm,
      *pickSeat(req, ctx) {
        // The form's answer has the key's type: steps can go around it.
        const answer = yield* ctx.generatedForm({ message: `Seats taken: ${req.context.taken.join(', ')}` })
        expectTypeOf(answer).toEqualTypeOf<ElicitResult<{ row: number; seat: 'A' | 'B' | 'C' | 'D' }>>()
        if (answer.action === 'accept' && answer.content.row > 30) return { action: 'decline' }
        return answer
      },
    })
  })
})
