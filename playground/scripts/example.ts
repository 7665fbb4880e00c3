/**
 * `npm start` until the chat playground lands: runs the book_flight tool end to end on the
 * bridge, with a scripted client standing in for the user and the model, and prints the
 * timeline; then shows the error a non-flat elicitation schema gets at definition time.
 */
import { createMcpTool } from '@mcp-bridge/runtime'
import { ElicitationSchemaError } from '@mcp-bridge/runtime/errors'
import { createMockMcpClient, runMcpTool } from '@mcp-bridge/runtime/testing'
import { z } from 'zod'

const flight = z.object({ id: z.string(), airline: z.string(), price: z.number() })

export const bookFlight = createMcpTool('book_flight')
  .description('Book a flight for the user')
  .parameters(z.object({ from: z.string(), destination: z.string() }))
  .requires({ sampling: true })
  .elicits({
    pickFlight: { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(flight) }) },
    pickSeat: z.object({ row: z.int().min(1).max(30), seat: z.enum(['A', 'B', 'C', 'D']) }),
  })
  .execute(function* (params, ctx) {
    const flights = [
      { id: 'SH-142', airline: 'SkyHigh', price: 299 },
      { id: 'CA-287', airline: 'CloudAir', price: 349 },
    ]
    yield* ctx.log('info', `Found ${flights.length} flights ${params.from} → ${params.destination}`)
    const picked = yield* ctx.elicit('pickFlight', { message: 'Select your flight', flights })
    if (picked.action !== 'accept') return { booked: false }
    const seat = yield* ctx.elicit.strict('pickSeat', { message: 'Pick a seat' })
    yield* ctx.notify('Getting a travel tip', 1, 2)
    const tip = yield* ctx.sample({ prompt: `One short travel tip for ${params.destination} airport` })
    yield* ctx.notify('Booked', 2, 2)
    return { booked: true, flightId: picked.content.flightId, seat: `${seat.row}${seat.seat}`, tip: tip.text }
  })

const client = createMockMcpClient({
  elicitResponses: [
    { action: 'accept', content: { flightId: 'CA-287' } },
    { action: 'accept', content: { row: 42, seat: 'C' } }, // refused: row is at most 30
    { action: 'accept', content: { row: 12, seat: 'C' } },
  ],
  sampleResponses: ['Terminal 4 security is fastest before 7am.'],
})

const run = await runMcpTool(bookFlight, { from: 'JFK', destination: 'LAX' }, client)
console.log(`book_flight ${run.status}: ${JSON.stringify(run.result)}\n\nTimeline:`)
const keyOf = new Map<string, string>() // question id -> its key, to print answers by key
for (const entry of run.timeline) {
  switch (entry.type) {
    case 'elicit':
      keyOf.set(entry.request.id, entry.request.key)
      console.log(`  elicit    ${entry.request.key} (${entry.request.id}): ${entry.request.message}`)
      break
    case 'elicit_refused':
      console.log(`  refused   ${entry.key}: ${entry.message}`)
      break
    case 'elicit_resolved':
      console.log(`  answered  ${keyOf.get(entry.id)}: ${JSON.stringify(entry.result)}`)
      break
    case 'log':
      console.log(`  log       [${entry.level}] ${entry.message}`)
      break
    case 'notify':
      console.log(`  progress  ${entry.message} (${entry.progress}/${entry.total})`)
      break
    case 'sample':
      console.log(`  sample    ${JSON.stringify(entry.request.messages.at(-1)?.content)}`)
      break
    case 'sample_result':
      console.log(`  model     ${entry.text}`)
      break
    default:
      console.log(`  ${entry.type}`)
  }
}

try {
  createMcpTool('bad_tool').elicits({ profile: z.object({ user: z.object({ name: z.string() }), tags: z.array(z.string()) }) })
} catch (error) {
  if (!(error instanceof ElicitationSchemaError)) throw error
  console.log(`\nA schema MCP clients cannot render is refused when the tool is defined:\n${error.message}`)
}
