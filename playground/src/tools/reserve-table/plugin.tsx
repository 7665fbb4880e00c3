import { generatedForm, createPlugin } from '@mcp-bridge/runtime'
import { TimeSlots } from './components/TimeSlots.tsx'
import { reserveTable } from './tool.ts'

export const reserveTablePlugin = createPlugin(reserveTable)
  .onElicit({
    *pickTime(req, ctx) {
      const answer = yield* ctx.render(TimeSlots, { slots: req.context.slots })
      return { action: 'accept', content: answer }
    },
    // No component of our own: the form generated from the key's schema asks it.
    details: generatedForm,
  })
  .build()
