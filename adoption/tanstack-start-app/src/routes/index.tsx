import { useEffect, useState } from 'react'
import { createFileRoute } from '@tanstack/react-router'
// The chat page of the new user's app (adoption/app/src/App.tsx), copied here by the test with the greet tool.
import Chat from '../chat.tsx'

export const Route = createFileRoute('/')({ component: Home })

// The chat lives in the browser (it keeps its conversation there): rendered once hydrated.
function Home() {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated ? <Chat /> : <p>Loading…</p>
}
