/**
 * What `ctx.sample` takes and gives back. Sampling always runs on the server; the
 * host supplies the model. With a `schema`, the model is asked to call the reserved
 * `__schema__` tool and its input is validated and returned as `parsed`.
 */
import type { z } from 'zod/v4'
import type { McpMessage } from './content.ts'

/** The reserved tool name used to get structured output from any model. */
export const SCHEMA_TOOL_NAME = '__schema__'

/**
 * Hints for the model that answers `ctx.sample` (MCP `modelPreferences`): model names and cost, speed and intelligence priorities from 0 to 1.
 */
export interface ModelPreferences {
  hints?: Array<{ name: string }>
  /** 0–1 */
  costPriority?: number
  /** 0–1 */
  speedPriority?: number
  /** 0–1 */
  intelligencePriority?: number
}

interface SampleCommonOptions {
  systemPrompt?: string
  maxTokens?: number
  temperature?: number
  stopSequences?: string[]
  modelPreferences?: ModelPreferences
}

/** Either a single `prompt` (sent as one user message) or a full `messages` history. */
export type SampleInput = { prompt: string; messages?: never } | { messages: McpMessage[]; prompt?: never }

/**
 * What `ctx.sample(options)` takes: a `prompt` or `messages`, and optionally a system prompt, `maxTokens`, a temperature, stop sequences and model preferences.
 */
export type SampleOptions = SampleCommonOptions & SampleInput

/**
 * `SampleOptions` with a zod `schema`: the model answers through the `__schema__` tool and `parsed` is the validated value.
 */
export type StructuredSampleOptions<S extends z.ZodType> = SampleOptions & {
  /** The shape the model must answer in; validated with zod, returned as `parsed`. */
  schema: S
}

/**
 * One sampling round as context history: 2 messages for raw sampling (request, response);
 * 3 for structured output (request, the `__schema__` tool_use, and an `ok` tool_result ack),
 * so that `messages` can be appended to a history and stay well-formed.
 */
export interface SampleExchange<TParsed = undefined> {
  request: McpMessage
  response: McpMessage
  messages: McpMessage[]
  parsed?: TParsed
}

/**
 * What `ctx.sample` returns: the reply's text, the parsed value (with a `schema`) and the exchange to append to a history.
 */
export interface SampleResult<TParsed = undefined> {
  /** The text blocks of the model's reply, joined. */
  text: string
  /** The validated structured output (with `schema`); undefined for raw sampling. */
  parsed: TParsed
  exchange: SampleExchange<TParsed>
}
