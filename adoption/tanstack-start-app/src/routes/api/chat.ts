import { createFileRoute } from '@tanstack/react-router'
import { chat } from '../../server/mcp-bridge.ts'

// POST a turn; GET and DELETE ?conversation=<id> restore and delete a kept conversation.
export const Route = createFileRoute('/api/chat')({
  server: {
    handlers: {
      GET: ({ request }) => chat(request),
      POST: ({ request }) => chat(request),
      DELETE: ({ request }) => chat(request),
    },
  },
})
