/**
 * A deterministic model for offline use and tests: the app gives rules that map the latest user
 * message (or the latest tool result) to text and tool calls. The same model answers
 * `ctx.sample` requests, including structured ones through the `__schema__` tool.
 */
import { SCHEMA_TOOL_NAME } from '../sampling/types.ts'
import { messageText, type McpMessage, type ToolResultContent } from '../sampling/content.ts'
import type { ChatModel, ModelRequest, ModelStreamPart } from '../chat/model.ts'

/**
 * A scripted model's reply: text, tool calls, or both.
 */
export type ScriptedReply = string | { text?: string; toolCalls?: Array<{ name: string; input: Record<string, unknown> }> }

/**
 * What a scripted model answers: rules on the latest user message, a reply after a tool's result, answers to `ctx.sample`, and a fallback.
 */
export interface ScriptedModelRules {
  /** The latest user text (its first 1,000 characters) → a reply. The first rule that matches wins. */
  onUserMessage?: Array<{ match: RegExp | ((text: string) => boolean); reply: ScriptedReply | ((text: string, match: RegExpMatchArray | null) => ScriptedReply) }>
  /** After a tool returned: what to say about its result. */
  onToolResult?: (toolName: string, result: unknown, isError: boolean) => ScriptedReply
  /** A sampling request from a tool (`ctx.sample`): raw text, or the `__schema__` input for structured requests. */
  onSample?: (prompt: string, structured: boolean) => string | Record<string, unknown>
  /** When nothing matches. */
  fallback?: ScriptedReply
  /** Characters per text delta, to show streaming (default 24). */
  chunk?: number
}

/** How much of the latest user message `onUserMessage` rules see. */
export const RULE_TEXT_LIMIT = 1_000

/**
 * A deterministic chat model for demos and tests: the first rule that matches the latest user message says what
 * to reply and which tools to call. The playground runs offline on one.
 *
 * @example
 * ```ts
 * import { createChatHandler } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { bookFlight } from './tools.ts'
 *
 * const model = createScriptedModel({
 *   onUserMessage: [{ match: /book/i, reply: { text: 'Sure. ', toolCalls: [{ name: 'book_flight', input: { destination: 'LAX' } }] } }],
 *   onToolResult: (_name, result) => `Done: ${String(result)}`,
 *   fallback: 'Ask me to book a flight.',
 * })
 * export const chat = createChatHandler({ tools: [bookFlight], model })
 * ```
 */
export function createScriptedModel(rules: ScriptedModelRules, id = 'scripted-demo'): ChatModel {
  return {
    id,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<ModelStreamPart> {
      const reply = decide(rules, request)
      const chunk = rules.chunk ?? 24
      const text = typeof reply === 'string' ? reply : (reply.text ?? '')
      for (let i = 0; i < text.length; i += chunk) {
        if (signal.aborted) return
        yield { type: 'text-delta', text: text.slice(i, i + chunk) }
      }
      const toolCalls = typeof reply === 'string' ? [] : (reply.toolCalls ?? [])
      // Unguessable, like a provider's: one user's call id must not name another user's call.
      for (const call of toolCalls) yield { type: 'tool-call', id: `call_${crypto.randomUUID().replaceAll('-', '')}`, name: call.name, input: call.input }
      yield { type: 'finish', reason: toolCalls.length ? 'tool-calls' : 'stop' }
    },
  }
}

function decide(rules: ScriptedModelRules, request: ModelRequest): ScriptedReply {
  const last = request.messages[request.messages.length - 1]
  const schemaTool = request.tools.find((t) => t.name === SCHEMA_TOOL_NAME)
  // A ctx.sample request: it has no chat tools, or asks for the __schema__ tool.
  if (rules.onSample && last && (schemaTool || request.tools.length === 0)) {
    const answer = rules.onSample(messageText(last), Boolean(schemaTool))
    return typeof answer === 'string' ? answer : { toolCalls: [{ name: SCHEMA_TOOL_NAME, input: answer }] }
  }
  const result = last && lastToolResult(last)
  if (result && rules.onToolResult) {
    const name = toolNameOf(request.messages, result.toolUseId) ?? 'unknown'
    const value = result.structuredContent ?? parseMaybe(result.content.map((c) => (c.type === 'text' ? c.text : '')).join(''))
    return rules.onToolResult(name, value, result.isError === true)
  }
  // Rules see a bounded prefix: a rule's regex then costs the same on a 100 KB message as on a
  // short one, whatever its backtracking (a demo model must not be a way to stall the server).
  const text = last && last.role === 'user' ? messageText(last).slice(0, RULE_TEXT_LIMIT) : ''
  for (const rule of rules.onUserMessage ?? []) {
    const m = rule.match instanceof RegExp ? text.match(rule.match) : rule.match(text) ? null : undefined
    if (m === undefined || (rule.match instanceof RegExp && m === null)) continue
    return typeof rule.reply === 'function' ? rule.reply(text, m) : rule.reply
  }
  return rules.fallback ?? "I'm the offline demo model. Try asking me to book a flight."
}

function lastToolResult(message: McpMessage): ToolResultContent | undefined {
  if (message.role !== 'user') return undefined
  return message.content.filter((b): b is ToolResultContent => b.type === 'tool_result').at(-1)
}

function toolNameOf(messages: McpMessage[], toolUseId: string): string | undefined {
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_use' && b.id === toolUseId) return b.name
  return undefined
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
