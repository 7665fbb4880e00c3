import { useEffect, useState } from 'react'
// The chat page of the new user's app (adoption/app/src/App.tsx), copied here by the test with the greet tool.
import Chat from '../chat.tsx'

export function meta() {
  return [{ title: 'Chat with mcp-bridge tools (React Router)' }]
}

// The chat lives in the browser (it keeps its conversation there): rendered once hydrated.
export default function Home() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated ? <Chat /> : <p>Loading…</p>
}
