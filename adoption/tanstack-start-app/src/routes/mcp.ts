import { createFileRoute } from '@tanstack/react-router'
import { mcp } from '../server/mcp-bridge.ts'

// Streamable HTTP: GET opens a session's stream, POST carries messages, DELETE ends a session.
export const Route = createFileRoute('/mcp')({
  server: {
    handlers: {
      GET: ({ request }) => mcp.fetch(request),
      POST: ({ request }) => mcp.fetch(request),
      DELETE: ({ request }) => mcp.fetch(request),
    },
  },
})
