import { createMcpTool } from '@mcp-bridge/runtime'
import { z } from 'zod'

export const greet = createMcpTool('greet')
  .title('Greet someone')
  .description('Ask the user for a name and greet them.')
  .elicits({ askName: z.object({ name: z.string().min(1).max(40) }) })
  .execute(function* (_params, ctx) {
    const answer = yield* ctx.elicit('askName', { message: 'Who should I greet?' })
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : 'Nobody to greet.'
  })
