import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

export const slotSchema = z.object({ time: z.string(), free: z.boolean() })

/** Today's slots at the restaurant: a fixed, deterministic set (some already taken). */
function slotsFor(restaurant: string): Array<z.infer<typeof slotSchema>> {
  const taken = restaurant.length % 3
  return ['18:00', '18:30', '19:00', '19:30', '20:00', '20:30'].map((time, i) => ({ time, free: i % 3 !== taken }))
}

/**
 * Two questions, two kinds of UI: the time is picked in the plugin's own component, the party
 * details are asked with the form generated from their schema (`generatedForm` in the plugin).
 */
export const reserveTable = createMcpTool('reserve_table')
  .title('Reserve a table')
  .annotations({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true })
  .description('Reserve a table at a restaurant: the user picks a time, then gives the party details.')
  .parameters(z.object({ restaurant: z.string().default('Luigi’s').describe('The restaurant') }))
  .elicits({
    pickTime: { response: z.object({ time: z.string() }), context: z.object({ slots: z.array(slotSchema) }) },
    details: z.object({
      guests: z.int().min(1).max(8).describe('How many people (1–8)'),
      name: z.string().min(1).max(60).describe('Name for the booking'),
      highChair: z.boolean().default(false).describe('A high chair for a child'),
      notes: z.string().max(200).optional().describe('Allergies or requests'),
    }),
  })
  .plainForm({
    pickTime: {
      // A free string field becomes a titled select (oneOf const/title; enum + enumNames before 2025-11-25).
      choices: { time: ({ slots }) => slots.filter((s) => s.free).map((s) => ({ value: s.time, title: s.time })) },
      // Joined to the message, for the person.
      summary: ({ slots }) => `Taken: ${slots.flatMap((s) => (s.free ? [] : [s.time])).join(', ') || 'none'}.`,
    },
  })
  .execute(function* (params, ctx) {
    const slots = slotsFor(params.restaurant)
    const time = yield* ctx.elicit('pickTime', { message: `Pick a time at ${params.restaurant}`, slots })
    if (time.action !== 'accept') return { reserved: false, reason: time.action === 'decline' ? 'You declined.' : 'Cancelled.' }
    if (!slots.some((s) => s.time === time.content.time && s.free)) return { reserved: false, reason: `${time.content.time} is not free.` }
    const details = yield* ctx.elicit('details', { message: `A table at ${params.restaurant} at ${time.content.time}: who is coming?` })
    if (details.action !== 'accept') return { reserved: false, reason: details.action === 'decline' ? 'You declined.' : 'Cancelled.' }
    return { reserved: true, restaurant: params.restaurant, time: time.content.time, ...details.content }
  })
