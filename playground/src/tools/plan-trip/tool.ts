import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'
import { activitySchema, findActivities } from './data.ts'

/**
 * What `before` hands to the interactive phase and to `after`. Exported so the plugin's handler
 * can read `req.handoff` typed (it arrives in the browser as JSON).
 */
export const tripHandoff = z.object({
  /** Names this lookup: a second run of `before` would show another id. */
  lookupId: z.string(),
  city: z.string(),
  activities: z.array(activitySchema),
})
export type TripHandoff = z.infer<typeof tripHandoff>

/**
 * A handoff tool: `before` looks the activities up once on the server, the user picks one in a
 * component that shows the lookup (the handoff value) and the call's arguments, and `after`
 * reserves it. `before` is journaled, so it never runs again for this call.
 */
export const planTrip = createMcpTool('plan_trip')
  .title('Plan a day out')
  .annotations({ readOnlyHint: false, destructiveHint: false, openWorldHint: true })
  .description('Plan a day out in a city: looks up activities, the user picks one, then it is reserved.')
  .parameters(
    z.object({
      city: z.string().describe('The city to plan the day in'),
      date: z.iso.date().describe('The day, YYYY-MM-DD').optional(),
    }),
  )
  // The activities travel with the question too: a plain MCP form offers them as a titled select.
  .elicits({ pickActivity: { response: z.object({ activityId: z.string() }), context: z.object({ activities: z.array(activitySchema) }) } })
  .plainForm({
    pickActivity: {
      choices: { activityId: ({ activities }) => activities.map((a) => ({ value: a.id, title: `${a.name} — ${a.hours} h, ${a.price === 0 ? 'free' : `$${a.price}`}` })) },
    },
  })
  .handoff({
    *before(params, ctx) {
      const activities = findActivities(params.city)
      const lookupId = `LK-${crypto.randomUUID().slice(0, 8)}`
      yield* ctx.log('info', `Looked up ${activities.length} activities in ${params.city} (${lookupId})`)
      return { lookupId, city: params.city, activities } satisfies TripHandoff
    },
    *client(trip, ctx) {
      return yield* ctx.elicit('pickActivity', { message: `What would you like to do in ${trip.city}?`, activities: trip.activities })
    },
    *after(trip, answer, ctx) {
      if (answer.action !== 'accept') return { planned: false as const, reason: answer.action === 'decline' ? 'You declined.' : 'Cancelled.' }
      const activity = trip.activities.find((a) => a.id === answer.content.activityId)
      if (!activity) return { planned: false as const, reason: `There is no activity ${answer.content.activityId} in ${trip.city}.` }
      yield* ctx.notify('Reserved', 1, 1)
      return { planned: true as const, city: trip.city, activity: activity.name, reservation: `${trip.lookupId}/${activity.id}`, lookupId: trip.lookupId }
    },
  })
