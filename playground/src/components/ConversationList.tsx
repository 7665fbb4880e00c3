import { useState } from 'react'
import type { UseChatResult } from '@mcp-bridge/runtime/react'

/**
 * The conversations this browser keeps (`chat.conversations`): open one as it was, rename it,
 * delete it (on the server too). New chat never loses the one on screen: it is listed here.
 */
export function ConversationList({ chat, onOpened }: { chat: UseChatResult; onOpened(): void }) {
  const [editing, setEditing] = useState<string | undefined>()
  const [draft, setDraft] = useState('')
  return (
    <nav className="chats" aria-label="Conversations">
      <ul>
        {chat.conversations.map((c) => (
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
                <button className="secondary small" aria-label={`Delete ${c.title}`} onClick={() => void chat.deleteConversation(c.id)}>
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
      </ul>
    </nav>
  )
}
