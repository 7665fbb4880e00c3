/**
 * The one interface between `ctx.sample` and a model. The chat engine implements it over an AI
 * SDK language model; the MCP server over `sampling/createMessage`; tests over a script.
 * Request and response follow MCP `sampling/createMessage` (2025-11-25), content blocks included.
 */
import type { Operation } from 'effection'
import type { JsonSchema } from '../schema/json-schema.ts'
import type { McpContentBlock, McpMessage } from './content.ts'
import type { ModelPreferences } from './types.ts'

export interface SamplingTool {
  name: string
  description?: string
  inputSchema: JsonSchema
}

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

export interface SamplingResponse {
  role: 'assistant'
  /** One block or several (MCP allows both). */
  content: McpContentBlock | McpContentBlock[]
  model?: string
  stopReason?: string
}

export interface SamplingProvider {
  createMessage(request: SamplingRequest, options: { signal: AbortSignal }): Operation<SamplingResponse>
}

/** Used when `maxTokens` is not given. */
export const DEFAULT_MAX_TOKENS = 1024
