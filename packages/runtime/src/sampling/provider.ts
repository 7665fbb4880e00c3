/**
 * The one interface between `ctx.sample` and a model. The chat engine implements it over an AI
 * SDK language model; the MCP server over `sampling/createMessage`; tests over a script.
 * Request and response follow MCP `sampling/createMessage` (2025-11-25), content blocks included.
 */
import type { Operation } from 'effection'
import type { JsonSchema } from '../schema/json-schema.ts'
import type { McpContentBlock, McpMessage } from './content.ts'
import type { ModelPreferences } from './types.ts'

/**
 * A tool offered to the model in a sampling request (the reserved `__schema__` tool carries structured output).
 */
export interface SamplingTool {
  name: string
  description?: string
  inputSchema: JsonSchema
}

/**
 * A request to a model, as MCP `sampling/createMessage` (2025-11-25) has it.
 */
export interface SamplingRequest {
  messages: McpMessage[]
  systemPrompt?: string
  maxTokens: number
  temperature?: number
  stopSequences?: string[]
  modelPreferences?: ModelPreferences
  tools?: SamplingTool[]
  toolChoice?: { mode: 'auto' | 'required' | 'none' }
}

/**
 * A model's answer to a `SamplingRequest`.
 */
export interface SamplingResponse {
  role: 'assistant'
  /** One block or several (MCP allows both). */
  content: McpContentBlock | McpContentBlock[]
  model?: string
  stopReason?: string
}

/**
 * Where `ctx.sample` sends its request: the chat engine's model, an MCP client's `sampling/createMessage`, or a test script.
 */
export interface SamplingProvider {
  createMessage(request: SamplingRequest, options: { signal: AbortSignal }): Operation<SamplingResponse>
}

/** Used when `maxTokens` is not given. */
export const DEFAULT_MAX_TOKENS = 1024
