/**
 * `npm start` until the chat playground lands: defines the book_flight tool, prints what a
 * host and a build see of it, and shows the error a non-flat elicitation schema gets.
 */
import { createMcpTool, ElicitationSchemaError } from '@mcp-bridge/runtime'
import { z } from 'zod'

const flight = z.object({ id: z.string(), airline: z.string(), price: z.number() })

export const bookFlight = createMcpTool('book_flight')
  .description('Book a flight for the user')
  .parameters(z.object({ from: z.string(), destination: z.string() }))
  .elicits({
    pickFlight: { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(flight) }) },
    pickSeat: z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B', 'C', 'D']) }),
  })
  .execute(function* (params, ctx) {
    const flights = [{ id: 'SH-142', airline: 'SkyHigh', price: 299 }]
    const picked = yield* ctx.elicit('pickFlight', { message: `Flights ${params.from} → ${params.destination}`, flights })
    if (picked.action !== 'accept') return { booked: false }
    const seat = yield* ctx.elicit.strict('pickSeat', { message: 'Pick a seat' })
    return { booked: true, flightId: picked.content.flightId, seat: `${seat.row}${seat.seat}` }
  })

console.log(`Tool ${bookFlight.name}: ${bookFlight.description}`)
console.log('requirements:', bookFlight.requirements)
console.log('parameters (MCP inputSchema):', JSON.stringify(bookFlight.jsonSchema.parameters))
for (const [key, schema] of Object.entries(bookFlight.jsonSchema.elicits)) {
  console.log(`elicits.${key} (MCP requestedSchema):`, JSON.stringify(schema))
}

try {
  createMcpTool('bad_tool').elicits({ profile: z.object({ user: z.object({ name: z.string() }), tags: z.array(z.string()) }) })
} catch (error) {
  if (!(error instanceof ElicitationSchemaError)) throw error
  console.log(`\nA schema MCP clients cannot render is refused when the tool is defined:\n${error.message}`)
}
