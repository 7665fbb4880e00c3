/**
 * `ctx.sample` through the chat's model: the engine is the sampling provider of every tool it
 * runs, so sampling stays on the server and uses the same model (or the demo model offline).
 */
import { until, type Operation } from 'effection'
import type { McpContentBlock } from '../sampling/content.ts'
import type { SamplingProvider, SamplingRequest, SamplingResponse } from '../sampling/provider.ts'
import type { ChatModel } from './model.ts'

/**
 * `ctx.sample` on a chat model: a `SamplingProvider` that sends each sampling request to `model`.
 *
 * @example
 * ```ts
 * import { createBridgeHost, modelSampling } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { bookFlight } from './tools.ts'
 *
 * const host = createBridgeHost({
 *   tool: bookFlight,
 *   params: { destination: 'LAX' },
 *   callId: 'call_1',
 *   sampling: modelSampling(createScriptedModel({ onSample: () => 'Arrive early.' })),
 * })
 * ```
 */
export function modelSampling(model: ChatModel): SamplingProvider {
  return {
    *createMessage(request: SamplingRequest, { signal }): Operation<SamplingResponse> {
      return yield* until(collect(model, request, signal))
    },
  }
}

async function collect(model: ChatModel, request: SamplingRequest, signal: AbortSignal): Promise<SamplingResponse> {
  const content: McpContentBlock[] = []
  let text = ''
  let stopReason = 'endTurn'
  for await (const part of model.stream(
    {
      ...(request.systemPrompt !== undefined && { system: request.systemPrompt }),
      messages: request.messages,
      tools: request.tools ?? [],
      ...(request.toolChoice && { toolChoice: request.toolChoice.mode }),
      maxTokens: request.maxTokens,
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.stopSequences && { stopSequences: request.stopSequences }),
    },
    signal,
  )) {
    if (part.type === 'text-delta') text += part.text
    else if (part.type === 'tool-call') {
      content.push({ type: 'tool_use', id: part.id, name: part.name, input: part.input })
      stopReason = 'toolUse'
    } else if (part.type === 'finish' && part.reason === 'length') stopReason = 'maxTokens'
  }
  if (text) content.unshift({ type: 'text', text })
  if (content.length === 0) content.push({ type: 'text', text: '' })
  return { role: 'assistant', content, model: model.id, stopReason }
}
