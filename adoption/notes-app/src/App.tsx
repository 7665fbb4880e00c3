import { useState } from 'react'
import { ToolCallEmissions, useChat } from '@mcp-bridge/runtime/react'
import { clientPlugins } from './mcp-bridge/client.gen.ts'

export default function App() {
  const chat = useChat({ api: '/api/chat', plugins: clientPlugins, id: 'notes' })
  const [text, setText] = useState('')
  return (
    <main>
      {chat.items.map((item) =>
        item.kind === 'tool' ? (
          <section key={item.id} aria-label={item.title ?? item.toolName}>
            <ToolCallEmissions store={chat.store} callId={item.callId} />
            {item.result !== undefined && <p>{String(item.result)}</p>}
          </section>
        ) : (
          <p key={item.id}>{item.text}</p>
        ),
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void chat.sendMessage(text)
          setText('')
        }}
      >
        <input aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} />
        <button>Send</button>
      </form>
    </main>
  )
}
