/** The tool most examples use: a flight pick with typed context, then a seat. */
import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

export const flightSchema = z.object({ id: z.string(), airline: z.string(), price: z.number() })
export type Flight = z.infer<typeof flightSchema>

export const bookFlight = createMcpTool('book_flight')
  .title('Book a flight')
  .parameters(z.object({ destination: z.string() }))
  .elicits({
    pickFlight: { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(flightSchema) }) },
    pickSeat: z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B', 'C', 'D']) }),
  })
  .execute(function* (params, ctx) {
    const flights = [{ id: 'JS-501', airline: 'JetStream', price: 299 }]
    const flight = yield* ctx.elicit.strict('pickFlight', { message: `Flights to ${params.destination}`, flights })
    const seat = yield* ctx.elicit.strict('pickSeat', { message: 'Pick a seat' })
    return `Booked ${flight.flightId}, seat ${seat.row}${seat.seat}`
  })
