import { useRef, useState, type KeyboardEvent } from 'react'
import type { RenderedProps } from '@mcp-bridge/runtime'
import { SEAT_LETTERS } from '../data.ts'
import { ErrorList } from '../../../components/ErrorList.tsx'

type Seat = (typeof SEAT_LETTERS)[number]
type Props = { flightId: string; taken: string[]; rows: number } & RenderedProps<{ row: number; seat: Seat }>
type Position = { row: number; col: number }

const MOVES: Record<string, (p: Position, rows: number) => Position> = {
  ArrowUp: (p) => ({ ...p, row: Math.max(1, p.row - 1) }),
  ArrowDown: (p, rows) => ({ ...p, row: Math.min(rows, p.row + 1) }),
  ArrowLeft: (p) => ({ ...p, col: Math.max(0, p.col - 1) }),
  ArrowRight: (p) => ({ ...p, col: Math.min(SEAT_LETTERS.length - 1, p.col + 1) }),
  Home: (p) => ({ ...p, col: 0 }),
  End: (p) => ({ ...p, col: SEAT_LETTERS.length - 1 }),
}

/**
 * The cabin as a grid: one Tab stop (arrow keys, Home and End move within it; Enter or Space
 * picks), taken seats focusable but unavailable, marked with a cross as well as a colour, and a
 * legend. The choice is confirmed with its own button.
 */
export function SeatPicker({ flightId, taken, rows, onRespond, onCancel, errors, sending }: Props) {
  const [selected, setSelected] = useState<{ row: number; seat: Seat }>()
  const isTaken = (row: number, seat: Seat) => taken.includes(`${row}${seat}`)
  const firstFree = (() => {
    for (let row = 1; row <= rows; row++) for (let col = 0; col < SEAT_LETTERS.length; col++) if (!isTaken(row, SEAT_LETTERS[col]!)) return { row, col }
    return { row: 1, col: 0 }
  })()
  const [active, setActive] = useState<Position>(firstFree)
  const grid = useRef<HTMLDivElement>(null)

  const onKeyDown = (event: KeyboardEvent) => {
    const move = MOVES[event.key]
    if (!move) return
    event.preventDefault()
    const next = move(active, rows)
    setActive(next)
    grid.current?.querySelector<HTMLButtonElement>(`[data-seat="${next.row}${SEAT_LETTERS[next.col]}"]`)?.focus()
  }

  return (
    <section className="card" aria-label="Seat map">
      <h3>Choose a seat · {flightId}</h3>
      <ul className="legend" aria-label="Legend">
        <li>
          <span className="seat" aria-hidden="true">
            A
          </span>{' '}
          Free
        </li>
        <li>
          <span className="seat taken" aria-hidden="true">
            ×
          </span>{' '}
          Taken
        </li>
        <li>
          <span className="seat selected" aria-hidden="true">
            A
          </span>{' '}
          Your pick
        </li>
      </ul>
      <div className="cabin" role="grid" aria-label="Cabin: arrow keys move, Enter picks" ref={grid} onKeyDown={onKeyDown}>
        {Array.from({ length: rows }, (_, i) => i + 1).map((row) => (
          <div className="cabin-row" role="row" key={row}>
            <span className="row-number" role="rowheader" aria-label={`Row ${row}`}>
              {row}
            </span>
            {SEAT_LETTERS.map((seat, col) => {
              const label = `${row}${seat}`
              const unavailable = isTaken(row, seat)
              const isSelected = selected?.row === row && selected.seat === seat
              return (
                <span role="gridcell" key={seat} className={col === 1 ? 'aisle-cell' : undefined}>
                  <button
                    data-seat={label}
                    className={`seat${unavailable ? ' taken' : ''}${isSelected ? ' selected' : ''}${col === 1 ? ' aisle' : ''}`}
                    tabIndex={active.row === row && active.col === col ? 0 : -1}
                    aria-disabled={unavailable || undefined}
                    aria-pressed={isSelected}
                    aria-label={`Seat ${label}${unavailable ? ', taken' : ''}`}
                    onFocus={() => setActive({ row, col })}
                    onClick={() => !unavailable && !sending && setSelected({ row, seat })}
                  >
                    {unavailable ? '×' : seat}
                  </button>
                </span>
              )
            })}
          </div>
        ))}
      </div>
      <ErrorList errors={errors} />
      <div className="actions">
        <button disabled={!selected || sending} onClick={() => selected && onRespond(selected)}>
          {selected ? `Confirm seat ${selected.row}${selected.seat}` : 'Pick a seat'}
        </button>
        <button className="secondary" onClick={onCancel} disabled={sending}>
          Cancel
        </button>
      </div>
    </section>
  )
}
