import type { RenderedProps } from '@mcp-bridge/runtime'
import type { Activity } from '../data.ts'
import { ErrorList } from '../../../components/ErrorList.tsx'

type Props = { city: string; date: string | undefined; lookupId: string; activities: Activity[] } & RenderedProps<{ activityId: string }>

/** Shows what `before` found (the handoff value) and what the model asked for (the call's params). */
export function ActivityPicker({ city, date, lookupId, activities, onRespond, onCancel, errors }: Props) {
  return (
    <section className="card" aria-label="Activity picker">
      <h3>
        A day in {city}
        {date ? ` · ${date}` : ''}
      </h3>
      <p className="muted">
        {activities.length} activities found by lookup <code>{lookupId}</code>
      </p>
      <ul className="activities">
        {activities.map((a) => (
          <li key={a.id}>
            <button className="activity" onClick={() => onRespond({ activityId: a.id })}>
              <strong>{a.name}</strong> · {a.hours} h · {a.price === 0 ? 'free' : `$${a.price}`}
            </button>
          </li>
        ))}
      </ul>
      <ErrorList errors={errors} />
      <div className="actions">
        <button className="secondary" onClick={onCancel}>
          Not today
        </button>
      </div>
    </section>
  )
}
