import { useRef, useState, type ReactNode } from 'react'
import { CopyButton } from './CopyButton.tsx'

/** When a message was sent, as people read it: the time today, the date before. */
function when(at: number): string {
  const date = new Date(at)
  const today = new Date().toDateString() === date.toDateString()
  return today ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : date.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })
}

/** The line under a message: when it was sent, Copy, and what else it offers (Edit, Regenerate). `whose`: "what you wrote" or "the reply". */
export function MessageActions({ text, at, whose, children }: { text: string; at: number | undefined; whose: string; children?: ReactNode }) {
  const start = text.replace(/\s+/g, ' ').trim()
  return (
    <div className="message-actions">
      {at !== undefined && <time dateTime={new Date(at).toISOString()}>{when(at)}</time>}
      <CopyButton text={text} what={`${whose} “${start.length > 40 ? `${start.slice(0, 40)}…` : start}”`} />
      {children}
    </div>
  )
}

/**
 * The last message, edited in place: Send replaces the last turn with the new text (the reply
 * to the old one goes), Cancel (or Escape) leaves it as it was.
 */
export function EditMessage({ text, onSend, onCancel }: { text: string; onSend: (text: string) => void; onCancel: () => void }) {
  const [draft, setDraft] = useState(text)
  const field = useRef<HTMLTextAreaElement>(null)
  return (
    <form
      className="edit-message"
      onSubmit={(event) => {
        event.preventDefault()
        if (draft.trim()) onSend(draft)
      }}
    >
      <label className="sr-only" htmlFor="edit-last-message">
        Edit your message
      </label>
      <textarea
        id="edit-last-message"
        ref={field}
        autoFocus
        value={draft}
        rows={Math.min(6, Math.max(2, draft.split('\n').length))}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel()
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault()
            if (draft.trim()) onSend(draft)
          }
        }}
      />
      <div className="edit-buttons">
        <button type="button" className="secondary small" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="small" disabled={!draft.trim()}>
          Send
        </button>
      </div>
    </form>
  )
}
