/**
 * The chat handler and the MCP endpoint, made once per server process. Both are fetch handlers:
 * TanStack Start's server routes hand them the request (and only the server bundle has them).
 */
import { createChatHandler } from '@mcp-bridge/runtime/server'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { serverTools } from '../mcp-bridge/server.gen.ts'

// Offline while you try it; later: createAiSdkModel(createOpenAI().chat('gpt-4o-mini')) from '@ai-sdk/openai'.
const model = createScriptedModel({
  onUserMessage: [{ match: /greet/i, reply: { text: 'Sure. ', toolCalls: [{ name: 'greet', input: {} }] } }],
  onToolResult: (_name, result) => String(result),
  fallback: 'Ask me to greet someone.',
})

export const chat = createChatHandler({ tools: serverTools, model })
export const mcp = createMcpServer({ name: 'tanstack-start-app', version: '1.0.0', tools: serverTools }).createHandler()
