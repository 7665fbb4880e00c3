/**
 * The one small interface between the chat engine (and `ctx.sample`) and a model. Messages
 * are MCP content blocks; a model streams text deltas and tool calls. Adapters turn any AI SDK
 * provider model into this (`createAiSdkModel`), and the scripted demo model implements it directly.
 */
import type { JsonSchema } from '../schema/json-schema.ts'
import type { McpMessage } from '../sampling/content.ts'

/**
 * A tool as the chat engine offers it to a model: its name, description and JSON Schema.
 */
export interface ModelTool {
  name: string
  description?: string
  inputSchema: JsonSchema
}

/**
 * What the chat engine asks a model: the system prompt, the conversation as MCP messages, and the tools it may call.
 */
export interface ModelRequest {
  system?: string
  messages: McpMessage[]
  tools: ModelTool[]
  toolChoice?: 'auto' | 'required' | 'none'
  maxTokens?: number
  temperature?: number
  stopSequences?: string[]
}

/**
 * One part of a model's streamed reply: a text delta, a tool call, or the end.
 */
export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'finish'; reason: 'stop' | 'tool-calls' | 'length' | 'other' }

/**
 * The one interface between the chat engine and a model: stream a reply (text and tool calls) to a request. `createAiSdkModel` and `createScriptedModel` make one.
 */
export interface ChatModel {
  readonly id: string
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamPart>
}
