import { createPlugin } from '@mcp-bridge/runtime'
import { FlightList } from './components/FlightList.tsx'
import { SeatPicker } from './components/SeatPicker.tsx'
import { bookFlight } from './tool.ts'

export const bookFlightPlugin = createPlugin(bookFlight)
  .onElicit({
    *pickFlight(req, ctx) {
      const answer = yield* ctx.render(FlightList, { flights: req.context.flights, route: req.context.route })
      return 'declined' in answer ? { action: 'decline' } : { action: 'accept', content: answer }
    },
    *pickSeat(req, ctx) {
      const answer = yield* ctx.render(SeatPicker, { flightId: req.context.flightId, taken: req.context.taken, rows: req.context.rows })
      return { action: 'accept', content: answer }
    },
  })
  .build()
