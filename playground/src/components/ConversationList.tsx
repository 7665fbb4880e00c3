import { useState } from 'react'
import type { UseChatResult } from '@mcp-bridge/runtime/react'

type Conversation = UseChatResult['conversations'][number]

/**
 * The conversations this browser keeps (`chat.conversations`), by the day they were last used:
 * open one as it was, rename it, delete it (on the server too, after a second click that says
 * what goes). New chat never loses the one on screen: it is listed here.
 */
export function ConversationList({ chat, onOpened }: { chat: UseChatResult; onOpened(): void }) {
  const [editing, setEditing] = useState<string | undefined>()
  const [deleting, setDeleting] = useState<string | undefined>()
  const [draft, setDraft] = useState('')
  const days = byDay(chat.conversations)
  return (
    <nav className="chats" aria-label="Conversations">
      {days.map(({ day, conversations }) => (
        <section key={day} aria-label={day}>
          <h2 className="chats-day">{day}</h2>
          <ul>
            {conversations.map((c) => (
              <li key={c.id} className={c.current ? 'current' : undefined}>
                {editing === c.id ? (
                  <form
                    className="chat-rename"
                    onSubmit={(event) => {
                      event.preventDefault()
                      chat.renameConversation(c.id, draft)
                      setEditing(undefined)
                    }}
                  >
                    <input aria-label={`New title for ${c.title}`} value={draft} maxLength={200} onChange={(e) => setDraft(e.target.value)} autoFocus />
                    <button type="submit" className="small">
                      Save
                    </button>
                    <button type="button" className="secondary small" onClick={() => setEditing(undefined)}>
                      Keep
                    </button>
                  </form>
                ) : deleting === c.id ? (
                  // Deleting cannot be undone (its calls are cancelled, the server forgets it): ask once more, in place.
                  <div className="chat-delete" role="group" aria-label={`Delete ${c.title}?`}>
                    <span className="chat-delete-question">Delete “{c.title}” for good?</span>
                    <button
                      type="button"
                      className="danger small"
                      autoFocus
                      onClick={() => {
                        setDeleting(undefined)
                        void chat.deleteConversation(c.id)
                      }}
                    >
                      Delete
                    </button>
                    <button type="button" className="secondary small" onClick={() => setDeleting(undefined)}>
                      Keep
                    </button>
                  </div>
                ) : (
                  <>
                    <button
                      className="chat-title secondary"
                      aria-current={c.current ? 'page' : undefined}
                      onClick={() => {
                        void chat.openConversation(c.id)
                        onOpened()
                      }}
                    >
                      {c.title}
                    </button>
                    <time className="chat-time" dateTime={new Date(c.updatedAt).toISOString()}>
                      {timeOf(c.updatedAt)}
                    </time>
                    <button
                      className="secondary small"
                      aria-label={`Rename ${c.title}`}
                      onClick={() => {
                        setEditing(c.id)
                        setDraft(c.title)
                      }}
                    >
                      Rename
                    </button>
                    <button className="secondary small" aria-label={`Delete ${c.title}`} onClick={() => setDeleting(c.id)}>
                      Delete
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  )
}

/** The conversations grouped by the day they were last used, newest first: Today, Yesterday, then dates. */
function byDay(conversations: readonly Conversation[]): Array<{ day: string; conversations: Conversation[] }> {
  const days: Array<{ day: string; conversations: Conversation[] }> = []
  for (const c of conversations) {
    const day = dayOf(c.updatedAt)
    const last = days.at(-1)
    if (last?.day === day) last.conversations.push(c)
    else days.push({ day, conversations: [c] })
  }
  return days
}

function dayOf(at: number): string {
  const startOfToday = new Date().setHours(0, 0, 0, 0)
  if (at >= startOfToday) return 'Today'
  if (at >= startOfToday - 86_400_000) return 'Yesterday'
  return new Date(at).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' })
}

function timeOf(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
}
