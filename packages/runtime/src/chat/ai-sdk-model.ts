/**
 * Any AI SDK provider model (`@ai-sdk/openai`, `@ai-sdk/anthropic`, ...: the language-model
 * specification v3 or v4) as a `ChatModel`. MCP content blocks go in as the spec's prompt; its
 * stream comes back as text deltas and tool calls. One adapter instead of a client per vendor.
 */
import type { AiSdkCallOptions, AiSdkLanguageModel, AiSdkMessage, AiSdkStream, AiSdkStreamPart, AiSdkToolResultPart } from './ai-sdk-spec.ts'
import type { McpMessage } from '../sampling/content.ts'
import { type ChatModel, type ModelRequest, type ModelStreamPart } from './model.ts'
import { ModelError } from '../errors/server-errors.ts'

const SPEC_VERSIONS: readonly string[] = ['v3', 'v4']

/**
 * The chat engine's model from any AI SDK language model (OpenAI, Anthropic, Ollama through an OpenAI-compatible
 * provider, …): its text and tool calls stream to the chat, and `ctx.sample` runs on it.
 *
 * @example
 * ```ts
 * import { createOpenAI } from '@ai-sdk/openai'
 * import { createAiSdkModel, createChatHandler } from '@mcp-bridge/runtime/server'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const model = createAiSdkModel(createOpenAI().chat('gpt-4o-mini'))
 * export const chat = createChatHandler({ tools: serverTools, model })
 * ```
 */
export function createAiSdkModel(model: AiSdkLanguageModel): ChatModel {
  if (!SPEC_VERSIONS.includes(String(model?.specificationVersion)) || typeof model.doStream !== 'function') {
    throw new ModelError(
      `createAiSdkModel expects an AI SDK language model of specification v3 or v4, e.g. createOpenAI(...).chat('gpt-4o-mini') (got specification ${String(model?.specificationVersion)})`,
    )
  }
  return {
    id: `${model.provider}:${model.modelId}`,
    async *stream(request, signal) {
      const { stream } = await (model.doStream as AiSdkStream).call(model, toCallOptions(request, signal, model.specificationVersion))
      const reader = stream.getReader()
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          const part = toPart(value)
          if (part) yield part
        }
      } finally {
        reader.releaseLock()
      }
    },
  }
}

export function toCallOptions(request: ModelRequest, signal: AbortSignal, version: AiSdkLanguageModel['specificationVersion'] = 'v4'): AiSdkCallOptions {
  const prompt: AiSdkMessage[] = []
  if (request.system) prompt.push({ role: 'system', content: request.system })
  const names = new Map<string, string>()
  for (const message of request.messages) prompt.push(...toPrompt(message, names, version))
  return {
    prompt,
    ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.stopSequences && { stopSequences: request.stopSequences }),
    ...(request.tools.length > 0 && {
      tools: request.tools.map((t) => ({
        type: 'function' as const,
        name: t.name,
        ...(t.description !== undefined && { description: t.description }),
        inputSchema: t.inputSchema,
      })),
    }),
    ...(request.toolChoice && { toolChoice: { type: request.toolChoice } }),
    abortSignal: signal,
  }
}

/** One MCP message becomes one or two spec messages: tool results travel in a `tool` message. */
function toPrompt(message: McpMessage, names: Map<string, string>, version: AiSdkLanguageModel['specificationVersion']): AiSdkMessage[] {
  if (message.role === 'assistant') {
    const content: Extract<AiSdkMessage, { role: 'assistant' }>['content'] = []
    for (const block of message.content) {
      if (block.type === 'text') content.push({ type: 'text', text: block.text })
      else if (block.type === 'tool_use') {
        names.set(block.id, block.name)
        content.push({ type: 'tool-call', toolCallId: block.id, toolName: block.name, input: block.input })
      }
    }
    return [{ role: 'assistant', content }]
  }
  const user: Extract<AiSdkMessage, { role: 'user' }>['content'] = []
  const tool: AiSdkToolResultPart[] = []
  for (const block of message.content) {
    if (block.type === 'text') user.push({ type: 'text', text: block.text })
    else if (block.type === 'image' || block.type === 'audio') {
      // The one place the versions differ: how base64 file data is wrapped.
      user.push({ type: 'file', data: version === 'v3' ? block.data : { type: 'data', data: block.data }, mediaType: block.mimeType })
    } else if (block.type === 'tool_result') {
      const text = block.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
      tool.push({
        type: 'tool-result',
        toolCallId: block.toolUseId,
        toolName: names.get(block.toolUseId) ?? 'tool',
        output: block.isError ? { type: 'error-text', value: text } : { type: 'text', value: text },
      })
    }
  }
  const out: AiSdkMessage[] = []
  if (tool.length) out.push({ role: 'tool', content: tool })
  if (user.length) out.push({ role: 'user', content: user })
  return out
}

function toPart(raw: AiSdkStreamPart): ModelStreamPart | undefined {
  // The open `{ type: string }` member keeps `switch` from narrowing: name the known parts.
  const part = raw as Exclude<AiSdkStreamPart, { type: string; delta?: never; toolCallId?: never; finishReason?: never; error?: never }>
  switch (part.type) {
    case 'text-delta':
      return { type: 'text-delta', text: part.delta }
    case 'tool-call': {
      let input: unknown
      try {
        input = part.input ? JSON.parse(part.input) : {}
      } catch {
        throw new ModelError(`The model sent tool call ${part.toolName} with input that is not JSON: ${part.input.slice(0, 200)}`)
      }
      return { type: 'tool-call', id: part.toolCallId, name: part.toolName, input: (input ?? {}) as Record<string, unknown> }
    }
    case 'finish': {
      const reason = part.finishReason.unified
      return { type: 'finish', reason: reason === 'tool-calls' || reason === 'length' || reason === 'stop' ? reason : 'other' }
    }
    case 'error':
      throw new ModelError(`The model failed: ${part.error instanceof Error ? part.error.message : JSON.stringify(part.error)}`, { cause: part.error })
    default:
      return undefined
  }
}
