import { createPlugin } from '@mcp-bridge/runtime'
import { ActivityPicker } from './components/ActivityPicker.tsx'
import { planTrip, tripHandoff } from './tool.ts'

export const planTripPlugin = createPlugin(planTrip)
  .onElicit({
    *pickActivity(req, ctx) {
      // The handoff value is JSON from the server: read it through its schema, typed. The
      // activities come with the question as its context too (for plain MCP forms).
      const trip = tripHandoff.parse(req.handoff)
      const answer = yield* ctx.render(ActivityPicker, { city: req.params.city, date: req.params.date, lookupId: trip.lookupId, activities: req.context.activities })
      return { action: 'accept', content: answer }
    },
  })
  .build()
