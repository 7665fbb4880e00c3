import { createAppServer, createChatHandler } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { serverTools } from '../mcp-bridge/server.gen.ts'
import { userFromCookie, users } from './sessions.server.ts'

const model = createScriptedModel({
  onUserMessage: [{ match: /note/i, reply: { text: 'Sure. ', toolCalls: [{ name: 'save_note', input: {} }] } }],
  onToolResult: (_name, result) => String(result),
  fallback: 'Ask me to save a note.',
})

export default createAppServer({
  chat: createChatHandler({
    tools: serverTools,
    model,
    // The app's own cookie session: tools see the signed-in user as ctx.auth.
    authenticate(request) {
      const userId = userFromCookie(request.headers.get('cookie'))
      return userId ? { subject: userId, extra: { name: users[userId]!.name } } : undefined
    },
  }),
})
