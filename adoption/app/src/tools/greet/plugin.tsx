import { createPlugin } from '@mcp-bridge/runtime'
import { NameForm } from './NameForm.tsx'
import { greet } from './tool.ts'

export const greetPlugin = createPlugin(greet)
  .onElicit({
    *askName(_req, ctx) {
      return { action: 'accept', content: yield* ctx.render(NameForm, {}) }
    },
  })
  .build()
