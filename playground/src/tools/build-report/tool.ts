import { sleep } from 'effection'
import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

/** A plain tool: no questions, but live progress and logs. */
export const buildReport = createMcpTool('build_report')
  .title('Build a report')
  .annotations({ readOnlyHint: true, idempotentHint: true, openWorldHint: false })
  .description('Compile a travel report, step by step.')
  .parameters(z.object({ steps: z.int().min(1).max(20).default(5) }))
  .elicits({})
  .execute(function* (params, ctx) {
    for (let step = 1; step <= params.steps; step++) {
      yield* ctx.log('info', `Step ${step}: gathering section ${step}`)
      yield* ctx.notify(`Section ${step} of ${params.steps}`, step, params.steps)
      yield* sleep(150)
    }
    return { sections: params.steps, summary: `Report with ${params.steps} sections is ready.` }
  })
