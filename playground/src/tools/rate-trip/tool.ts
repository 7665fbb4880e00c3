import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

/** No plugin on purpose: the chat shows the generated form built from the schema. */
export const rateTrip = createMcpTool('rate_trip')
  .title('Rate your trip')
  .annotations({ readOnlyHint: true, openWorldHint: false })
  .description('Ask the user to rate their last trip.')
  .elicits({
    rating: z.object({
      stars: z.int().min(1).max(5).describe('1 to 5'),
      email: z.email().optional().describe('For a follow-up'),
      cabin: z.enum(['economy', 'premium', 'business']).default('economy'),
      liked: z.array(z.enum(['food', 'crew', 'seat', 'wifi'])).max(3),
      recommend: z.boolean().default(true),
    }),
  })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('rating', { message: 'How was your trip?' })
    return answer.action === 'accept' ? { thanks: true, ...answer.content } : { thanks: false }
  })
