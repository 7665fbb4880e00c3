// @vitest-environment happy-dom
/**
 * The README's main example, verbatim in substance: if it stops compiling or rendering, this fails.
 */
import { render, screen } from '@testing-library/react'
import type { Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, createPlugin, type RenderedProps } from '../../src/index.ts'
import { GeneratedForm, ToolCallEmissions, useChat } from '../../src/react.ts'

const flight = z.object({ id: z.string(), airline: z.string(), departs: z.string(), price: z.number() })

function* searchFlights(_from: string, _to: string): Operation<z.infer<typeof flight>[]> {
  return [{ id: 'SH-142', airline: 'SkyHigh', departs: '08:00', price: 299 }]
}

const bookFlight = createMcpTool('book_flight')
  .description('Book a flight for the user')
  .parameters(z.object({ from: z.string(), destination: z.string() }))
  .elicits({
    pickFlight: { response: z.object({ flightId: z.string() }), context: z.object({ flights: z.array(flight) }) },
  })
  .execute(function* (params, ctx) {
    const flights = yield* searchFlights(params.from, params.destination)
    const picked = yield* ctx.elicit('pickFlight', { message: 'Select your flight', flights })
    if (picked.action !== 'accept') return { booked: false }
    return { booked: true, flightId: picked.content.flightId }
  })

type Props = { flights: z.infer<typeof flight>[] } & RenderedProps<{ flightId: string }>

function FlightList({ flights, onRespond, onCancel, errors }: Props) {
  return (
    <ul>
      {flights.map((f) => (
        <li key={f.id}>
          {f.airline} {f.id} · {f.departs} · ${f.price} <button onClick={() => onRespond({ flightId: f.id })}>Choose</button>
        </li>
      ))}
      {errors?.map((e) => (
        <p role="alert" key={e.path}>
          {e.message}
        </p>
      ))}
      <button onClick={onCancel}>None of these</button>
    </ul>
  )
}

const bookFlightPlugin = createPlugin(bookFlight)
  .onElicit({
    *pickFlight(req, ctx) {
      const answer = yield* ctx.render(FlightList, { flights: req.context.flights })
      return { action: 'accept', content: answer }
    },
  })
  .build()

function App() {
  const chat = useChat({ api: '/api/chat', plugins: [bookFlightPlugin.client] })
  return (
    <main>
      {chat.items.map((item) =>
        item.kind !== 'tool' ? (
          <p key={item.id} className={item.kind}>
            {item.text}
          </p>
        ) : (
          <section key={item.id} aria-label={item.toolName}>
            <ToolCallEmissions store={chat.store} callId={item.callId} />
            {item.error && <p role="alert">{item.error}</p>}
            {item.elicitation && !item.elicitation.handledByPlugin && (
              <GeneratedForm
                message={item.elicitation.request.message}
                schema={item.elicitation.request.schema}
                errors={item.elicitation.errors}
                onSubmit={(result) => chat.respond(item.callId, result)}
              />
            )}
            {item.status === 'awaiting_input' && <button onClick={() => chat.abort(item.callId)}>Cancel</button>}
          </section>
        ),
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void chat.sendMessage(new FormData(e.currentTarget).get('q') as string)
        }}
      >
        <input name="q" aria-label="Message" /> <button>Send</button>
      </form>
    </main>
  )
}

describe('README main example', () => {
  it('compiles and renders', () => {
    render(<App />)
    expect(screen.getByLabelText('Message')).toBeTruthy()
    expect(bookFlightPlugin.client.toolName).toBe('book_flight')
  })
})
