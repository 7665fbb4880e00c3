import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'
import { flightSchema, ROWS, SEAT_LETTERS, searchFlights, takenSeats } from './data.ts'
import { issueTicket } from './ledger.ts'

export const bookFlight = createMcpTool('book_flight')
  .title('Book a flight')
  // It books (an outside effect), once per call; a repeated call books again.
  .annotations({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true })
  .icons([
    {
      src: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAyNCAyNCI+PHBhdGggZD0iTTIxIDE2di0ybC04LTVWMy41YTEuNSAxLjUgMCAwIDAtMyAwVjlsLTggNXYybDgtMi41VjE5bC0yIDEuNVYyMmwzLjUtMSAzLjUgMXYtMS41TDEzIDE5di01LjV6Ii8+PC9zdmc+',
      mimeType: 'image/svg+xml',
      sizes: ['any'],
    },
  ])
  .description('Book a flight for the user: they pick a flight, then a seat.')
  .parameters(z.object({ from: z.string().describe('Departure city'), destination: z.string().describe('Arrival city') }))
  .requires({ sampling: true })
  .elicits({
    pickFlight: { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(flightSchema), route: z.string() }) },
    pickSeat: {
      response: z.object({ row: z.int().min(1).max(ROWS), seat: z.enum(SEAT_LETTERS) }),
      context: z.object({ flightId: z.string(), taken: z.array(z.string()), rows: z.int() }),
    },
  })
  // In an MCP client without this tool's UI, the questions are plain forms: the flights become a
  // titled select, and the seat question says which seats are taken.
  .plainForm({
    pickFlight: {
      choices: { flightId: ({ flights }) => flights.map((f) => ({ value: f.id, title: `${f.airline} ${f.id}, ${f.departs}–${f.arrives}, $${f.price}` })) },
    },
    pickSeat: {
      summary: ({ taken, rows }) => `Rows 1–${rows}, seats ${SEAT_LETTERS.join(', ')}. Taken: ${taken.length > 0 ? taken.join(', ') : 'none'}.`,
    },
  })
  .execute(function* (params, ctx) {
    const flights = searchFlights(params.from, params.destination)
    yield* ctx.log('info', `Found ${flights.length} flights from ${params.from} to ${params.destination}`)
    const route = `${params.from} → ${params.destination}`
    // The flights themselves are the choices (the plugin's list; a plain form's titled select).
    const picked = yield* ctx.elicit('pickFlight', { message: `Select your flight ${route}`, flights, route })
    if (picked.action !== 'accept') return { booked: false, reason: picked.action === 'decline' ? 'You declined the flights.' : 'Cancelled.' }
    const flight = flights.find((f) => f.id === picked.content.flightId)
    if (!flight) return { booked: false, reason: `Unknown flight ${picked.content.flightId}` }

    const taken = takenSeats(flight.id)
    const seat = yield* ctx.elicit('pickSeat', { message: `Pick a seat on ${flight.airline} ${flight.id}`, flightId: flight.id, taken, rows: ROWS })
    if (seat.action !== 'accept') return { booked: false, reason: 'No seat chosen.' }
    const seatLabel = `${seat.content.row}${seat.content.seat}`
    if (taken.includes(seatLabel)) return { booked: false, reason: `Seat ${seatLabel} is taken.` }

    // The side effect, exactly once: a resumed call (after a reload, a restart, on another
    // instance) replays the recorded ticket instead of issuing another.
    yield* ctx.notify('Issuing the ticket', 1, 3)
    const ticket = yield* ctx.step('issue ticket', function* ({ idempotencyKey }) {
      return issueTicket(idempotencyKey, flight.id, seatLabel)
    })
    yield* ctx.notify('Getting a travel tip', 2, 3)
    const tip = yield* ctx.sample({ prompt: `Give one short travel tip for arriving at ${params.destination} airport.`, maxTokens: 80 })
    yield* ctx.notify('Booked', 3, 3)
    return {
      booked: true,
      ticketNumber: ticket.ticketNumber,
      flight: `${flight.airline} ${flight.id}`,
      route,
      departs: flight.departs,
      seat: seatLabel,
      price: flight.price,
      tip: tip.text,
      // Signed in (the header's demo users): the ticket is in their name, as the call recorded it.
      ...(ctx.auth && { passenger: String(ctx.auth.extra?.name ?? ctx.auth.subject) }),
    }
  })
