import { createPlugin } from '@mcp-bridge/runtime'
import { ColorPicker } from './components/ColorPicker.tsx'
import { chooseColor } from './tool.ts'

export const chooseColorPlugin = createPlugin(chooseColor)
  .onElicit({
    *pick(req, ctx) {
      const answer = yield* ctx.render(ColorPicker, { initial: req.context.defaultColor })
      return { action: 'accept', content: answer }
    },
  })
  .build()
