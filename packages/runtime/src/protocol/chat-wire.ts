/**
 * The chat wire between the chat controller (browser) and the chat handler (server): one JSON
 * request body, and a response of newline-delimited JSON events. Defined once, as zod schemas,
 * so the server validates bodies and the client validates events with the same definitions
 * (messages are MCP content blocks).
 *
 * A turn that ends on a question ends its response with `conversation_state`; the client
 * answers with a new request carrying `elicitResponses`, and the conversation goes on. Every
 * state-changing part of a request (an answer, an abort) carries the token the server issued
 * with the call's `tool_call` event.
 */
import { z } from 'zod/v4'
import { mcpMessageSchema } from '../sampling/content.ts'
import { LOG_LEVELS } from '../tool/context.ts'

/**
 * The chat endpoint's response type: one JSON event per line.
 */
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson'

/** Why a call a person stopped ended (Stop, Cancel, Escape), unless the page says otherwise: "The tool call was cancelled: the user stopped it." */
export const STOPPED_BY_USER = 'the user stopped it'

/** Answers one request may carry (the work of each is bounded; their number must be too). */
export const MAX_ANSWERS_PER_REQUEST = 16

/**
 * The zod schema of `ElicitResultWire`.
 */
export const elicitResultSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('accept'), content: z.record(z.string(), z.unknown()) }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
])

/** An `ElicitRequest` as JSON: the key's requested schema instead of its zod schema. */
export const elicitRequestWireSchema = z.object({
  id: z.string().min(1),
  key: z.string().min(1),
  message: z.string(),
  /** The key's MCP requested schema (form mode). */
  schema: z.record(z.string(), z.unknown()),
  /** The tool's context data: the only place the client reads it from. */
  context: z.record(z.string(), z.unknown()),
  /** The call's arguments. */
  params: z.unknown().optional(),
  /** A handoff tool's `before()` value (absent for `.execute()` tools: JSON drops undefined). */
  handoff: z.unknown().optional(),
})

/**
 * The zod schema of `ElicitResponseWire`.
 */
export const elicitResponseSchema = z.object({
  callId: z.string().min(1),
  /** The `id` of the request this answers. */
  elicitId: z.string().min(1),
  /** The call's token (from its `tool_call` event); without it nothing resumes. */
  token: z.string().min(1),
  result: elicitResultSchema,
})

/**
 * A conversation's id and secret, chosen by the client (random, never guessable): the server keeps
 * the conversation under the id and only the secret's hash, and shows it only to a request that
 * presents the secret. A reload or a second tab restores it (`GET ?conversation=<id>`).
 */
export const conversationKeySchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'an id of 16 to 128 characters from A-Z a-z 0-9 _ - (random: the client makes one)'),
  secret: z.string().regex(/^[A-Za-z0-9_-]{32,256}$/, 'a secret of 32 to 256 characters from A-Z a-z 0-9 _ - (random: the client makes one)'),
})

/**
 * The zod schema of `ChatRequestBody`: the server reads requests with it, a client can check its own.
 */
export const chatRequestBodySchema = z.object({
  messages: z.array(mcpMessageSchema),
  /** Record this turn in a conversation that a reload can restore. */
  conversation: conversationKeySchema.optional(),
  /** A person answers one question at a time; a few in one request is plenty. */
  elicitResponses: z.array(elicitResponseSchema).max(MAX_ANSWERS_PER_REQUEST).optional(),
  abort: z.object({ callId: z.string().min(1), token: z.string().min(1), reason: z.string().optional() }).optional(),
  /**
   * The client's id for this request, the same on every retry of it: in a conversation, a retried
   * turn whose first try was taken (its response lost) is refused with 409 REQUEST_ALREADY_APPLIED
   * instead of running twice; the client restores the conversation to see what it did.
   */
  /**
   * The revision of the kept conversation this request's messages came from (the last
   * `conversation_state.revision` or restored snapshot). If the conversation moved on since —
   * another tab, a call that finished on the server — the request is refused with 409
   * CONVERSATION_MOVED_ON and nothing runs: restore, then act on what is there.
   */
  conversationRevision: z.number().int().min(0).optional(),
  /**
   * This request's user message replaces the kept conversation's last turn — its last user
   * message and everything after it (edit and resend, or regenerate with the same text); its
   * `messages` end with the new message on top of what came before that turn. Refused with 409
   * TURN_STILL_OPEN while a call of that turn runs or waits for an answer (nothing changes).
   */
  replaceLastTurn: z.literal(true).optional(),
  requestId: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{8,128}$/, 'an id of 8 to 128 characters from A-Z a-z 0-9 _ : - (random: the client makes one per request, and keeps it for its retries)')
    .optional(),
})

const issueSchema = z.object({ path: z.string(), message: z.string() })

/**
 * The zod schema of `ChatStreamEvent`: the browser reads every event with it.
 */
export const chatStreamEventSchema = z.discriminatedUnion('type', [
  /** Streaming model text. */
  z.object({
    type: z.literal('text_delta'),
    text: z.string(),
    /** When the reply began (epoch ms): set on the first delta of a reply in a kept transcript. */
    at: z.number().optional(),
  }),
  /** The model called a tool; `token` authorises answers to its questions and its abort. */
  z.object({
    type: z.literal('tool_call'),
    callId: z.string(),
    toolName: z.string(),
    /** The tool's title for people, when it has one. */
    title: z.string().optional(),
    params: z.unknown(),
    token: z.string().optional(),
  }),
  /** A tool finished; its result went back to the model. */
  z.object({
    type: z.literal('tool_result'),
    callId: z.string(),
    toolName: z.string(),
    result: z.unknown(),
    isError: z.boolean().optional(),
    /** Someone stopped it (`isError` too, for the model: it did not finish): a page shows it cancelled, not failed. */
    cancelled: z.boolean().optional(),
    /** What a stopped call had already done, which stays done, in words: a page shows it under "Cancelled". */
    alreadyDone: z.string().optional(),
  }),
  /** A tool call waits for the user. */
  z.object({ type: z.literal('elicit_request'), callId: z.string(), toolName: z.string(), request: elicitRequestWireSchema }),
  /** An answer was not taken (invalid content, wrong token, stale id); the question stays open. */
  z.object({
    type: z.literal('elicit_refused'),
    callId: z.string(),
    elicitId: z.string(),
    code: z.string(),
    message: z.string(),
    issues: z.array(issueSchema).optional(),
    /**
     * The answer was for an earlier question (`ID_MISMATCH`: a retry after a lost response, a
     * stale tab): the question the call waits on now, so a client without the conversation can
     * catch up and show it.
     */
    current: elicitRequestWireSchema.optional(),
  }),
  /**
   * An answer was taken: the call moves on. `summary` is the answer in one line for people
   * ("Flight id: CA-287"), so the tool card keeps a record once its UI is gone.
   */
  z.object({
    type: z.literal('elicit_answered'),
    callId: z.string(),
    elicitId: z.string(),
    key: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
    summary: z.string(),
  }),
  /**
   * Ends the response to an abort of a call that another response is running: the call was
   * halted, and that other response reports its end (a `tool_result`) and carries on.
   */
  z.object({ type: z.literal('call_aborted'), callId: z.string() }),
  /** An answer or abort named a call this server does not hold (it ended, expired, or the server restarted). */
  z.object({ type: z.literal('call_not_found'), callId: z.string(), message: z.string() }),
  z.object({ type: z.literal('tool_log'), callId: z.string(), level: z.enum(LOG_LEVELS), message: z.string() }),
  z.object({
    type: z.literal('tool_progress'),
    callId: z.string(),
    message: z.string(),
    progress: z.number().optional(),
    total: z.number().optional(),
  }),
  /** Ends a response: the conversation so far, to send back with the next request. */
  z.object({
    type: z.literal('conversation_state'),
    messages: z.array(mcpMessageSchema),
    /** The kept conversation's revision once this turn is saved: the next request names it (`conversationRevision`). */
    revision: z.number().int().optional(),
  }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
])

/** A user message as the conversation's transcript keeps it (the stream never carries one). */
export const userMessageEventSchema = z.object({
  type: z.literal('user_message'),
  text: z.string(),
  /** When the server took it (epoch ms). */
  at: z.number().optional(),
})

/**
 * What a reload restores: the messages to send with the next request, and the transcript the
 * client rebuilds its items from — the same events the stream carried (merged text, the latest
 * progress, the question a call still waits on, with the call's token), plus user messages.
 */
export const conversationSnapshotSchema = z.object({
  id: z.string(),
  revision: z.number().int(),
  messages: z.array(mcpMessageSchema),
  events: z.array(z.union([userMessageEventSchema, chatStreamEventSchema])),
})

/**
 * An `ElicitResult` on the wire: accept with content, decline or cancel.
 */
export type ElicitResultWire = z.infer<typeof elicitResultSchema>
/**
 * A question as it travels to the browser: id, key, message, requested schema, context, parameters.
 */
export type ElicitRequestWire = z.infer<typeof elicitRequestWireSchema>
/**
 * An answer as the browser sends it: the call, the question's id, the call's token and the result.
 */
export type ElicitResponseWire = z.infer<typeof elicitResponseSchema>
/**
 * What the browser POSTs to the chat endpoint: the messages, answers to questions, cancellations, and the conversation's key.
 */
export type ChatRequestBody = z.infer<typeof chatRequestBodySchema>
/**
 * One line of the chat endpoint's NDJSON response: text, a tool call, a question, progress, a result, the conversation's state, an error.
 */
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>
/**
 * The `type` of a `ChatStreamEvent`.
 */
export type ChatStreamEventType = ChatStreamEvent['type']
/**
 * A kept conversation's random id and secret (the browser keeps them; the server never sees the name).
 */
export type ConversationKey = z.infer<typeof conversationKeySchema>
/**
 * One event of a kept conversation's transcript.
 */
export type TranscriptEvent = z.infer<typeof conversationSnapshotSchema>['events'][number]
/**
 * A kept conversation as the server gives it back: its messages and transcript, to restore the chat.
 */
export type ConversationSnapshot = z.infer<typeof conversationSnapshotSchema>
