import { createPlugin, generatedForm } from '@mcp-bridge/runtime'
import { bookFlight } from '../../tools.ts'
import { FlightList } from '../../components.tsx'

export default createPlugin(bookFlight)
  .onElicit({
    *pickFlight(req, ctx) {
      return { action: 'accept', content: { flightId: yield* ctx.render(FlightList, { flights: req.context.flights }) } }
    },
    pickSeat: generatedForm,
  })
  .build()
