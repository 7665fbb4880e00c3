import type { RenderedProps } from '@mcp-bridge/runtime'
import type { Flight } from '../data.ts'
import { ErrorList } from '../../../components/ErrorList.tsx'

/** The answer: a flight, or an explicit "not now" (a decline, which the tool handles). */
export type FlightChoice = { flightId: string } | { declined: true }
type Props = { flights: Flight[]; route: string } & RenderedProps<FlightChoice>

export function FlightList({ flights, route, onRespond, onCancel, errors }: Props) {
  return (
    <section className="card" aria-label="Flights">
      <h3>
        <span aria-hidden="true">✈️</span> Flights {route}
      </h3>
      <ul className="flight-list">
        {flights.map((f) => (
          <li key={f.id}>
            <button className="flight" onClick={() => onRespond({ flightId: f.id })}>
              <span className="airline">{f.airline}</span>
              <span className="number">{f.id}</span>
              <span className="times">
                {f.departs} – {f.arrives}
              </span>
              <span className="price">${f.price}</span>
            </button>
          </li>
        ))}
      </ul>
      <ErrorList errors={errors} />
      <div className="actions">
        <button className="secondary" onClick={() => onRespond({ declined: true })}>
          Not now
        </button>
        <button className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}
