/**
 * The one small interface between the chat engine (and `ctx.sample`) and a model. Messages
 * are MCP content blocks; a model streams text deltas and tool calls. Adapters turn any AI SDK
 * provider model into this (`createAiSdkModel`), and the scripted demo model implements it directly.
 */
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { JsonSchema } from '../schema/json-schema.ts'
import type { McpMessage } from '../sampling/content.ts'

/** A model adapter was misconfigured, or the model sent something unusable. */
export class ModelError extends McpBridgeError {
  readonly code = 'MODEL_ERROR'
}

export interface ModelTool {
  name: string
  description?: string
  inputSchema: JsonSchema
}

export interface ModelRequest {
  system?: string
  messages: McpMessage[]
  tools: ModelTool[]
  toolChoice?: 'auto' | 'required' | 'none'
  maxTokens?: number
  temperature?: number
  stopSequences?: string[]
}

export type ModelStreamPart =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'finish'; reason: 'stop' | 'tool-calls' | 'length' | 'other' }

export interface ChatModel {
  readonly id: string
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamPart>
}
