/**
 * The chat protocol between `useChat` and `createChatHandler`: one JSON request body, and a
 * response of newline-delimited JSON events. Defined once, as zod schemas, so the server
 * validates bodies and the client validates events with the same definitions (seed 001
 * §Plugin Session Management; messages are MCP content blocks, seed 003).
 *
 * A turn that ends on an elicitation ends its response with `conversation_state`; the client
 * answers with a new request carrying `pluginElicitResponses`, and the conversation goes on.
 */
import { z } from 'zod'
import { mcpMessageSchema } from '../sampling/content.ts'
import { LOG_LEVELS } from '../tool/context.ts'

export const elicitResultSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(z.string(), z.unknown()) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
])

export const pluginElicitResponseSchema = z.object({
  /** The session: the tool call id. */
  sessionId: z.string().min(1),
  callId: z.string().min(1),
  /** The elicitation this answers (`tool:call:key#seq`). */
  elicitId: z.string().min(1),
  /** The per-session token issued with the request; without it nothing resumes. */
  token: z.string().min(1),
  result: elicitResultSchema,
})

export const chatRequestBodySchema = z.object({
  messages: z.array(mcpMessageSchema),
  pluginElicitResponses: z.array(pluginElicitResponseSchema).optional(),
  pluginAbort: z.object({ sessionId: z.string().min(1), reason: z.string().optional() }).optional(),
})

const issueSchema = z.object({ path: z.string(), message: z.string() })

export const chatStreamEventSchema = z.discriminatedUnion('type', [
  /** Streaming model text. */
  z.object({ type: z.literal('text_delta'), text: z.string() }),
  /** The model called a tool. */
  z.object({ type: z.literal('tool_call'), callId: z.string(), toolName: z.string(), params: z.unknown() }),
  /** A tool finished; its result went back to the model. */
  z.object({ type: z.literal('tool_result'), callId: z.string(), toolName: z.string(), result: z.unknown(), isError: z.boolean().optional() }),
  /** A plugin tool waits for the user. */
  z.object({
    type: z.literal('plugin_elicit_request'),
    sessionId: z.string(),
    callId: z.string(),
    toolName: z.string(),
    elicitId: z.string(),
    key: z.string(),
    seq: z.number().int().positive(),
    message: z.string(),
    schema: z.record(z.string(), z.unknown()),
    context: z.record(z.string(), z.unknown()),
    token: z.string(),
  }),
  /** An answer was not taken (invalid content, wrong token, stale id); the elicitation stays open. */
  z.object({
    type: z.literal('plugin_elicit_refused'),
    sessionId: z.string(),
    elicitId: z.string(),
    code: z.string(),
    message: z.string(),
    issues: z.array(issueSchema).optional(),
  }),
  z.object({
    type: z.literal('plugin_session_error'),
    sessionId: z.string(),
    callId: z.string(),
    error: z.enum(['SESSION_NOT_FOUND', 'SESSION_ABORTED', 'INTERNAL_ERROR']),
    message: z.string(),
  }),
  z.object({ type: z.literal('tool_log'), callId: z.string(), level: z.enum(LOG_LEVELS), message: z.string() }),
  z.object({
    type: z.literal('tool_progress'),
    callId: z.string(),
    message: z.string(),
    progress: z.number().optional(),
    total: z.number().optional(),
  }),
  /** Ends a response: the conversation so far, to send back with the next request. */
  z.object({ type: z.literal('conversation_state'), messages: z.array(mcpMessageSchema) }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
])

export type ElicitResultWire = z.infer<typeof elicitResultSchema>
export type PluginElicitResponse = z.infer<typeof pluginElicitResponseSchema>
export type ChatRequestBody = z.infer<typeof chatRequestBodySchema>
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>
export type ChatStreamEventType = ChatStreamEvent['type']

export const NDJSON_CONTENT_TYPE = 'application/x-ndjson'
