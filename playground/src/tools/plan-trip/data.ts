/** Activities the plan_trip tool "looks up": deterministic per city, so tests and demos repeat. */
import { z } from 'zod'

export const activitySchema = z.object({ id: z.string(), name: z.string(), hours: z.number(), price: z.number() })
export type Activity = z.infer<typeof activitySchema>

const KINDS = [
  { id: 'museum', name: 'Museum pass', hours: 3, price: 25 },
  { id: 'harbour', name: 'Harbour boat tour', hours: 2, price: 40 },
  { id: 'food', name: 'Food market walk', hours: 2, price: 30 },
  { id: 'hike', name: 'City hills hike', hours: 4, price: 0 },
] as const

export function findActivities(city: string): Activity[] {
  return KINDS.map((k) => ({ ...k, id: `${city.slice(0, 3).toUpperCase()}-${k.id}`, name: `${city} ${k.name.toLowerCase()}` }))
}
