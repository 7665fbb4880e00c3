import { forwardRef, useLayoutEffect, useRef, useImperativeHandle, useState, type FormEvent, type KeyboardEvent } from 'react'

interface Props {
  /** A response streams or tools run: Stop replaces Send. */
  busy: boolean
  /** A question is open: the message would not be taken, so the composer says so and keeps the draft. */
  waiting: boolean
  /** What changed without this window (another one answered, the server finished a call): said where the person acts, never a silent switch. */
  notice?: string | undefined
  onDismissNotice(): void
  onSend(text: string): void
  onStop(): void
}

/** At most this many lines tall; it scrolls beyond. */
const MAX_HEIGHT = 200

/**
 * The message box: a textarea that grows with its text (up to MAX_HEIGHT), Enter sends and
 * Shift+Enter starts a new line (Enter while an IME composes a word is left to the IME).
 */
export const Composer = forwardRef<HTMLTextAreaElement, Props>(function Composer({ busy, waiting, notice, onDismissNotice, onSend, onStop }, ref) {
  const [draft, setDraft] = useState('')
  const box = useRef<HTMLTextAreaElement>(null)
  useImperativeHandle(ref, () => box.current!, [])

  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`
  }, [draft])

  const canSend = draft.trim() !== '' && !busy && !waiting
  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    if (!canSend) return
    onSend(draft)
    setDraft('')
  }
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }

  return (
    <form className="composer" onSubmit={submit}>
      <div className="notice-slot" aria-live="polite">
        {notice && (
          <p className="notice">
            <span>{notice}</span>
            <button type="button" className="secondary small" aria-label="Dismiss the notice" onClick={onDismissNotice}>
              Dismiss
            </button>
          </p>
        )}
      </div>
      {waiting && (
        <p className="composer-hint" id="composer-hint">
          Answer or cancel the question above first.
        </p>
      )}
      <textarea
        ref={box}
        rows={1}
        aria-label="Message"
        placeholder="Ask me to book a flight…"
        autoFocus
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        aria-describedby={waiting ? 'composer-hint' : 'composer-keys'}
      />
      <span id="composer-keys" className="sr-only">
        Enter sends; Shift+Enter adds a line.
      </span>
      {busy ? (
        <button
          type="button"
          className="secondary"
          // The button goes away with the response: focus goes to the message box, not to <body>.
          onClick={() => {
            onStop()
            box.current?.focus({ preventScroll: true })
          }}
          aria-keyshortcuts="Escape"
        >
          Stop
        </button>
      ) : (
        <button type="submit" disabled={!canSend}>
          Send
        </button>
      )}
    </form>
  )
})
