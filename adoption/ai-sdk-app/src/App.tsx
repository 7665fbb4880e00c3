import { useEffect, useState } from 'react'
import { useChat } from '@ai-sdk/react'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { McpBridgeToolPart, useMcpBridge } from '@mcp-bridge/runtime/ai-sdk/react' // mcp-bridge
import { clientPlugins } from './mcp-bridge/client.gen.ts' // mcp-bridge

/** The chat id lives in the address, so a reload (or another server) opens the same saved chat. */
function chatId(): string {
  const url = new URL(location.href)
  let id = url.searchParams.get('chat')
  if (!id) {
    id = crypto.randomUUID().replaceAll('-', '')
    url.searchParams.set('chat', id)
    history.replaceState(null, '', url)
  }
  return id
}

export default function App() {
  const [id] = useState(chatId)
  const [saved, setSaved] = useState<UIMessage[]>()
  useEffect(() => {
    void fetch(`/api/chat?id=${id}`).then(async (r) => setSaved((await r.json()) as UIMessage[]))
  }, [id])
  return saved ? <Chat id={id} messages={saved} /> : <p>Loading…</p>
}

function Chat({ id, messages }: { id: string; messages: UIMessage[] }) {
  const chat = useChat({ id, messages, transport: new DefaultChatTransport({ api: '/api/chat' }) })
  const bridge = useMcpBridge(chat, { plugins: clientPlugins }) // mcp-bridge
  const [input, setInput] = useState('')
  const busy = chat.status === 'submitted' || chat.status === 'streaming'
  return (
    <main>
      {chat.messages.map((message) => (
        <article key={message.id} aria-label={message.role}>
          {message.parts.map((part, i) => {
            const call = bridge.read(part) // mcp-bridge
            if (call) return <McpBridgeToolPart key={i} bridge={bridge} part={call} /> // mcp-bridge
            return part.type === 'text' ? <p key={i}>{part.text}</p> : null
          })}
        </article>
      ))}
      {chat.error && <p role="alert">{chat.error.message}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void chat.sendMessage({ text: input })
          setInput('')
        }}
      >
        <input aria-label="Message" value={input} onChange={(e) => setInput(e.target.value)} disabled={bridge.waiting} />
        {busy ? (
          <button type="button" onClick={() => void chat.stop()}>
            Stop
          </button>
        ) : (
          <button disabled={bridge.waiting || !input}>Send</button>
        )}
      </form>
    </main>
  )
}
