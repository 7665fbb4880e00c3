/**
 * The playground chat: messages stream in, tool calls appear inline with their UI (plugin
 * components or the generated form), progress and logs update live, and a running tool can be
 * cancelled. The plugins come from the generated registry, never from a hand-written list.
 * The conversation is kept on the server (`id`): a reload, a second tab or a server restart
 * brings it back, with any question still waiting answerable; "New chat" starts over.
 *
 * For people using a screen reader: the transcript is a `log` that announces new messages (a
 * streaming reply once it is complete, via `aria-busy`), each message says who speaks, a new
 * question takes the focus and the composer gets it back when nothing waits any more.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useChat, useFollowLatest, type UseChatResult } from '@mcp-bridge/runtime/react'
import { clientPlugins } from './mcp-bridge/client.gen.ts'
import { Composer } from './components/Composer.tsx'
import { ToolCard } from './components/ToolCard.tsx'
import { ConversationList } from './components/ConversationList.tsx'
import { UserMenu } from './components/UserMenu.tsx'
import { EditMessage, MessageActions } from './components/MessageActions.tsx'

// The markdown renderer loads with the first reply, in its own chunk (the first page stays small).
const Markdown = lazy(() => import('./components/Markdown.tsx').then((m) => ({ default: m.Markdown })))

const EXAMPLES = [
  'Book a flight from New York to Los Angeles',
  'Plan a day in Oslo',
  'Reserve a table for dinner',
  'Pick a theme color',
  'Rate my trip',
  'Build a report',
  'Build a thorough report',
]

const STATUS_TEXT: Record<UseChatResult['status'], string> = {
  ready: '',
  restoring: 'Restoring your conversation…',
  streaming: 'Thinking…',
  awaiting_input: 'Waiting for you',
  error: '',
}

export function App() {
  const chat = useChat({ api: '/api/chat', plugins: clientPlugins, id: 'playground' })
  const composer = useRef<HTMLTextAreaElement>(null)
  const [showChats, setShowChats] = useState(false)
  // The last message, while it is being edited (its id).
  const [editing, setEditing] = useState<string | undefined>()
  // The newest content stays in view above the composer, until the user scrolls up to read.
  const follow = useFollowLatest()
  // Sending takes you to your message, wherever you had scrolled to read (and the reply follows).
  const send = (text: string) => {
    follow.jumpToLatest()
    void chat.sendMessage(text)
  }
  const busy = chat.status === 'streaming'
  const waiting = chat.items.some((i) => i.kind === 'tool' && i.status === 'awaiting_input')
  const lastId = chat.items.at(-1)?.id
  // Between sending and the first word of the reply (or the first tool card): show that work goes on.
  const working = busy && chat.items.at(-1)?.kind === 'user'
  // The last turn may be replaced (edit the last message, regenerate the last reply) once nothing of
  // it goes on — and only a turn of words: one whose tools did something (a booking) keeps its record.
  const lastUser = chat.items.findLast((i) => i.kind === 'user')
  const lastTurnUsedTools = chat.items.slice(lastUser ? chat.items.indexOf(lastUser) : 0).some((i) => i.kind === 'tool')
  const settled = chat.status === 'ready' && !lastTurnUsedTools
  const lastItem = chat.items.at(-1)
  const editLast = (text: string) => {
    setEditing(undefined)
    follow.jumpToLatest()
    void chat.editLastMessage(text)
  }

  // Escape stops what is going on, like the Stop button.
  const { stop } = chat
  useEffect(() => {
    if (!busy) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') void stop()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [busy, stop])

  // The tab says which chat this is, and that it waits for you (seen from another tab).
  const current = chat.conversations.find((c) => c.current)?.title
  useEffect(() => {
    document.title = [waiting && 'Waiting for you', current, 'mcp-bridge playground'].filter(Boolean).join(' · ')
  }, [current, waiting])

  // Questions took the focus; once none waits and the reply is done, it goes back to the composer.
  const hadQuestion = useRef(false)
  useEffect(() => {
    if (waiting) hadQuestion.current = true
    else if (hadQuestion.current && !busy) {
      hadQuestion.current = false
      composer.current?.focus({ preventScroll: true })
    }
  }, [waiting, busy])

  // Two cards of one tool are two landmarks: the second is "Build a report (2)", so each has its own name.
  const cardLabels = new Map<string, string>()
  const seen = new Map<string, number>()
  for (const item of chat.items) {
    if (item.kind !== 'tool') continue
    const n = (seen.get(item.title) ?? 0) + 1
    seen.set(item.title, n)
    cardLabels.set(item.id, n === 1 ? item.title : `${item.title} (${n})`)
  }

  return (
    <div className="app">
      <header>
        <h1>
          mcp-bridge<span className="title-rest"> playground</span>
        </h1>
        <p className="status" role="status">
          {STATUS_TEXT[chat.status]}
        </p>
        {chat.conversations.length > 0 && (
          <button className="secondary small" aria-expanded={showChats} onClick={() => setShowChats((shown) => !shown)}>
            Chats
          </button>
        )}
        {chat.items.length > 0 && (
          <button className="secondary small" onClick={() => chat.newConversation()}>
            New chat
          </button>
        )}
        <UserMenu />
      </header>
      {showChats && <ConversationList chat={chat} onOpened={() => setShowChats(false)} />}
      {/* The main landmark holds the conversation (a log) and the composer, so all content is in landmarks. */}
      <main>
        <section className="messages" role="log" aria-label="Conversation" aria-relevant="additions" ref={follow.contentRef}>
          {chat.items.length === 0 && chat.status !== 'restoring' && (
            <div className="empty">
              <p>Try one of these:</p>
              {EXAMPLES.map((e) => (
                <button key={e} className="secondary" onClick={() => send(e)}>
                  {e}
                </button>
              ))}
            </div>
          )}
          {chat.items.map((item) =>
            item.kind === 'tool' ? (
              <ToolCard key={item.id} item={item} chat={chat} label={cardLabels.get(item.id)} />
            ) : item.kind === 'user' ? (
              <div key={item.id} className={`bubble-row user${item.failed ? ' failed' : ''}`}>
                <span className="sr-only">You: </span>
                {editing === item.id ? <EditMessage text={item.text} onSend={editLast} onCancel={() => setEditing(undefined)} /> : <div className="bubble user">{item.text}</div>}
                {!item.failed && editing !== item.id && (
                  <MessageActions text={item.text} at={item.at} whose="what you wrote">
                    {settled && item === lastUser && (
                      <button type="button" className="action" onClick={() => setEditing(item.id)}>
                        Edit
                      </button>
                    )}
                  </MessageActions>
                )}
                {item.failed && (
                  <p className="failed-note">
                    Not sent.{' '}
                    <button className="secondary small" onClick={() => void chat.retry(item.id)}>
                      Retry
                    </button>
                  </p>
                )}
              </div>
            ) : (
              // Busy while it streams: assistive tech reads it once, complete.
              <div key={item.id} className="bubble-row assistant" aria-busy={busy && item.id === lastId}>
                <span className="sr-only">Assistant: </span>
                <div className="bubble assistant">
                  <Suspense fallback={<p className="plain">{item.text}</p>}>
                    <Markdown text={item.text} />
                  </Suspense>
                </div>
                {!(busy && item.id === lastId) && (
                  <MessageActions text={item.text} at={item.at} whose="the reply">
                    {settled && item === lastItem && lastUser && (
                      <button
                        type="button"
                        className="action"
                        onClick={() => {
                          follow.jumpToLatest()
                          void chat.regenerate()
                        }}
                      >
                        Regenerate
                      </button>
                    )}
                  </MessageActions>
                )}
              </div>
            ),
          )}
          {working && (
            <div className="bubble-row assistant" role="status">
              <span className="sr-only">The assistant is working on it…</span>
              <div className="bubble assistant working" aria-hidden="true">
                <span />
                <span />
                <span />
              </div>
            </div>
          )}
          {chat.error && (
            <p className="error" role="alert">
              {chat.error.message}
            </p>
          )}
        </section>
        {!follow.following && (
          <button className="jump secondary small" onClick={follow.jumpToLatest}>
            Jump to latest ↓
          </button>
        )}
        <Composer ref={composer} busy={busy} waiting={waiting} notice={chat.notice} onDismissNotice={chat.dismissNotice} onSend={send} onStop={() => void chat.stop()} />
      </main>
    </div>
  )
}
