/**
 * The chat handler and the MCP endpoint, made once per server process (`.server`: never in the
 * browser bundle). Express mounts them in server/app.ts.
 */
import { createChatHandler } from '@mcp-bridge/runtime/server'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { serverTools } from '../mcp-bridge/server.gen.ts'

const model = createScriptedModel({
  onUserMessage: [{ match: /greet/i, reply: { text: 'Sure. ', toolCalls: [{ name: 'greet', input: {} }] } }],
  onToolResult: (_name, result) => String(result),
  fallback: 'Ask me to greet someone.',
})

export const chat = createChatHandler({ tools: serverTools, model })
export const mcp = createMcpServer({ name: 'rr7-express', version: '1.0.0', tools: serverTools }).createHandler()
