import { createChatHandler, createAppServer } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { serverTools } from '../mcp-bridge/server.gen.ts'

// Offline while you try it; later: createAiSdkModel(createOpenAI().chat('gpt-4o-mini')) from '@ai-sdk/openai'.
const model = createScriptedModel({
  onUserMessage: [{ match: /greet/i, reply: { text: 'Sure. ', toolCalls: [{ name: 'greet', input: {} }] } }],
  onToolResult: (_name, result) => String(result),
  fallback: 'Ask me to greet someone.',
})

export default createAppServer({ chat: createChatHandler({ tools: serverTools, model }) })
