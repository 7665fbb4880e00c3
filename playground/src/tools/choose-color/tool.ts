import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

/** The answer must be a #rrggbb color; invalid input is refused in the picker and never sent. */
export const chooseColor = createMcpTool('choose_color')
  .title('Pick a color')
  .annotations({ readOnlyHint: true, openWorldHint: false })
  .returns(z.object({ chosen: z.boolean(), color: z.string().optional(), name: z.string().nullable().optional() }))
  .description('Ask the user to pick a theme color.')
  .parameters(z.object({ purpose: z.string().default('your theme') }))
  .elicits({
    pick: {
      response: z.object({
        color: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/, 'Use a hex color like #3b82f6')
          .describe('A hex color such as #3b82f6'),
        name: z.string().max(40).optional().describe('A name for it (optional)'),
      }),
      context: z.object({ defaultColor: z.string() }),
    },
  })
  .plainForm({ pick: { summary: ({ defaultColor }) => `The current color is ${defaultColor}.` } })
  .execute(function* (params, ctx) {
    const answer = yield* ctx.elicit('pick', { message: `Please select a color for ${params.purpose}`, defaultColor: '#3b82f6' })
    if (answer.action !== 'accept') return { chosen: false }
    return { chosen: true, color: answer.content.color, name: answer.content.name ?? null }
  })
