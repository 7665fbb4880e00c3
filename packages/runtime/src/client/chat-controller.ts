/**
 * The client side of a chat, without React: sends turns to the chat endpoint, applies the
 * stream of events to a state (messages, tool calls with their logs, progress and results),
 * runs plugin handlers for questions, and sends answers back with the call's token.
 * `useChat` is a thin hook over this; tests drive it directly.
 *
 * With an `id`, the conversation is kept on the server: its random key (id and secret) is
 * remembered in `storage` (localStorage by default), every request names it, and `restore()`
 * rebuilds the chat after a reload or in a second tab — messages, tool cards, and the question a
 * call still waits on, shown again by its plugin and answerable.
 */
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { IssueSummary } from '../errors/issues.ts'
import type { PluginClientRegistration } from '../plugin/types.ts'
import {
  conversationSnapshotSchema,
  type ChatRequestBody,
  type ChatStreamEvent,
  type ConversationKey,
  type ElicitRequestWire,
  type ElicitResultWire,
  type TranscriptEvent,
} from '../protocol/chat-wire.ts'
import { readChatEvents } from '../protocol/codec.ts'
import type { McpMessage } from '../sampling/content.ts'
import type { LogLevel } from '../tool/context.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import { conversationKeyStore, type ConversationStorage } from './conversation-key.ts'
import { createEmissionStore, type EmissionStore } from './emission-store.ts'
import { createPluginExecutor, type IncomingQuestion, type PluginExecutor, type SendOutcome } from './plugin-executor.ts'
import { createPluginRegistry, type PluginRegistry } from './plugin-registry.ts'

export type ChatStatus = 'idle' | 'restoring' | 'streaming' | 'awaiting_input' | 'error'

/** `send` while a tool call waits for an answer: the message is not sent (answer or cancel first). */
export class QuestionPendingError extends McpBridgeError {
  readonly code = 'QUESTION_PENDING'
}

/** The chat endpoint answered with an error status, or reported an error in the stream. */
export class ChatEndpointError extends McpBridgeError {
  readonly code = 'CHAT_ENDPOINT_ERROR'
}

export interface PendingElicitation {
  /** The question as it came over the wire (the fallback form reads `message` and `schema`). */
  request: ElicitRequestWire
  /** True when a plugin handles it (its UI is in the emission store); false: show the fallback form. */
  handledByPlugin: boolean
  /** Why the last answer was refused by the server. */
  errors?: readonly IssueSummary[]
  submitting: boolean
}

export type ChatItem =
  | {
      kind: 'user'
      id: string
      text: string
      /** It did not reach the server (network or server error): `retry(id)` sends it again. */
      failed?: boolean
    }
  | { kind: 'assistant'; id: string; text: string }
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
      logs: Array<{ level: LogLevel; message: string }>
      progress?: { message: string; progress?: number; total?: number }
      elicitation?: PendingElicitation
    }

export type ToolItem = Extract<ChatItem, { kind: 'tool' }>

/** One answered question of a call: its key, the action, and the answer in one line ("Flight id: CA-287"). */
export interface AnswerRecord {
  key: string
  action: 'accept' | 'decline' | 'cancel'
  summary: string
}

export interface ChatState {
  status: ChatStatus
  error: Error | undefined
  items: readonly ChatItem[]
}

export interface ChatControllerOptions {
  /** The chat endpoint (default `/api/chat`). */
  api?: string
  plugins?: readonly PluginClientRegistration[]
  fetch?: typeof fetch
  headers?: Record<string, string>
  /**
   * Keep this conversation on the server so a reload or a second tab restores it: a name for it in
   * this browser ("support", "main"). The server never sees the name; it sees a random id and
   * secret, remembered in `storage` under `mcp-bridge:chat:<id>`.
   */
  id?: string
  /** Where the conversation's key is remembered (default: `localStorage`). */
  storage?: ConversationStorage
}

/** What the client knows of a live call: its token, and the question it waits on. */
interface CallTicket {
  token: string | undefined
  elicitId: string | undefined
}

export interface ChatController {
  subscribe(listener: () => void): () => void
  getState(): ChatState
  readonly store: EmissionStore
  readonly registry: PluginRegistry
  /**
   * Rebuild the chat from the server (with an `id`; otherwise nothing to do). Runs once; `send`
   * waits for it. `useChat` calls it on mount.
   */
  restore(): Promise<void>
  /** Forget this conversation and start a new one (a new key; the old one stays on the server until it expires). */
  newConversation(): void
  /** Send again a user message that failed to reach the server. */
  retry(itemId: string): Promise<void>
  /** Send a user message (ignored while empty). */
  send(text: string): Promise<void>
  /** Answer a fallback-form elicitation. */
  respond(callId: string, result: ElicitResult<Record<string, unknown>>): Promise<void>
  /** Abort one tool call (on the server too), or the whole in-flight response. */
  abort(callId?: string): Promise<void>
  /** Stop: the in-flight response (the model stops) and every tool call it has running. */
  stop(): Promise<void>
  /**
   * Stop in-flight work: the response being read and the running handlers. The controller stays
   * usable (React's StrictMode runs an effect's cleanup once right after mounting).
   */
  dispose(): void
}

export function createChatController(options: ChatControllerOptions = {}): ChatController {
  const api = options.api ?? '/api/chat'
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const registry = createPluginRegistry(options.plugins ?? [])
  const keys = options.id === undefined ? undefined : conversationKeyStore(options.id, options.storage)
  let key: ConversationKey | undefined = keys?.load()
  const store = createEmissionStore()
  const listeners = new Set<() => void>()
  const calls = new Map<string, CallTicket>()
  /** Answers waiting to learn whether the server took them, by elicit id. */
  const answerOutcomes = new Map<string, (outcome: SendOutcome) => void>()
  let conversation: McpMessage[] = []
  let state: ChatState = { status: 'idle', error: undefined, items: [] }
  let inflight: AbortController | undefined
  let queue: Promise<void> = Promise.resolve()
  let ids = 0
  /** The assistant bubble text deltas go to (a tool call or a new response starts another). */
  let assistantId: string | undefined
  let restoring: { done: Promise<void>; controller: AbortController; finished: boolean } | undefined
  /** Restores (again) while a restored call still runs on the server with no response reporting it. */
  let followUp: ReturnType<typeof setTimeout> | undefined

  const executor: PluginExecutor = createPluginExecutor({ registry, store, send: sendAnswer })

  function set(patch: Partial<ChatState>) {
    state = { ...state, ...patch }
    for (const listener of [...listeners]) listener()
  }

  function updateTool(callId: string, patch: (item: ToolItem) => Partial<ToolItem>) {
    set({
      items: state.items.map((item) => (item.kind === 'tool' && item.callId === callId ? { ...item, ...patch(item) } : item)),
    })
  }

  /** Requests run one after another (after the restore), so the conversation each carries is the latest. */
  function post(build: () => ChatRequestBody, onUndelivered?: () => void): Promise<void> {
    const run = queue.then(() => restore()).then(() => stream(build(), onUndelivered))
    queue = run.catch(() => {})
    return run
  }

  /** Every request names the conversation it belongs to, when it is kept. */
  function withKey(body: ChatRequestBody): string {
    return JSON.stringify(key ? { ...body, conversation: key } : body)
  }

  function restingStatus(): ChatStatus {
    return state.items.some((i) => i.kind === 'tool' && i.status === 'awaiting_input') ? 'awaiting_input' : 'idle'
  }

  /** Resolves once the endpoint answers anything at all again (polled every 2 s, for up to 2 minutes). */
  let reconnecting: Promise<void> | undefined
  function watchForServer(): void {
    reconnecting ??= (async () => {
      for (let attempt = 0; attempt < 60; attempt++) {
        await new Promise((r) => setTimeout(r, 2_000))
        try {
          await doFetch(api, { method: 'GET', headers: { ...options.headers } })
          // Reachable again: the error goes; a failed message keeps its Retry.
          if (state.status === 'error') set({ status: restingStatus(), error: undefined })
          return
        } catch {
          // still unreachable
        }
      }
    })().finally(() => (reconnecting = undefined))
  }

  /** Send a user message's turn; if it does not reach the server, the message is marked failed (Retry). */
  function sendMessage(itemId: string, message: McpMessage): Promise<void> {
    let before: McpMessage[] = []
    return post(
      () => {
        before = conversation
        conversation = [...conversation, message]
        return { messages: conversation }
      },
      () => {
        // Not taken by the server: the message leaves the conversation until it is retried.
        conversation = before
        set({ items: state.items.map((i) => (i.id === itemId && i.kind === 'user' ? { ...i, failed: true } : i)) })
      },
    )
  }

  async function stream(body: ChatRequestBody, onUndelivered?: () => void): Promise<void> {
    const controller = new AbortController()
    inflight = controller
    clearTimeout(followUp)
    set({ status: 'streaming', error: undefined })
    assistantId = undefined
    let delivered = false
    let unreachable = false
    try {
      let response: Response
      try {
        response = await doFetch(api, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...options.headers },
          body: withKey(body),
          signal: controller.signal,
        })
      } catch (error) {
        if (controller.signal.aborted) throw error
        unreachable = true
        watchForServer()
        throw new ChatEndpointError(`The chat server could not be reached (${(error as Error).message}); checking again in the background.`, { cause: error })
      }
      if (!response.ok || !response.body) throw await responseError(response)
      delivered = true
      for await (const event of readChatEvents(response.body, controller.signal)) {
        if (event.type !== 'elicit_refused') settleAnswers({ ok: true })
        apply(event)
      }
      settleAnswers({ ok: true })
      set({ status: restingStatus() })
    } catch (error) {
      settleAnswers({
        ok: false,
        message: delivered
          ? 'Your answer may not have arrived (the connection broke); please try again.'
          : `Your answer could not be delivered: ${unreachable ? 'the chat server could not be reached. Try again in a moment.' : error instanceof Error ? error.message : String(error)}`,
      })
      if (controller.signal.aborted) {
        set({ status: 'idle' })
        return
      }
      if (!delivered) onUndelivered?.()
      set({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) })
    } finally {
      if (inflight === controller) inflight = undefined
    }
  }

  function apply(event: TranscriptEvent) {
    switch (event.type) {
      case 'user_message':
        assistantId = undefined
        set({ items: [...state.items, { kind: 'user', id: `user-${++ids}`, text: event.text }] })
        return
      case 'text_delta': {
        if (!assistantId) {
          assistantId = `assistant-${++ids}`
          set({ items: [...state.items, { kind: 'assistant', id: assistantId, text: event.text }] })
        } else {
          const id = assistantId
          set({ items: state.items.map((i) => (i.id === id && i.kind === 'assistant' ? { ...i, text: i.text + event.text } : i)) })
        }
        return
      }
      case 'tool_call':
        assistantId = undefined
        calls.set(event.callId, { token: event.token, elicitId: undefined })
        set({
          items: [
            ...state.items,
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
          ],
        })
        return
      case 'tool_result':
        calls.delete(event.callId)
        updateTool(event.callId, (item) =>
          // A call the user cancelled stays cancelled: the server's result just confirms it.
          item.status === 'cancelled'
            ? { result: event.result, elicitation: undefined }
            : {
                status: event.isError ? 'failed' : endedAfter(item.answers),
                result: event.result,
                elicitation: undefined,
                ...(event.isError && { error: typeof event.result === 'string' ? event.result : JSON.stringify(event.result) }),
              },
        )
        return
      case 'elicit_request': {
        const ticket = calls.get(event.callId)
        calls.set(event.callId, { token: ticket?.token, elicitId: event.request.id })
        const question: IncomingQuestion = { callId: event.callId, toolName: event.toolName, request: event.request }
        const handled = executor.handle(question)
        updateTool(event.callId, () => ({
          status: 'awaiting_input',
          elicitation: { request: event.request, handledByPlugin: handled.status === 'handled', submitting: false },
        }))
        if (handled.status === 'handled') void handled.outcome.then((outcome) => outcome.status === 'failed' && pluginFailed(question, outcome.error))
        return
      }
      case 'elicit_refused': {
        const resolve = answerOutcomes.get(event.elicitId)
        answerOutcomes.delete(event.elicitId)
        if (resolve) resolve({ ok: false, message: event.message, ...(event.issues && { issues: event.issues }) })
        updateTool(event.callId, (item) => ({
          ...(item.elicitation && {
            elicitation: { ...item.elicitation, submitting: false, errors: event.issues?.length ? event.issues : [{ path: '', message: event.message }] },
          }),
        }))
        return
      }
      case 'elicit_answered':
        updateTool(event.callId, (item) => ({ answers: [...item.answers, { key: event.key, action: event.action, summary: event.summary }], error: undefined }))
        return
      case 'call_aborted':
        return
      case 'call_not_found':
        calls.delete(event.callId)
        void executor.cancel(event.callId, event.message)
        updateTool(event.callId, () => ({ status: 'failed', error: event.message, elicitation: undefined }))
        return
      case 'tool_log':
        updateTool(event.callId, (item) => (item.status === 'cancelled' ? {} : { logs: [...item.logs, { level: event.level, message: event.message }] }))
        return
      case 'tool_progress':
        // A cancelled call's card stays as the user left it (reports sent before the abort may still arrive).
        updateTool(event.callId, (item) => item.status === 'cancelled' ? {} : ({
          progress: {
            message: event.message,
            ...(event.progress !== undefined && { progress: event.progress }),
            ...(event.total !== undefined && { total: event.total }),
          },
        }))
        return
      case 'conversation_state':
        conversation = event.messages
        return
      case 'error':
        set({ error: new ChatEndpointError(event.message) })
        return
    }
  }

  /**
   * A plugin's handler threw (a bug, or a client built from another version of the tool): the
   * question is not lost — the card says what broke and the generated form asks it instead.
   */
  function pluginFailed(question: IncomingQuestion, error: Error) {
    console.error(error)
    updateTool(question.callId, (item) =>
      item.elicitation?.request.id !== question.request.id
        ? {}
        : {
            error: `This question's UI failed (${error.message}). Answer it with the form below, or cancel.`,
            elicitation: { ...item.elicitation, handledByPlugin: false },
          },
    )
  }

  function settleAnswers(outcome: SendOutcome) {
    for (const resolve of answerOutcomes.values()) resolve(outcome)
    answerOutcomes.clear()
  }

  /** An out-of-band abort: its response only confirms it (`call_aborted`); errors show as usual. */
  async function abortNow(body: ChatRequestBody): Promise<void> {
    try {
      const response = await doFetch(api, { method: 'POST', headers: { 'content-type': 'application/json', ...options.headers }, body: withKey(body) })
      if (!response.ok || !response.body) throw await responseError(response)
      for await (const event of readChatEvents(response.body)) if (event.type === 'error') set({ error: new ChatEndpointError(event.message) })
    } catch (error) {
      set({ error: error instanceof Error ? error : new ChatEndpointError(String(error)) })
    }
  }

  /** Deliver an answer; resolves once the server took it (or refused it). */
  function deliver(callId: string, result: ElicitResultWire): Promise<SendOutcome> {
    const ticket = calls.get(callId)
    const { token, elicitId } = ticket ?? {}
    if (!token || !elicitId) return Promise.resolve({ ok: false, message: `Tool call ${callId} is not waiting for an answer any more.` })
    const outcome = new Promise<SendOutcome>((resolve) => answerOutcomes.set(elicitId, resolve))
    updateTool(callId, (item) => ({ ...(item.elicitation && { elicitation: { ...item.elicitation, submitting: true } }) }))
    void post(() => ({ messages: conversation, elicitResponses: [{ callId, elicitId, token, result }] }))
    return outcome
  }

  function sendAnswer(question: IncomingQuestion, result: ElicitResult<unknown>): Promise<SendOutcome> {
    return deliver(question.callId, result as ElicitResultWire)
  }

  /** Forget what is on screen: handlers, their UI, the calls' tokens. */
  function clearScreen() {
    for (const callId of executor.active()) void executor.cancel(callId, 'the chat was reloaded')
    calls.clear()
    answerOutcomes.clear()
    assistantId = undefined
    conversation = []
    set({ items: [] })
  }

  function restore(): Promise<void> {
    if (!key || !keys) return Promise.resolve()
    if (restoring) return restoring.done
    const controller = new AbortController()
    const current = { controller, finished: false, done: Promise.resolve() }
    current.done = load(key, controller.signal, 0).then(
      () => {
        current.finished = true
      },
      (error: unknown) => {
        // Aborted (the component unmounted) or failed: the next `restore()` (or `send`) tries again,
        // so no message goes out on top of a conversation this page has not seen.
        if (restoring === current) restoring = undefined
        throw error
      },
    )
    restoring = current
    return current.done
  }

  async function load(conversationKey: ConversationKey, signal: AbortSignal, round: number): Promise<void> {
    set({ status: 'restoring', error: undefined })
    try {
      const response = await doFetch(`${api}${api.includes('?') ? '&' : '?'}conversation=${encodeURIComponent(conversationKey.id)}`, {
        headers: { ...options.headers, authorization: `Bearer ${conversationKey.secret}` },
        signal,
      })
      if (response.status === 404) {
        // Never saved (nothing sent yet) or expired: a new conversation under the same key.
        set({ status: 'idle' })
        return
      }
      if (!response.ok) throw await responseError(response)
      const snapshot = conversationSnapshotSchema.safeParse(await response.json())
      if (!snapshot.success) throw new ChatEndpointError('The chat endpoint sent a conversation this client does not understand (is it the same version?).')
      if (signal.aborted) throw signal.reason
      clearScreen()
      for (const event of snapshot.data.events) apply(event)
      conversation = snapshot.data.messages
      set({ status: restingStatus() })
      followRunningCalls(conversationKey, round)
    } catch (error) {
      if (!signal.aborted) set({ status: 'error', error: error instanceof Error ? error : new ChatEndpointError(String(error)) })
      throw error
    }
  }

  /**
   * A call that was running when the page went away goes on without a response to report it; its
   * end reaches the conversation on the server. Look again a few times (1, 2, 4 … s, about a
   * minute in all) while nothing else is going on.
   */
  function followRunningCalls(conversationKey: ConversationKey, round: number) {
    const running = state.items.some((i) => i.kind === 'tool' && i.status === 'running')
    if (!running || round >= 6) return
    followUp = setTimeout(() => {
      if (inflight || state.status !== 'idle' || key !== conversationKey) return
      const controller = new AbortController()
      void load(conversationKey, controller.signal, round + 1).catch(() => {})
    }, 1000 * 2 ** Math.min(round, 3))
  }

  /** Abort one tool call, on the server too (with its token); its UI goes at once. */
  async function abortCall(callId: string): Promise<void> {
    const token = calls.get(callId)?.token
    const item = state.items.find((i): i is ToolItem => i.kind === 'tool' && i.callId === callId)
    await executor.cancel(callId, 'cancelled by the user')
    updateTool(callId, () => ({ status: 'cancelled', elicitation: undefined }))
    calls.delete(callId)
    if (!token) return
    const abort = { callId, token, reason: 'cancelled by the user' }
    // A call the in-flight response is running is aborted at once, beside that response (which
    // then reports its end); one waiting for an answer is aborted in turn, like any request.
    if (item?.status === 'running' && inflight) await abortNow({ messages: conversation, abort })
    else await post(() => ({ messages: conversation, abort }))
  }

  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getState: () => state,
    store,
    registry,
    restore,
    newConversation() {
      inflight?.abort()
      restoring?.controller.abort()
      clearTimeout(followUp)
      clearScreen()
      if (keys) {
        key = keys.renew()
        restoring = { done: Promise.resolve(), controller: new AbortController(), finished: true }
      }
      set({ status: 'idle', error: undefined })
    },
    async send(text) {
      const trimmed = text.trim()
      if (!trimmed) return
      // After a restore, so the message lands below what it brings back.
      await restore()
      // A question is open: the message would not be taken (see the chat handler); say so instead.
      const open = state.items.find((i): i is ToolItem => i.kind === 'tool' && i.status === 'awaiting_input')
      if (open) {
        set({ error: new QuestionPendingError(`Answer or cancel the question of ${open.toolName} above first; your message was not sent.`) })
        return
      }
      const id = `user-${++ids}`
      set({ items: [...state.items, { kind: 'user', id, text: trimmed }] })
      return sendMessage(id, { role: 'user', content: [{ type: 'text', text: trimmed }] })
    },
    async retry(itemId) {
      const item = state.items.find((i) => i.id === itemId)
      if (item?.kind !== 'user' || !item.failed) return
      set({ items: state.items.map((i) => (i.id === itemId ? { ...item, failed: false } : i)) })
      return sendMessage(itemId, { role: 'user', content: [{ type: 'text', text: item.text }] })
    },
    async respond(callId, result) {
      await deliver(callId, result)
    },
    async abort(callId) {
      if (callId === undefined) {
        inflight?.abort()
        return
      }
      return abortCall(callId)
    },
    async stop() {
      const running = state.items.filter((i): i is ToolItem => i.kind === 'tool' && i.status === 'running').map((i) => i.callId)
      // The response first (the model stops talking), then the tools it had running (their `finally` runs).
      inflight?.abort()
      await Promise.all(running.map(abortCall))
    },
    dispose() {
      inflight?.abort()
      clearTimeout(followUp)
      if (restoring && !restoring.finished) {
        // Forgotten at once: StrictMode mounts again right away, and that mount restores anew.
        restoring.controller.abort()
        restoring = undefined
      }
      for (const callId of executor.active()) void executor.cancel(callId, 'chat closed')
    },
  }
}

async function responseError(response: Response): Promise<Error> {
  let detail = ''
  try {
    const body = (await response.json()) as { message?: unknown }
    if (typeof body?.message === 'string') detail = `: ${body.message}`
  } catch {
    // not JSON: the status says enough
  }
  return new ChatEndpointError(`The chat endpoint answered ${response.status} ${response.statusText}${detail}`)
}

/** How a call that ended without an error is shown: as the user left its last question. */
function endedAfter(answers: readonly AnswerRecord[]): 'completed' | 'declined' | 'cancelled' {
  const last = answers[answers.length - 1]?.action
  return last === 'decline' ? 'declined' : last === 'cancel' ? 'cancelled' : 'completed'
}
