/**
 * The book_flight plugin as a browser app registers it (components that render nothing: tests
 * answer through the emission store), and waits on a chat controller's state — shared by the
 * tests that drive the controller against the real chat handler.
 */
import { createPlugin, type RenderedProps } from '../../src/index.ts'
import type { ChatController, Emission } from '../../src/client.ts'
import { bookFlight, type Flight } from '../fixtures/book-flight.ts'

export function FlightList(_: { flights: Flight[] } & RenderedProps<{ flightId: string }>) {
  return null
}
export function SeatPicker(_: { taken: string[] } & RenderedProps<{ row: number; seat: 'A' | 'B' | 'C' | 'D' }>) {
  return null
}
export const bookingPlugin = createPlugin(bookFlight)
  .onElicit({
    *pickFlight(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(FlightList, { flights: req.context.flights }) }
    },
    *pickSeat(req, ctx) {
      return { action: 'accept', content: yield* ctx.render(SeatPicker, { taken: req.context.taken }) }
    },
  })
  .build()

/** The next emission of `component` in the chat's store (one already shown counts). */
export function nextEmission(chat: ChatController, component: unknown): Promise<Emission> {
  return new Promise((resolve) => {
    const check = () => {
      const e = chat.store.getSnapshot().emissions.find((x) => x.component === component)
      if (e) {
        off()
        resolve(e)
      }
    }
    const off = chat.store.subscribe(check)
    check()
  })
}

/** Resolves once `predicate` holds for the chat's state. */
export function until(chat: ChatController, predicate: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => predicate() && (off(), resolve())
    const off = chat.subscribe(check)
    check()
  })
}
