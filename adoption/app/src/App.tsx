import { GeneratedForm, ToolCallEmissions, useChat } from '@mcp-bridge/runtime/react'
import { clientPlugins } from './mcp-bridge/client.gen.ts'

export default function App() {
  // `id`: the conversation is kept on the server, so a reload mid-question brings the question back.
  const chat = useChat({ api: '/api/chat', plugins: clientPlugins, id: 'main' })
  return (
    <main>
      {chat.items.map((item) =>
        item.kind !== 'tool' ? (
          <p key={item.id}>{item.text}</p>
        ) : (
          <section key={item.id} aria-label={item.title}>
            <ToolCallEmissions store={chat.store} callId={item.callId} />
            {item.error && <p role="alert">{item.error}</p>}
            {item.elicitation && !item.elicitation.handledByPlugin && (
              <GeneratedForm
                message={item.elicitation.request.message}
                schema={item.elicitation.request.schema}
                errors={item.elicitation.errors}
                onSubmit={(result) => chat.respond(item.callId, result)}
              />
            )}
          </section>
        ),
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void chat.sendMessage(new FormData(e.currentTarget).get('q') as string)
          e.currentTarget.reset()
        }}
      >
        <input name="q" aria-label="Message" /> <button>Send</button>
      </form>
    </main>
  )
}
