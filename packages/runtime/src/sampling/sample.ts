/**
 * `ctx.sample` on the server: build the MCP sampling request, ask the provider, validate the
 * reply, and build the exchange as MCP sampling has it — 2 messages for raw sampling,
 * 3 for structured output, the third being a minimal `ok` tool_result so the history stays
 * well-formed (every tool_use must be followed by its tool_result) without repeating the data.
 */
import { useAbortSignal, type Operation } from 'effection'
import { z } from 'zod/v4'
import { SamplingResponseError, SamplingSchemaError, ToolContextUsageError } from '../errors/call-errors.ts'
import { summarizeIssues } from '../errors/issues.ts'
import { toJsonSchema } from '../schema/zod-to-json-schema.ts'
import { contentBlockSchema, messageText, type McpMessage, type ToolUseContent } from './content.ts'
import { DEFAULT_MAX_TOKENS, type SamplingProvider, type SamplingRequest } from './provider.ts'
import { SCHEMA_TOOL_NAME, type SampleExchange, type SampleOptions, type SampleResult } from './types.ts'

const responseSchema = z.object({
  role: z.literal('assistant'),
  content: z.union([contentBlockSchema, z.array(contentBlockSchema).min(1)]),
})

/**
 * The MCP sampling request `ctx.sample(options)` sends for a tool: one user message for `prompt`, the reserved
 * `__schema__` tool for `schema`, `maxTokens` defaulted.
 */
export function buildSamplingRequest(toolName: string, options: SampleOptions & { schema?: z.ZodType }): SamplingRequest {
  if (typeof options.prompt !== 'string' && (!Array.isArray(options.messages) || options.messages.length === 0)) {
    throw new ToolContextUsageError(toolName, 'ctx.sample needs a prompt or a non-empty messages array')
  }
  const messages: McpMessage[] = options.messages !== undefined ? options.messages : [{ role: 'user', content: [{ type: 'text', text: options.prompt as string }] }]
  const request: SamplingRequest = {
    messages,
    maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
    ...(options.systemPrompt !== undefined && { systemPrompt: options.systemPrompt }),
    ...(options.temperature !== undefined && { temperature: options.temperature }),
    ...(options.stopSequences !== undefined && { stopSequences: options.stopSequences }),
    ...(options.modelPreferences !== undefined && { modelPreferences: options.modelPreferences }),
  }
  if (options.schema) {
    request.tools = [
      {
        name: SCHEMA_TOOL_NAME,
        description: 'Give your answer by calling this tool; its input is your whole answer.',
        inputSchema: toJsonSchema(options.schema, 'input').json,
      },
    ]
    request.toolChoice = { mode: 'required' }
  }
  return request
}

/** Send a built request and turn the reply into a `SampleResult` (validating structured output). */
export function* completeSample(toolName: string, provider: SamplingProvider, request: SamplingRequest, schema: z.ZodType | undefined): Operation<SampleResult<unknown>> {
  const signal = yield* useAbortSignal()
  const raw = yield* provider.createMessage(request, { signal })

  const checked = responseSchema.safeParse(raw)
  if (!checked.success) throw new SamplingResponseError(toolName, summarizeIssues(checked.error.issues))
  const response: McpMessage = {
    role: 'assistant',
    content: Array.isArray(checked.data.content) ? checked.data.content : [checked.data.content],
  }
  const last = request.messages[request.messages.length - 1]!
  const text = messageText(response)

  if (!schema) {
    const exchange: SampleExchange<undefined> = { request: last, response, messages: [last, response] }
    return { text, parsed: undefined, exchange }
  }

  const toolUse = response.content.find((b): b is ToolUseContent => b.type === 'tool_use' && b.name === SCHEMA_TOOL_NAME)
  if (!toolUse) throw new SamplingSchemaError(toolName, `did not call the ${SCHEMA_TOOL_NAME} tool (it replied: ${JSON.stringify(text.slice(0, 200))})`)
  const parsed = schema.safeParse(toolUse.input)
  if (!parsed.success) throw new SamplingSchemaError(toolName, 'does not match the schema', summarizeIssues(parsed.error.issues))
  const ack: McpMessage = {
    role: 'user',
    content: [{ type: 'tool_result', toolUseId: toolUse.id, content: [{ type: 'text', text: 'ok' }] }],
  }
  const exchange: SampleExchange<unknown> = {
    request: last,
    response,
    messages: [last, response, ack],
    parsed: parsed.data,
  }
  return { text, parsed: parsed.data, exchange }
}
