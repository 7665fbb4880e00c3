/** The waiting benchmarks' tool: a step (a fare reserved) and a question (confirm). */
import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

export const bookFare = createMcpTool('book')
  .parameters(z.object({ route: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    const fare = yield* ctx.step('reserve fare', function* () {
      return { fareId: `F-${params.route}`, price: 120 }
    })
    const answer = yield* ctx.elicit('confirm', { message: `Book ${fare.fareId}?` })
    return { booked: answer.action === 'accept', fare: fare.fareId }
  })
