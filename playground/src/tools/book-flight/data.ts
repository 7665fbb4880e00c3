/** Flight search and seat maps for the demo: deterministic, so the app and its tests agree. */
import { z } from 'zod'

export const flightSchema = z.object({
  id: z.string(),
  airline: z.string(),
  departs: z.string(),
  arrives: z.string(),
  price: z.number(),
})
export type Flight = z.infer<typeof flightSchema>

export const SEAT_LETTERS = ['A', 'B', 'C', 'D'] as const
export const ROWS = 12

export function searchFlights(from: string, to: string): Flight[] {
  const code = (s: string) => s.slice(0, 3).toUpperCase()
  return [
    { id: `SH-${code(from).charCodeAt(0)}2`, airline: 'SkyHigh', departs: '08:00', arrives: '11:30', price: 299 },
    { id: `CA-${code(to).charCodeAt(0)}7`, airline: 'CloudAir', departs: '12:45', arrives: '16:00', price: 349 },
    { id: 'JS-501', airline: 'JetStream', departs: '18:10', arrives: '21:35', price: 219 },
  ]
}

export function takenSeats(flightId: string): string[] {
  // A fixed pattern per flight.
  const seed = [...flightId].reduce((n, c) => n + c.charCodeAt(0), 0)
  const taken: string[] = []
  for (let row = 1; row <= ROWS; row++) {
    for (const [i, letter] of SEAT_LETTERS.entries()) if ((row * 7 + i * 3 + seed) % 5 === 0) taken.push(`${row}${letter}`)
  }
  return taken
}
