import { useState } from 'react'
import type { RenderedProps } from '@mcp-bridge/runtime'

// In a file of its own: a module that exports only components is where React Fast Refresh applies
// an edit in place (the open question keeps what was typed); plugin.tsx exports the plugin.
export function NameForm({ onRespond, errors }: RenderedProps<{ name: string }>) {
  const [name, setName] = useState('')
  return (
    <form onSubmit={(e) => (e.preventDefault(), onRespond({ name }))}>
      <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
      {errors?.map((e) => <p role="alert" key={e.path}>{e.message}</p>)}
      <button>Greet</button>
    </form>
  )
}
