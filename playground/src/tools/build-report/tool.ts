import { sleep } from 'effection'
import { createMcpTool, withContent } from '@mcp-bridge/runtime'
import { z } from 'zod'

/**
 * A plain tool: no questions, but live progress and logs. A thorough report takes its time (a
 * second or more a section): long enough to reload the page, see its progress come back and stop it.
 */
export const buildReport = createMcpTool('build_report')
  .title('Build a report')
  .annotations({ readOnlyHint: true, idempotentHint: true, openWorldHint: false })
  .description('Compile a travel report, step by step.')
  .parameters(
    z.object({
      steps: z.int().min(1).max(20).default(5),
      secondsPerStep: z.number().min(0.05).max(5).default(0.15).describe('How long each section takes to gather, in seconds'),
    }),
  )
  .returns(z.object({ sections: z.int(), summary: z.string() }))
  .elicits({})
  .execute(function* (params, ctx) {
    for (let step = 1; step <= params.steps; step++) {
      yield* ctx.log('info', `Step ${step}: gathering section ${step}`)
      yield* ctx.notify(`Section ${step} of ${params.steps}`, step, params.steps)
      yield* sleep(Math.round(params.secondsPerStep * 1000))
    }
    const summary = `Report with ${params.steps} ${params.steps === 1 ? 'section' : 'sections'} is ready.`
    // Text for every reader, a chart for those that show images (MCP clients, the chat's tool card).
    return withContent(
      [
        { type: 'text', text: summary },
        { type: 'image', data: btoa(chart(params.steps)), mimeType: 'image/svg+xml' },
      ],
      { sections: params.steps, summary },
    )
  })

/** A small bar chart of the sections, as SVG. */
function chart(sections: number): string {
  const bars = Array.from(
    { length: sections },
    (_, i) => `<rect x="${8 + i * 14}" y="${60 - ((i * 7) % 40) - 12}" width="10" height="${((i * 7) % 40) + 12}" fill="#2563eb"/>`,
  ).join('')
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${16 + sections * 14}" height="64" role="img"><title>Sections of the report</title>${bars}</svg>`
}
