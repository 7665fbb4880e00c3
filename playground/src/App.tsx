/**
 * The playground chat: messages stream in, tool calls appear inline with their UI (plugin
 * components or the fallback form), progress and logs update live, and a running tool can be
 * cancelled. The plugins come from the generated registry, never from a hand-written list.
 * The conversation is kept on the server (`id`): a reload, a second tab or a server restart
 * brings it back, with any question still waiting answerable; "New chat" starts over.
 */
import { useEffect, useState, type FormEvent } from 'react'
import { FallbackForm, ToolCallEmissions, useChat, useFollowLatest, type ToolItem, type UseChatResult } from '@mcp-bridge/runtime/react'
import { clientPlugins } from './mcp-bridge/client.gen.ts'

const EXAMPLES = ['Book a flight from New York to Los Angeles', 'Plan a day in Oslo', 'Pick a theme color', 'Rate my trip', 'Build a report']

const STATUS_TEXT: Record<UseChatResult['status'], string> = {
  idle: '',
  restoring: 'Restoring your conversation…',
  streaming: 'Thinking…',
  awaiting_input: 'Waiting for you',
  error: '',
}

export function App() {
  const chat = useChat({ api: '/api/chat', plugins: clientPlugins, id: 'playground' })
  const [draft, setDraft] = useState('')
  // The newest content stays in view above the composer, until the user scrolls up to read.
  const follow = useFollowLatest()
  const busy = chat.status === 'streaming'
  // Escape stops what is going on, like the Stop button.
  useEffect(() => {
    if (!busy) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') void chat.stop()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [busy, chat.stop])

  // A question is open: a new message would not be taken, so the composer says so and keeps the draft.
  const waiting = chat.items.some((i) => i.kind === 'tool' && i.status === 'awaiting_input')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!draft.trim() || chat.status === 'streaming' || waiting) return
    void chat.send(draft)
    setDraft('')
  }

  return (
    <div className="app">
      <header>
        <h1>mcp-bridge playground</h1>
        <p className="status" role="status" aria-live="polite">
          {STATUS_TEXT[chat.status]}
        </p>
        {chat.items.length > 0 && (
          <button className="secondary small" onClick={() => chat.newConversation()}>
            New chat
          </button>
        )}
      </header>
      <main className="messages" aria-live="polite" ref={follow.contentRef}>
        {chat.items.length === 0 && chat.status !== 'restoring' && (
          <div className="empty">
            <p>Try one of these:</p>
            {EXAMPLES.map((e) => (
              <button key={e} className="secondary" onClick={() => void chat.send(e)}>
                {e}
              </button>
            ))}
          </div>
        )}
        {chat.items.map((item) =>
          item.kind === 'tool' ? (
            <ToolCall key={item.id} item={item} chat={chat} />
          ) : item.kind === 'user' && item.failed ? (
            <div key={item.id} className="bubble-row failed">
              <p className="bubble user">{item.text}</p>
              <p className="failed-note">
                Not sent.{' '}
                <button className="secondary small" onClick={() => void chat.retry(item.id)}>
                  Retry
                </button>
              </p>
            </div>
          ) : (
            <p key={item.id} className={`bubble ${item.kind}`}>
              {item.text}
            </p>
          ),
        )}
        {chat.error && (
          <p className="error" role="alert">
            {chat.error.message}
          </p>
        )}
      </main>
      {!follow.following && (
        <button className="jump secondary small" onClick={follow.jumpToLatest}>
          Jump to latest ↓
        </button>
      )}
      <form className="composer" onSubmit={submit}>
        {waiting && (
          <p className="composer-hint" id="composer-hint">
            Answer or cancel the question above first.
          </p>
        )}
        <input
          aria-label="Message"
          placeholder="Ask me to book a flight…"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          {...(waiting && { 'aria-describedby': 'composer-hint' })}
        />
        {busy ? (
          <button type="button" className="secondary" onClick={() => void chat.stop()} aria-keyshortcuts="Escape">
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!draft.trim() || waiting}>
            Send
          </button>
        )}
      </form>
    </div>
  )
}

function ToolCall({ item, chat }: { item: ToolItem; chat: UseChatResult }) {
  const running = item.status === 'running' || item.status === 'awaiting_input'
  const progress = item.progress
  return (
    <section className={`tool ${item.status}`} aria-label={`Tool ${item.toolName}`} data-status={item.status}>
      <div className="tool-head">
        <span className="tool-name">{item.toolName}</span>
        <span className="tool-status">{item.status.replace('_', ' ')}</span>
        {running && (
          <button className="secondary small" onClick={() => void chat.abort(item.callId)} aria-label={`Cancel ${item.toolName}`}>
            Cancel
          </button>
        )}
      </div>
      {progress && (
        <div className="progress">
          <span>{progress.message}</span>
          {progress.total !== undefined && <progress max={progress.total} value={progress.progress ?? 0} aria-label={progress.message} />}
        </div>
      )}
      {item.logs.length > 0 && (
        <details className="logs">
          <summary>Logs ({item.logs.length})</summary>
          <ul>
            {item.logs.map((l, i) => (
              <li key={i}>
                [{l.level}] {l.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <ToolCallEmissions store={chat.store} callId={item.callId} />
      {item.elicitation && !item.elicitation.handledByPlugin && (
        <FallbackForm
          message={item.elicitation.request.message}
          schema={item.elicitation.request.schema}
          {...(item.elicitation.errors && { errors: item.elicitation.errors })}
          disabled={item.elicitation.submitting}
          onSubmit={(result) => void chat.respond(item.callId, result)}
        />
      )}
      {item.status === 'completed' && isBooking(item.result) && <Confirmation booking={item.result} />}
      {item.error && (
        <p className="error" role="alert">
          {item.error}
        </p>
      )}
    </section>
  )
}

interface Booking {
  booked: true
  ticketNumber: string
  flight: string
  seat: string
  price: number
  route: string
  departs: string
}

function isBooking(value: unknown): value is Booking {
  return typeof value === 'object' && value !== null && (value as { booked?: unknown }).booked === true
}

function Confirmation({ booking }: { booking: Booking }) {
  return (
    <div className="card confirmation" aria-label="Booking confirmation">
      <h3>Booking confirmed</h3>
      <dl>
        <dt>Ticket</dt>
        <dd>{booking.ticketNumber}</dd>
        <dt>Flight</dt>
        <dd>
          {booking.flight} · {booking.route} · {booking.departs}
        </dd>
        <dt>Seat</dt>
        <dd>{booking.seat}</dd>
        <dt>Price</dt>
        <dd>${booking.price}</dd>
      </dl>
    </div>
  )
}
