import { createChatHandler } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { serverTools } from './mcp-bridge/server.gen.ts'

export const chat = createChatHandler({ tools: serverTools, model: createScriptedModel({ fallback: 'Hello!' }) })
