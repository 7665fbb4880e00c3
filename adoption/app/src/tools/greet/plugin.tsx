import { useState } from 'react'
import { createPlugin, type RenderedProps } from '@mcp-bridge/runtime'
import { greet } from './tool.ts'

function NameForm({ onRespond, errors }: RenderedProps<{ name: string }>) {
  const [name, setName] = useState('')
  return (
    <form onSubmit={(e) => (e.preventDefault(), onRespond({ name }))}>
      <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      {errors?.map((e) => <p role="alert" key={e.path}>{e.message}</p>)}
      <button>Greet</button>
    </form>
  )
}

export const greetPlugin = createPlugin(greet)
  .onElicit({
    *askName(_req, ctx) {
      return { action: 'accept', content: yield* ctx.render(NameForm, {}) }
    },
  })
  .build()
