/**
 * The chat's state as one pure function: `reduceChat(state, input) → state`. Everything that
 * changes what a person sees — an event of the response stream, a user action, a request that
 * failed — is an input; fetching, timers and plugin handlers are the controller's effects and
 * only ever dispatch inputs here. A restored conversation is the same fold over its transcript,
 * so a reload shows exactly what the live stream showed.
 *
 * For example:
 *
 * ```ts
 * const reduce = createChatReducer({ hasPlugin: (tool) => registry.get(tool) !== undefined })
 * let state = initialChatModel()
 * for (const event of snapshot.events) state = reduce(state, { type: 'event', event })
 * ```
 */
import type { IssueSummary } from '../errors/issues.ts'
import { ChatEndpointError } from '../errors/browser-errors.ts'
import type { ElicitRequestWire, TranscriptEvent } from '../protocol/chat-wire.ts'
import type { McpMessage } from '../sampling/content.ts'
import type { LogLevel } from '../tool/context.ts'

/**
 * Where the chat is: `ready`, `restoring` a kept conversation, `streaming` a reply, `awaiting_input` (a question is open) or `error`.
 */
export type ChatStatus = 'ready' | 'restoring' | 'streaming' | 'awaiting_input' | 'error'

/**
 * The question a tool call waits on: the request, whether a plugin handles it, and the errors of a refused answer.
 */
export interface PendingElicitation {
  /** The question as it came over the wire (the generated form reads `message` and `schema`). */
  request: ElicitRequestWire
  /** True when a plugin handles it (its UI is in the emission store); false: show the generated form. */
  handledByPlugin: boolean
  /** Why the last answer was refused by the server. */
  errors?: readonly IssueSummary[]
  submitting: boolean
}

/**
 * One item of the chat, in order: a user or assistant message, or a tool call with its question, answers, progress and result.
 */
export type ChatItem =
  | {
      kind: 'user'
      id: string
      text: string
      /** It did not reach the server (network or server error): `retry(id)` sends it again. */
      failed?: boolean
      /** When it was sent (epoch ms). */
      at?: number
    }
  | {
      kind: 'assistant'
      id: string
      text: string
      /** When the reply began (epoch ms). */
      at?: number
    }
  | {
      kind: 'tool'
      id: string
      callId: string
      toolName: string
      /** The tool's title for people (`.title()`), or its name. */
      title: string
      params: unknown
      /**
       * `declined` / `cancelled`: the call ended after the user declined (or dismissed) its last
       * question, or the user cancelled the call; `completed`: it ended otherwise.
       */
      status: 'running' | 'awaiting_input' | 'completed' | 'declined' | 'failed' | 'cancelled'
      /** What the user answered, one line per question, for the card once the question's UI is gone. */
      answers: readonly AnswerRecord[]
      result?: unknown
      error?: string
      /** A cancelled call's steps that had completed and stay done, in words ("Already done before it stopped (not undone): …"): show it with "Cancelled". */
      alreadyDone?: string
      logs: Array<{ level: LogLevel; message: string }>
      progress?: { message: string; progress?: number; total?: number }
      elicitation?: PendingElicitation
    }

/**
 * A tool call's item in the chat.
 */
export type ToolItem = Extract<ChatItem, { kind: 'tool' }>

/** One answered question of a call: its key, the action, and the answer in one line ("Flight id: CA-287"). */
export interface AnswerRecord {
  key: string
  action: 'accept' | 'decline' | 'cancel'
  summary: string
}

/** What a component renders. */
export interface ChatState {
  status: ChatStatus
  error: Error | undefined
  items: readonly ChatItem[]
  /** The conversations this chat keeps in this browser (with an `id`), the most recently used first. */
  conversations: readonly ConversationSummary[]
  /**
   * What changed without this page doing it, in words — another window answered or booked, the
   * server finished a call — and whether something done here was not sent because of it. Shown
   * until the person does something next.
   */
  notice?: string | undefined
}

export interface ConversationSummary {
  id: string
  title: string
  updatedAt: number
  /** The one on screen. */
  current: boolean
}

/** What the client knows of a live call: its token, and the question it waits on. */
export interface CallTicket {
  token: string | undefined
  elicitId: string | undefined
}

/** The whole state: what is shown, and what the next request carries. */
export interface ChatModel {
  view: ChatState
  /** The messages the next request sends (the server's `conversation_state`, plus what was sent since). */
  conversation: readonly McpMessage[]
  calls: Readonly<Record<string, CallTicket>>
  /** The assistant bubble text deltas go to (a tool call or a new response starts another). */
  assistantId: string | undefined
  /** Counter for item ids. */
  ids: number
  /** The kept conversation's revision this page's messages come from (sent back as `conversationRevision`). */
  revision: number | undefined
}

export type ChatInput =
  /** An event of the response stream (`at`: when it arrived), or of a restored transcript. */
  | { type: 'event'; event: TranscriptEvent; at?: number }
  /** The person sent a message: it shows at once, before its request goes out. */
  | { type: 'user_sent'; id: string; text: string; at?: number }
  /**
   * The last turn is being replaced (edit and resend, regenerate): the items from `fromId` on
   * leave, and the messages go back to what they were before that turn.
   */
  | { type: 'rewound'; fromId: string; conversation: readonly McpMessage[] }
  /** A request is going out with these messages. */
  | { type: 'request'; conversation: readonly McpMessage[] }
  | { type: 'turn_started' }
  | { type: 'turn_ended' }
  /** The response was cut short on purpose (stop, dispose): nothing to report. */
  | { type: 'turn_aborted' }
  | { type: 'turn_failed'; error: Error }
  /** The message never reached the server: it leaves the conversation and shows Retry. */
  | { type: 'message_undelivered'; id: string; conversation: readonly McpMessage[] }
  | { type: 'retrying'; id: string }
  | { type: 'answer_submitting'; callId: string }
  | { type: 'plugin_failed'; callId: string; elicitId: string; message: string }
  /** The person cancelled the call: its card stays cancelled whatever the server reports next. */
  | { type: 'call_cancelled'; callId: string }
  | { type: 'error'; error: Error }
  /** The endpoint answers again: a connection error goes (a failed message keeps its Retry). */
  | { type: 'reachable' }
  | { type: 'restoring' }
  /** Not on the server (never saved, or expired): a new conversation under the same key. */
  | { type: 'restore_empty' }
  | { type: 'restore_failed'; error: Error }
  /** A snapshot from the server replaces what is on screen. */
  | { type: 'restored'; events: readonly TranscriptEvent[]; conversation: readonly McpMessage[]; revision: number }
  /** A new conversation: nothing on screen. */
  | { type: 'cleared' }
  /** The list of kept conversations changed. */
  | { type: 'conversations'; list: readonly ConversationSummary[] }
  /** Say what changed without this page (or take it away: `undefined`). */
  | { type: 'notice'; text: string | undefined }

export function initialChatModel(): ChatModel {
  return { view: { status: 'ready', error: undefined, items: [], conversations: [] }, conversation: [], calls: {}, assistantId: undefined, ids: 0, revision: undefined }
}

export interface ChatReducerOptions {
  /** Whether a plugin of this tool is registered here (its UI answers; otherwise the generated form). */
  hasPlugin(toolName: string): boolean
}

export function createChatReducer(options: ChatReducerOptions): (model: ChatModel, input: ChatInput) => ChatModel {
  return function reduce(model, input) {
    switch (input.type) {
      case 'event':
        return applyEvent(model, input.at !== undefined && input.event.type === 'text_delta' ? { ...input.event, at: input.event.at ?? input.at } : input.event, options)
      case 'user_sent':
        return {
          ...withItems(withView(model, { notice: undefined }), [
            ...model.view.items,
            { kind: 'user', id: input.id, text: input.text, ...(input.at !== undefined && { at: input.at }) },
          ]),
          ids: model.ids + 1,
        }
      case 'rewound': {
        const from = model.view.items.findIndex((i) => i.id === input.fromId)
        if (from < 0) return model
        const items = model.view.items.slice(0, from)
        const kept = new Set(items.flatMap((i) => (i.kind === 'tool' ? [i.callId] : [])))
        const calls = Object.fromEntries(Object.entries(model.calls).filter(([callId]) => kept.has(callId)))
        return { ...withItems(model, items), conversation: input.conversation, calls, assistantId: undefined }
      }
      case 'request':
        return { ...model, conversation: input.conversation }
      case 'turn_started':
        return { ...withView(model, { status: 'streaming', error: undefined }), assistantId: undefined }
      case 'turn_ended':
        return withView(model, { status: restingStatus(model.view.items) })
      case 'turn_aborted':
        return withView(model, { status: 'ready' })
      case 'turn_failed':
        return withView(model, { status: 'error', error: input.error })
      case 'message_undelivered':
        return {
          ...withItems(
            model,
            model.view.items.map((i) => (i.id === input.id && i.kind === 'user' ? { ...i, failed: true } : i)),
          ),
          conversation: input.conversation,
        }
      case 'retrying':
        return withItems(
          model,
          model.view.items.map((i) => (i.id === input.id && i.kind === 'user' ? { ...i, failed: false } : i)),
        )
      case 'answer_submitting':
        return updateTool(withView(model, { notice: undefined }), input.callId, (item) => (item.elicitation ? { elicitation: { ...item.elicitation, submitting: true } } : {}))
      case 'plugin_failed':
        return updateTool(model, input.callId, (item) =>
          item.elicitation?.request.id !== input.elicitId
            ? {}
            : {
                error: `This question's UI failed (${input.message}). Answer it with the form below, or cancel.`,
                elicitation: { ...item.elicitation, handledByPlugin: false },
              },
        )
      case 'call_cancelled':
        return { ...updateTool(model, input.callId, () => ({ status: 'cancelled', elicitation: undefined })), calls: without(model.calls, input.callId) }
      case 'error':
        return withView(model, { error: input.error })
      case 'reachable':
        return model.view.status === 'error' ? withView(model, { status: restingStatus(model.view.items), error: undefined }) : model
      case 'restoring':
        return withView(model, { status: 'restoring', error: undefined })
      case 'restore_empty':
        return withView(model, { status: 'ready' })
      case 'restore_failed':
        return withView(model, { status: 'error', error: input.error })
      case 'conversations':
        return withView(model, { conversations: input.list })
      case 'notice':
        return withView(model, { notice: input.text })
      case 'restored': {
        let next = withView({ ...initialChatModel(), ids: model.ids }, { conversations: model.view.conversations, notice: model.view.notice })
        for (const event of input.events) next = applyEvent(next, event, options)
        next = { ...next, conversation: input.conversation, revision: input.revision }
        return withView(next, { status: restingStatus(next.view.items) })
      }
      case 'cleared':
        return withView({ ...initialChatModel(), ids: model.ids }, { conversations: model.view.conversations })
    }
  }
}

function applyEvent(model: ChatModel, event: TranscriptEvent, options: ChatReducerOptions): ChatModel {
  switch (event.type) {
    case 'user_message': {
      const id = `user-${model.ids + 1}`
      return {
        ...withItems(model, [...model.view.items, { kind: 'user', id, text: event.text, ...(event.at !== undefined && { at: event.at }) }]),
        ids: model.ids + 1,
        assistantId: undefined,
      }
    }
    case 'text_delta': {
      const current = model.assistantId
      if (current) {
        return withItems(
          model,
          model.view.items.map((i) => (i.id === current && i.kind === 'assistant' ? { ...i, text: i.text + event.text } : i)),
        )
      }
      const id = `assistant-${model.ids + 1}`
      return {
        ...withItems(model, [...model.view.items, { kind: 'assistant', id, text: event.text, ...(event.at !== undefined && { at: event.at }) }]),
        ids: model.ids + 1,
        assistantId: id,
      }
    }
    case 'tool_call':
      return {
        ...withItems(model, [
          ...model.view.items,
          {
            kind: 'tool',
            id: `tool-${event.callId}`,
            callId: event.callId,
            toolName: event.toolName,
            title: event.title ?? event.toolName,
            params: event.params,
            status: 'running',
            logs: [],
            answers: [],
          },
        ]),
        calls: { ...model.calls, [event.callId]: { token: event.token, elicitId: undefined } },
        assistantId: undefined,
      }
    case 'tool_result':
      return {
        ...updateTool(model, event.callId, (item) =>
          // A call the user cancelled stays cancelled: the server's result just confirms it.
          item.status === 'cancelled'
            ? { result: event.result, elicitation: undefined, ...(event.alreadyDone && { alreadyDone: event.alreadyDone }) }
            : event.cancelled
              ? // Someone stopped it (here before a reload, or in another tab): cancelled, not failed.
                { status: 'cancelled', result: event.result, elicitation: undefined, ...(event.alreadyDone && { alreadyDone: event.alreadyDone }) }
              : {
                  status: event.isError ? 'failed' : endedAfter(item.answers),
                  result: event.result,
                  elicitation: undefined,
                  ...(event.isError && { error: typeof event.result === 'string' ? event.result : JSON.stringify(event.result) }),
                },
        ),
        calls: without(model.calls, event.callId),
      }
    case 'elicit_request':
      return {
        ...updateTool(model, event.callId, () => ({
          status: 'awaiting_input',
          elicitation: { request: event.request, handledByPlugin: options.hasPlugin(event.toolName), submitting: false },
        })),
        calls: { ...model.calls, [event.callId]: { token: model.calls[event.callId]?.token, elicitId: event.request.id } },
      }
    case 'elicit_refused': {
      // The answer was for an earlier question: the call's question now takes its place.
      const current = event.current
      if (current) {
        const toolName = model.view.items.find((i): i is ToolItem => i.kind === 'tool' && i.callId === event.callId)?.toolName
        if (toolName && current.id !== event.elicitId) return applyEvent(model, { type: 'elicit_request', callId: event.callId, toolName, request: current }, options)
      }
      return updateTool(model, event.callId, (item) =>
        item.elicitation ? { elicitation: { ...item.elicitation, submitting: false, errors: event.issues?.length ? event.issues : [{ path: '', message: event.message }] } } : {},
      )
    }
    case 'elicit_answered':
      return updateTool(model, event.callId, (item) => ({ answers: [...item.answers, { key: event.key, action: event.action, summary: event.summary }], error: undefined }))
    case 'call_aborted':
      return model
    case 'call_not_found':
      return { ...updateTool(model, event.callId, () => ({ status: 'failed', error: event.message, elicitation: undefined })), calls: without(model.calls, event.callId) }
    case 'tool_log':
      // A cancelled call's card stays as the user left it (reports sent before the abort may still arrive).
      return updateTool(model, event.callId, (item) => (item.status === 'cancelled' ? {} : { logs: [...item.logs, { level: event.level, message: event.message }] }))
    case 'tool_progress':
      return updateTool(model, event.callId, (item) =>
        item.status === 'cancelled'
          ? {}
          : {
              progress: {
                message: event.message,
                ...(event.progress !== undefined && { progress: event.progress }),
                ...(event.total !== undefined && { total: event.total }),
              },
            },
      )
    case 'conversation_state':
      return { ...model, conversation: event.messages, ...(event.revision !== undefined && { revision: event.revision }) }
    case 'error':
      return withView(model, { error: new ChatEndpointError(event.message) })
  }
}

/** What the chat rests at when nothing is streaming: waiting for an answer, or idle. */
export function restingStatus(items: readonly ChatItem[]): ChatStatus {
  return items.some((i) => i.kind === 'tool' && i.status === 'awaiting_input') ? 'awaiting_input' : 'ready'
}

function withView(model: ChatModel, patch: Partial<ChatState>): ChatModel {
  return { ...model, view: { ...model.view, ...patch } }
}

function withItems(model: ChatModel, items: readonly ChatItem[]): ChatModel {
  return withView(model, { items })
}

function updateTool(model: ChatModel, callId: string, patch: (item: ToolItem) => Partial<ToolItem>): ChatModel {
  return withItems(
    model,
    model.view.items.map((item) => (item.kind === 'tool' && item.callId === callId ? { ...item, ...patch(item) } : item)),
  )
}

function without<V>(record: Readonly<Record<string, V>>, key: string): Record<string, V> {
  const { [key]: _gone, ...rest } = record
  return rest
}

/** How a call that ended without an error is shown: as the user left its last question. */
function endedAfter(answers: readonly AnswerRecord[]): 'completed' | 'declined' | 'cancelled' {
  const last = answers[answers.length - 1]?.action
  return last === 'decline' ? 'declined' : last === 'cancel' ? 'cancelled' : 'completed'
}
