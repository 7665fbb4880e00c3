import { useState } from 'react'
import type { RenderedProps } from '@mcp-bridge/runtime'
import { SEAT_LETTERS } from '../data.ts'
import { ErrorList } from '../../../components/ErrorList.tsx'

type Seat = (typeof SEAT_LETTERS)[number]
type Props = { flightId: string; taken: string[]; rows: number } & RenderedProps<{ row: number; seat: Seat }>

export function SeatPicker({ flightId, taken, rows, onRespond, onCancel, errors }: Props) {
  const [selected, setSelected] = useState<{ row: number; seat: Seat }>()
  return (
    <section className="card" aria-label="Seat map">
      <h3>Choose a seat · {flightId}</h3>
      <div className="cabin" role="grid" aria-label="Cabin">
        {Array.from({ length: rows }, (_, i) => i + 1).map((row) => (
          <div className="cabin-row" role="row" key={row}>
            <span className="row-number" aria-hidden="true">
              {row}
            </span>
            {SEAT_LETTERS.map((seat, i) => {
              const label = `${row}${seat}`
              const isTaken = taken.includes(label)
              const isSelected = selected?.row === row && selected.seat === seat
              return (
                <button
                  key={seat}
                  role="gridcell"
                  className={`seat${isTaken ? ' taken' : ''}${isSelected ? ' selected' : ''}${i === 1 ? ' aisle' : ''}`}
                  disabled={isTaken}
                  aria-pressed={isSelected}
                  aria-label={`Seat ${label}${isTaken ? ', taken' : ''}`}
                  onClick={() => setSelected({ row, seat })}
                >
                  {seat}
                </button>
              )
            })}
          </div>
        ))}
      </div>
      <ErrorList errors={errors} />
      <div className="actions">
        <button disabled={!selected} onClick={() => selected && onRespond(selected)}>
          {selected ? `Confirm seat ${selected.row}${selected.seat}` : 'Pick a seat'}
        </button>
        <button className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  )
}
