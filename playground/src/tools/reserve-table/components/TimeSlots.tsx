import type { RenderedProps } from '@mcp-bridge/runtime'
import { ErrorList } from '../../../components/ErrorList.tsx'

type Props = { slots: Array<{ time: string; free: boolean }> } & RenderedProps<{ time: string }>

/** The free times as buttons; a taken one is shown (struck through, "taken") but cannot be chosen. */
export function TimeSlots({ slots, onRespond, onCancel, errors, sending }: Props) {
  return (
    <section className="card" aria-label="Pick a time">
      <h3>Pick a time</h3>
      <div className="slots">
        {slots.map((s) => (
          <button
            key={s.time}
            className={`slot${s.free ? '' : ' taken'}`}
            disabled={!s.free || sending}
            onClick={() => onRespond({ time: s.time })}
            aria-label={s.free ? s.time : `${s.time}, taken`}
          >
            {s.time}
          </button>
        ))}
      </div>
      <ErrorList errors={errors ?? []} />
      <div className="actions">
        <button className="secondary" onClick={onCancel} disabled={sending}>
          Cancel
        </button>
      </div>
    </section>
  )
}
