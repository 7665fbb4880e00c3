import type { RenderedProps } from '@mcp-bridge/runtime'
import type { Flight } from './tools.ts'

export function FlightList({ flights, onRespond }: RenderedProps<string> & { flights: Flight[] }) {
  return flights.map((f) => <button key={f.id} onClick={() => onRespond(f.id)}>{f.airline}</button>)
}

export function SeatMap({ onRespond }: RenderedProps<{ row: number; seat: 'A' | 'B' | 'C' | 'D' }>) {
  return <button onClick={() => onRespond({ row: 3, seat: 'B' })}>3B</button>
}
