/**
 * The client side of a chat, without React: sends turns to the chat endpoint, applies the
 * stream of events to a state (messages, tool calls with their logs, progress and results),
 * runs plugin handlers for questions, and sends answers back with the call's token.
 * `useChat` is a thin hook over this; tests drive it directly.
 *
 * The state is `reduceChat` (`chat-state.ts`), a pure function of the events and actions; this
 * file holds only the effects: requests (one after another, so each carries the latest
 * conversation), the reconnect watch, the follow-up of calls still running after a reload, and
 * the plugin handlers. Every effect belongs to one lifetime, an `AbortSignal`: `dispose()` ends
 * it, and nothing — no request, no timer — outlives it.
 *
 * With an `id`, the conversation is kept on the server: its random key (id and secret) is
 * remembered in `storage` (localStorage by default), every request names it, and `restore()`
 * rebuilds the chat after a reload or in a second tab — messages, tool cards, and the question a
 * call still waits on, shown again by its plugin and answerable.
 */
import type { PluginClientRegistration } from '../plugin/types.ts'
import {
  conversationSnapshotSchema,
  STOPPED_BY_USER,
  type ChatRequestBody,
  type ConversationKey,
  type ConversationSnapshot,
  type ElicitResultWire,
  type TranscriptEvent,
} from '../protocol/chat-wire.ts'
import { readChatEvents } from '../protocol/codec.ts'
import type { McpMessage } from '../sampling/content.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import { ChatEndpointError, QuestionPendingError } from '../errors/browser-errors.ts'
import { createChatReducer, initialChatModel, type ChatInput, type ChatModel, type ChatState, type ToolItem } from './chat-state.ts'
import { conversationKeyStore, type ConversationStorage } from './conversation-key.ts'
import { createEmissionStore, type EmissionStore } from './emission-store.ts'
import { createPluginExecutor, type IncomingQuestion, type PluginExecutor, type SendOutcome } from './plugin-executor.ts'
import { createPluginRegistry, type PluginRegistry } from './plugin-registry.ts'

export type { AnswerRecord, ChatItem, ChatState, ChatStatus, ConversationSummary, PendingElicitation, ToolItem } from './chat-state.ts'

/**
 * What `useChat` and `createChatController` take: the endpoint, the plugins (the generated `clientPlugins`), and `id` to keep the conversation across reloads.
 */
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

/**
 * The chat client without React: its state (messages, tool calls, questions, status), sending, answering, stopping, and kept conversations. `useChat` is this in a hook.
 */
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
  /** Start a new conversation (a new key); the one on screen stays in `conversations`, to reopen. */
  newConversation(): void
  /** Show a kept conversation again (one of `state.conversations`). */
  openConversation(id: string): Promise<void>
  /** A title of the person's own for a kept conversation. */
  renameConversation(id: string, title: string): void
  /** Delete a kept conversation, on the server too (its waiting calls are cancelled); the current one starts over. */
  deleteConversation(id: string): Promise<void>
  /** Send again a user message that failed to reach the server. */
  retry(itemId: string): Promise<void>
  /** Send a user message (ignored while empty): a string, or `{ text }` as the AI SDK's `sendMessage` takes. */
  sendMessage(message: string | { text: string }): Promise<void>
  /**
   * Replace the last turn with `text`: the last user message and everything after it leave (on
   * the server too), and `text` is sent in its place. Not while a call of that turn runs or waits.
   */
  editLastMessage(text: string): Promise<void>
  /** Ask again for the last reply: the last turn is replaced by its own message, sent again. */
  regenerate(): Promise<void>
  /** Answer a fallback-form elicitation. */
  respond(callId: string, result: ElicitResult<Record<string, unknown>>): Promise<void>
  /** Abort one tool call (on the server too), or the whole in-flight response. */
  abort(callId?: string): Promise<void>
  /** Stop: the in-flight response (the model stops) and every tool call it has running. */
  stop(): Promise<void>
  /** The person read `state.notice`: it goes. */
  dismissNotice(): void
  /**
   * End every effect: the response being read, queued requests, the reconnect watch, follow-ups
   * and the running handlers. The controller stays usable — the next call starts a new lifetime
   * (React's StrictMode runs an effect's cleanup once right after mounting).
   */
  dispose(): void
}

/** How often, and how long, a chat that lost its server checks whether it is back. */
const RECONNECT_EVERY_MS = 2_000
const RECONNECT_ATTEMPTS = 60
/**
 * Follow-ups of calls still running after a reload: every 2 s for the first minute (their progress
 * moves on the page), then every 8 s, about five minutes in all — long enough for a call whose
 * server stopped to be taken over (within 15 s) and finish.
 */
const FOLLOW_UP_ROUNDS = 60

/** A page that was behind is brought up to date. */
const MOVED_ON_ELSEWHERE = 'This conversation changed in another window or on the server; it now shows what happened there.'
/** …and what it just did was refused for it. */
const NOT_SENT_MOVED_ON = 'This conversation changed in another window or on the server, so what you just did here was not sent. It now shows what happened there.'

function followUpDelay(round: number): number {
  return round < 30 ? 2_000 : 8_000
}

/**
 * The chat client without React (for Vue, Svelte or plain DOM): talks to the chat endpoint, runs plugin handlers,
 * keeps the chat's state and, with an `id`, the conversation across reloads. `useChat` wraps one.
 *
 * @example
 * ```ts
 * import { createChatController } from '@mcp-bridge/runtime/client'
 * import { clientPlugins } from './mcp-bridge/client.gen.ts'
 *
 * const chat = createChatController({ api: '/api/chat', plugins: clientPlugins })
 * chat.subscribe(() => console.log(chat.getState().status))
 * await chat.sendMessage('Book a flight to Lisbon')
 * ```
 */
export function createChatController(options: ChatControllerOptions = {}): ChatController {
  const api = options.api ?? '/api/chat'
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  const registry = createPluginRegistry(options.plugins ?? [])
  const keys = options.id === undefined ? undefined : conversationKeyStore(options.id, options.storage)
  const loaded = keys?.load()
  let key: ConversationKey | undefined = loaded && { id: loaded.id, secret: loaded.secret }
  const store = createEmissionStore()
  const listeners = new Set<() => void>()
  const reduce = createChatReducer({ hasPlugin: (toolName) => registry.get(toolName) !== undefined })
  let model: ChatModel = initialChatModel()
  /** Answers waiting to learn whether the server took them, by elicit id. */
  const answerOutcomes = new Map<string, (outcome: SendOutcome) => void>()
  let inflight: AbortController | undefined
  let queue: Promise<void> = Promise.resolve()
  // A key made just now has nothing on the server to restore: no request (and no 404 to log).
  let restoring: { done: Promise<void>; controller: AbortController; finished: boolean } | undefined = loaded?.fresh
    ? { done: Promise.resolve(), controller: new AbortController(), finished: true }
    : undefined
  let reconnecting: Promise<void> | undefined
  /** Ends the pending follow-up of running calls (a new request makes it moot). */
  let followUp: AbortController | undefined
  let life = new AbortController()
  /** The request id of each user message, kept for its retries (a retry of a taken turn is refused, not run again). */
  const requestIds = new Map<string, string>()
  /** User messages that replace the last turn (edit, regenerate): their retries do too. */
  const replacing = new Set<string>()
  /** Replies already asked for after a restore, by request id: each is asked for once. */
  const repliesAsked = new Set<string>()
  /** A response broke mid-turn: restore the conversation once the server answers again. */
  let reloadWhenBack = false

  const executor: PluginExecutor = createPluginExecutor({ registry, store, send: sendAnswer })

  /** The current lifetime's signal (a new lifetime after `dispose()`). */
  function lifetime(): AbortSignal {
    if (life.signal.aborted) life = new AbortController()
    return life.signal
  }

  function dispatch(input: ChatInput): void {
    const before = model.view
    model = reduce(model, input)
    if (model.view !== before) for (const listener of [...listeners]) listener()
  }

  /** Requests run one after another (after the restore), so the conversation each carries is the latest. */
  function post(build: () => ChatRequestBody, onUndelivered?: () => void, onMovedOn?: () => void): Promise<void> {
    const signal = lifetime()
    const run = queue.then(() => restore()).then(() => (signal.aborted ? undefined : stream(build(), signal, onUndelivered, onMovedOn)))
    queue = run.catch(() => {})
    return run
  }

  /**
   * Every request names the conversation it belongs to, when it is kept, and the revision of it
   * this page has seen: a page behind another tab is told so (409) instead of overwriting it.
   */
  function withKey(body: ChatRequestBody): string {
    if (!key) return JSON.stringify(body)
    return JSON.stringify({ ...body, conversation: key, ...(model.revision !== undefined && { conversationRevision: model.revision }) })
  }

  /** Checks every 2 s, for up to 2 minutes and only during this lifetime, whether the endpoint answers again. */
  function watchForServer(): void {
    const signal = lifetime()
    reconnecting ??= (async () => {
      for (let attempt = 0; attempt < RECONNECT_ATTEMPTS; attempt++) {
        if (!(await pause(RECONNECT_EVERY_MS, signal))) return
        try {
          // OPTIONS: any answer at all means the endpoint is back, and it answers this one with 204.
          await doFetch(api, { method: 'OPTIONS', headers: { ...options.headers }, signal })
          dispatch({ type: 'reachable' })
          // "Could not be delivered" no longer holds: the question is ready to be answered again.
          store.dropErrors((error) => error.path === '' && error.message.startsWith(UNDELIVERED))
          if (reloadWhenBack) {
            reloadWhenBack = false
            reload()
          }
          return
        } catch {
          if (signal.aborted) return
        }
      }
    })().finally(() => (reconnecting = undefined))
  }

  /**
   * Send a user message's turn; if it does not reach the server, the message is marked failed
   * (Retry). If the conversation moved on in another tab, the message goes again — once — on top
   * of what the restore brought back.
   */
  function sendMessage(itemId: string, message: McpMessage, again = true): Promise<void> {
    let before: readonly McpMessage[] = []
    const requestId = requestIds.get(itemId) ?? newRequestId()
    requestIds.set(itemId, requestId)
    // A message that replaces the last turn does so on every try; after another tab moved the
    // conversation on, it is not sent again (it would replace a turn the person has not seen).
    const replaceLastTurn = replacing.has(itemId)
    if (replaceLastTurn) again = false
    const text = message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
    if (key && keys) {
      // The first message edited: the title it gave follows it (unless the person named the chat).
      const first = !model.conversation.some((m) => m.role === 'user' && m.content.some((b) => b.type === 'text'))
      keys.touch(key, text, { retitle: replaceLastTurn && first })
      listConversations()
    }
    return post(
      () => {
        before = model.conversation
        dispatch({ type: 'request', conversation: [...model.conversation, message] })
        return { messages: [...model.conversation], requestId, ...(replaceLastTurn && { replaceLastTurn: true as const }) }
      },
      // Not taken by the server: the message leaves the conversation until it is retried.
      () => dispatch({ type: 'message_undelivered', id: itemId, conversation: before }),
      () => {
        if (!again) return
        const id = `user-${model.ids + 1}`
        dispatch({ type: 'user_sent', id, text, at: Date.now() })
        void sendMessage(id, message, false)
      },
    )
  }

  async function stream(body: ChatRequestBody, signal: AbortSignal, onUndelivered?: () => void, onMovedOn?: () => void): Promise<void> {
    const controller = new AbortController()
    const end = () => controller.abort(signal.reason)
    signal.addEventListener('abort', end, { once: true })
    inflight = controller
    followUp?.abort()
    dispatch({ type: 'turn_started' })
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
      if (response.status === 409 && key) {
        // A retry of a turn the server took before (its response was lost), or a page behind
        // another tab: nothing ran. Restore what is there; a message is sent again on top of it.
        const code = ((await response.json().catch(() => ({}))) as { code?: string }).code
        delivered = code === 'REQUEST_ALREADY_APPLIED'
        settleAnswers(delivered ? { ok: true } : { ok: false, message: NOT_SENT_MOVED_ON })
        dispatch({ type: 'turn_ended' })
        // Said in words: what the person just did here was not sent, and the page changes under them.
        if (code === 'CONVERSATION_MOVED_ON') dispatch({ type: 'notice', text: NOT_SENT_MOVED_ON })
        reload()
        if (code === 'CONVERSATION_MOVED_ON') onMovedOn?.()
        if (code === 'TURN_STILL_OPEN') {
          dispatch({
            type: 'error',
            error: new QuestionPendingError('The last turn has a tool call still running or waiting for you; answer or cancel it first. Nothing was changed.'),
          })
        }
        return
      }
      if (!response.ok || !response.body) throw await responseError(response)
      delivered = true
      for await (const event of readChatEvents(response.body, controller.signal)) {
        if (event.type !== 'elicit_refused') settleAnswers({ ok: true })
        dispatch({ type: 'event', event, at: Date.now() })
        react(event)
      }
      settleAnswers({ ok: true })
      dispatch({ type: 'turn_ended' })
      announce()
    } catch (error) {
      settleAnswers({
        ok: false,
        message: delivered
          ? 'Your answer may not have arrived (the connection broke); please try again.'
          : `${UNDELIVERED} ${unreachable ? 'the chat server could not be reached. Try again in a moment.' : error instanceof Error ? error.message : String(error)}`,
      })
      if (controller.signal.aborted) {
        dispatch({ type: 'turn_aborted' })
        return
      }
      if (!delivered) onUndelivered?.()
      else if (key) {
        // The response broke mid-turn (its server stopped?): the turn's calls go on, or are taken
        // over by another server; once the endpoint answers again, the conversation shows where they are.
        reloadWhenBack = true
        watchForServer()
      }
      dispatch({ type: 'turn_failed', error: error instanceof Error ? error : new Error(String(error)) })
    } finally {
      signal.removeEventListener('abort', end)
      if (inflight === controller) inflight = undefined
    }
  }

  /** The effects of an event, after the state took it: questions go to their plugins, refusals to the waiting answer. */
  function react(event: TranscriptEvent): void {
    switch (event.type) {
      case 'elicit_request': {
        const question: IncomingQuestion = { callId: event.callId, toolName: event.toolName, request: event.request }
        const handled = executor.handle(question)
        if (handled.status === 'handled') void handled.outcome.then((outcome) => outcome.status === 'failed' && pluginFailed(question, outcome.error))
        return
      }
      case 'elicit_refused': {
        const resolve = answerOutcomes.get(event.elicitId)
        answerOutcomes.delete(event.elicitId)
        resolve?.({ ok: false, message: event.message, ...(event.issues && { issues: event.issues }) })
        // The call waits on another question now (the state shows it): its plugin asks it.
        const card = model.view.items.find((i): i is ToolItem => i.kind === 'tool' && i.callId === event.callId)
        if (event.current && card?.elicitation?.request.id === event.current.id) {
          void executor
            .cancel(event.callId, 'the call moved on to its next question')
            .then(() => react({ type: 'elicit_request', callId: event.callId, toolName: card.toolName, request: event.current! }))
        }
        return
      }
      case 'call_not_found':
        void executor.cancel(event.callId, event.message)
        return
      default:
        return
    }
  }

  /**
   * A plugin's handler threw (a bug, or a client built from another version of the tool): the
   * question is not lost — the card says what broke and the generated form asks it instead.
   */
  function pluginFailed(question: IncomingQuestion, error: Error): void {
    console.error(error)
    dispatch({ type: 'plugin_failed', callId: question.callId, elicitId: question.request.id, message: error.message })
  }

  function settleAnswers(outcome: SendOutcome): void {
    for (const resolve of answerOutcomes.values()) resolve(outcome)
    answerOutcomes.clear()
  }

  /** An out-of-band abort: its response only confirms it (`call_aborted`); errors show as usual. */
  async function abortNow(body: ChatRequestBody): Promise<void> {
    try {
      // Without the conversation: the turn running the call records its end there, and this
      // request's messages (taken mid-turn) must not overwrite what that turn writes.
      const response = await doFetch(api, { method: 'POST', headers: { 'content-type': 'application/json', ...options.headers }, body: JSON.stringify(body), signal: lifetime() })
      if (!response.ok || !response.body) throw await responseError(response)
      for await (const event of readChatEvents(response.body)) if (event.type === 'error') dispatch({ type: 'error', error: new ChatEndpointError(event.message) })
    } catch (error) {
      if (life.signal.aborted) return
      dispatch({ type: 'error', error: error instanceof Error ? error : new ChatEndpointError(String(error)) })
    }
  }

  /** Deliver an answer; resolves once the server took it (or refused it). */
  function deliver(callId: string, result: ElicitResultWire): Promise<SendOutcome> {
    const { token, elicitId } = model.calls[callId] ?? {}
    if (!token || !elicitId) return Promise.resolve({ ok: false, message: `Tool call ${callId} is not waiting for an answer any more.` })
    const outcome = new Promise<SendOutcome>((resolve) => answerOutcomes.set(elicitId, resolve))
    dispatch({ type: 'answer_submitting', callId })
    void post(() => ({ messages: [...model.conversation], elicitResponses: [{ callId, elicitId, token, result }] }))
    return outcome
  }

  function sendAnswer(question: IncomingQuestion, result: ElicitResult<unknown>): Promise<SendOutcome> {
    return deliver(question.callId, result as ElicitResultWire)
  }

  /** Forget what is on screen: handlers, their UI, the calls' tokens. */
  function clearScreen(reason: string): void {
    for (const callId of executor.active()) void executor.cancel(callId, reason)
    answerOutcomes.clear()
  }

  function restore(): Promise<void> {
    if (!key || !keys) return Promise.resolve()
    if (restoring) return restoring.done
    const controller = new AbortController()
    const current = { controller, finished: false, done: Promise.resolve() }
    current.done = load(key, AbortSignal.any([controller.signal, lifetime()]), 0).then(
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
    // A look again while a call runs is quiet: the page stays as it is, not "restoring".
    if (round === 0) dispatch({ type: 'restoring' })
    try {
      const snapshot = await fetchSnapshot(conversationKey, signal)
      if (!snapshot) {
        dispatch({ type: 'restore_empty' })
        return
      }
      show(snapshot)
      followRunningCalls(conversationKey, round, signal)
      askForReply()
      tabs()
      watchFocus()
      listConversations()
    } catch (error) {
      if (signal.aborted) throw error
      // A quiet look that fails (the server busy, a limit) changes nothing on screen: the next look tries again.
      if (round > 0) return followRunningCalls(conversationKey, round, signal)
      dispatch({ type: 'restore_failed', error: error instanceof Error ? error : new ChatEndpointError(String(error)) })
      throw error
    }
  }

  /** The kept conversation as the server has it; undefined if it has none under that key. */
  async function fetchSnapshot(conversationKey: ConversationKey, signal: AbortSignal): Promise<ConversationSnapshot | undefined> {
    const response = await doFetch(`${api}${api.includes('?') ? '&' : '?'}conversation=${encodeURIComponent(conversationKey.id)}`, {
      headers: { ...options.headers, authorization: `Bearer ${conversationKey.secret}` },
      signal,
    })
    if (response.status === 404) return undefined
    if (!response.ok) throw await responseError(response)
    const snapshot = conversationSnapshotSchema.safeParse(await response.json())
    if (!snapshot.success) throw new ChatEndpointError('The chat endpoint sent a conversation this client does not understand (is it the same version?).')
    if (signal.aborted) throw signal.reason
    return snapshot.data
  }

  function show(snapshot: ConversationSnapshot): void {
    clearScreen('the chat was reloaded')
    dispatch({ type: 'restored', events: snapshot.events, conversation: snapshot.messages, revision: snapshot.revision })
    for (const event of snapshot.events) if (event.type === 'elicit_request' && isOpen(event.callId, event.request.id)) react(event)
  }

  /**
   * A window of another browser (or profile) hears nothing of this one's changes: when the person
   * comes back to it (it gets the focus, or is shown again), it looks whether the conversation
   * moved on, and if so shows it as it is now and says so. Nothing changes under a page that is
   * up to date (a seat picked but not confirmed stays picked).
   */
  let focusWatched: AbortSignal | undefined
  function watchFocus(): void {
    const signal = lifetime()
    if (focusWatched === signal || typeof window === 'undefined' || typeof document === 'undefined') return
    focusWatched = signal
    const look = () => {
      const conversationKey = key
      if (!conversationKey || inflight || document.visibilityState !== 'visible' || model.view.status === 'restoring') return
      void fetchSnapshot(conversationKey, signal)
        .then((snapshot) => {
          if (!snapshot || snapshot.revision <= (model.revision ?? 0) || inflight || key !== conversationKey || signal.aborted) return
          show(snapshot)
          dispatch({ type: 'notice', text: MOVED_ON_ELSEWHERE })
          followRunningCalls(conversationKey, 0, signal)
        })
        .catch(() => {}) // a look that fails changes nothing: the next request learns it
    }
    window.addEventListener('focus', look, { signal })
    document.addEventListener('visibilitychange', look, { signal })
  }

  function newConversation(): void {
    inflight?.abort()
    restoring?.controller.abort()
    followUp?.abort()
    clearScreen('the chat was reloaded')
    dispatch({ type: 'cleared' })
    if (keys) {
      key = keys.renew()
      restoring = { done: Promise.resolve(), controller: new AbortController(), finished: true }
      listConversations()
    }
  }

  /** The kept conversations, as the state shows them. */
  function listConversations(): void {
    if (!keys) return
    dispatch({ type: 'conversations', list: keys.list().map((e) => ({ id: e.id, title: e.title, updatedAt: e.updatedAt, current: e.id === key?.id })) })
  }

  /** Restore the conversation again (after this one's first restore): the server knows better. */
  function reload(): void {
    if (!key) return
    restoring = undefined
    void restore().catch(() => {})
  }

  /**
   * Tabs of one conversation stay in step: a turn that ended here tells the others (same browser,
   * a BroadcastChannel per conversation), and a tab that is not busy restores what changed — an
   * answer given in one closes the question in the other.
   */
  let channel: BroadcastChannel | undefined
  function tabs(): BroadcastChannel | undefined {
    if (!key || typeof BroadcastChannel === 'undefined') return undefined
    if (channel?.name !== `mcp-bridge:conversation:${key.id}`) {
      channel?.close()
      channel = new BroadcastChannel(`mcp-bridge:conversation:${key.id}`)
      // Under Node (tests, SSR) an open channel would keep the process alive.
      ;(channel as { unref?: () => void }).unref?.()
      channel.onmessage = (message: MessageEvent<{ revision?: unknown }>) => {
        const revision = message.data?.revision
        if (typeof revision !== 'number' || (model.revision ?? 0) >= revision || life.signal.aborted) return
        if (inflight) return // this tab is mid-turn: its own request learns it (409) and restores
        reload()
      }
    }
    return channel
  }
  function announce(): void {
    if (model.revision !== undefined) tabs()?.postMessage({ revision: model.revision })
  }

  /**
   * Every call of the last turn ended while no response was there to go on (the page was reloaded,
   * the server stopped and another took the calls over): the model has not replied to their
   * results yet. Ask for that reply — once, under one request id, so two tabs get one reply.
   */
  function askForReply(): void {
    if (model.view.items.some((i) => i.kind === 'tool' && (i.status === 'running' || i.status === 'awaiting_input'))) return
    const ids = pendingReplyFor(model.conversation)
    if (!ids) return
    // Stop means stop: a turn the person stopped a call of gets no reply (the model reads it next turn).
    if (model.view.items.some((i) => i.kind === 'tool' && i.status === 'cancelled' && ids.includes(i.callId))) return
    const requestId = `reply:${ids.join(':')}`.replace(/[^A-Za-z0-9_:-]/g, '-').slice(0, 128)
    if (repliesAsked.has(requestId)) return
    repliesAsked.add(requestId)
    void post(() => ({ messages: [...model.conversation], requestId }))
  }

  /**
   * Replace the last turn: its user message and what followed leave the screen and the messages,
   * and `text` (or the same message again) goes in its place, the server dropping that turn from
   * the kept conversation. Refused, with the reason shown, while anything of the turn goes on.
   */
  async function replaceLastTurn(text: string | undefined): Promise<void> {
    await restore()
    const items = model.view.items
    const open = items.find((i): i is ToolItem => i.kind === 'tool' && (i.status === 'running' || i.status === 'awaiting_input'))
    if (model.view.status === 'streaming' || open) {
      const what = open ? `the call of ${open.toolName} above is still ${open.status === 'running' ? 'running' : 'waiting for you'}` : 'a reply is still coming'
      dispatch({ type: 'error', error: new QuestionPendingError(`The last message cannot be replaced while ${what}; nothing was changed.`) })
      return
    }
    const last = items.findLastIndex((i) => i.kind === 'user')
    const item = items[last]
    // A message that never arrived is not a turn the server has: Retry sends it.
    if (item?.kind !== 'user' || item.failed) return
    const message = (text ?? item.text).trim()
    if (!message) return
    // The messages of the turns before it: up to the last message the person typed (tool results travel as user messages too).
    const at = model.conversation.findLastIndex((m) => m.role === 'user' && m.content.some((b) => b.type === 'text'))
    dispatch({ type: 'rewound', fromId: item.id, conversation: model.conversation.slice(0, Math.max(0, at)) })
    const id = `user-${model.ids + 1}`
    replacing.add(id)
    dispatch({ type: 'user_sent', id, text: message, at: Date.now() })
    return sendMessage(id, { role: 'user', content: [{ type: 'text', text: message }] })
  }

  /** The restored question `elicitId` of `callId` is still open (its plugin shows it again). */
  function isOpen(callId: string, elicitId: string): boolean {
    return model.view.items.some((i) => i.kind === 'tool' && i.callId === callId && i.elicitation?.request.id === elicitId)
  }

  /**
   * A call that was running when the page went away goes on without a response to report it; its
   * end reaches the conversation on the server. Look again (`followUpDelay`) while nothing
   * else is going on, and only during this lifetime.
   */
  function followRunningCalls(conversationKey: ConversationKey, round: number, signal: AbortSignal): void {
    const running = model.view.items.some((i) => i.kind === 'tool' && i.status === 'running')
    if (!running || round >= FOLLOW_UP_ROUNDS) return
    followUp?.abort()
    const pending = new AbortController()
    followUp = pending
    void pause(followUpDelay(round), AbortSignal.any([pending.signal, signal])).then((due) => {
      if (!due || inflight || model.view.status !== 'ready' || key !== conversationKey) return
      void load(conversationKey, signal, round + 1).catch(() => {})
    })
  }

  /** Abort one tool call, on the server too (with its token); its UI goes at once. */
  async function abortCall(callId: string): Promise<void> {
    const token = model.calls[callId]?.token
    const item = model.view.items.find((i): i is ToolItem => i.kind === 'tool' && i.callId === callId)
    await executor.cancel(callId, STOPPED_BY_USER)
    dispatch({ type: 'call_cancelled', callId })
    if (!token) return
    const abort = { callId, token, reason: STOPPED_BY_USER }
    // A call the in-flight response is running is aborted at once, beside that response (which
    // then reports its end); one waiting for an answer is aborted in turn, like any request.
    if (item?.status === 'running' && inflight) await abortNow({ messages: [...model.conversation], abort })
    // If the conversation moved on in another tab, the abort goes again on top of the restore.
    else
      await post(
        () => ({ messages: [...model.conversation], abort }),
        undefined,
        () => void post(() => ({ messages: [...model.conversation], abort })),
      )
  }

  listConversations()

  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getState: () => model.view,
    store,
    registry,
    restore,
    newConversation,
    async openConversation(id) {
      if (!keys || id === key?.id) return
      const opened = keys.open(id)
      if (!opened) return
      inflight?.abort()
      restoring?.controller.abort()
      followUp?.abort()
      clearScreen('another conversation was opened')
      dispatch({ type: 'cleared' })
      key = opened
      restoring = undefined
      listConversations()
      await restore().catch(() => {})
    },
    renameConversation(id, title) {
      keys?.rename(id, title)
      listConversations()
    },
    async deleteConversation(id) {
      const entry = keys?.list().find((e) => e.id === id)
      if (!keys || !entry) return
      const response = await doFetch(`${api}${api.includes('?') ? '&' : '?'}conversation=${encodeURIComponent(id)}`, {
        method: 'DELETE',
        headers: { ...options.headers, authorization: `Bearer ${entry.secret}` },
      }).catch((error: unknown) => error as Error)
      // Gone on the server already (expired) is as good as deleted; anything else keeps it listed.
      if (response instanceof Error || (!response.ok && response.status !== 404)) {
        dispatch({
          type: 'error',
          error: new ChatEndpointError(
            `The conversation could not be deleted${response instanceof Error ? ` (${response.message})` : `: the endpoint answered ${response.status}`}; it is still listed.`,
          ),
        })
        return
      }
      keys.remove(id)
      if (id === key?.id) newConversation()
      else listConversations()
    },
    async sendMessage(message) {
      const trimmed = (typeof message === 'string' ? message : (message?.text ?? '')).trim()
      if (!trimmed) return
      // After a restore, so the message lands below what it brings back.
      await restore()
      // A question is open: the message would not be taken (see the chat handler); say so instead.
      const open = model.view.items.find((i): i is ToolItem => i.kind === 'tool' && i.status === 'awaiting_input')
      if (open) {
        dispatch({ type: 'error', error: new QuestionPendingError(`Answer or cancel the question of ${open.toolName} above first; your message was not sent.`) })
        return
      }
      const id = `user-${model.ids + 1}`
      dispatch({ type: 'user_sent', id, text: trimmed, at: Date.now() })
      return sendMessage(id, { role: 'user', content: [{ type: 'text', text: trimmed }] })
    },
    editLastMessage: (text) => replaceLastTurn(text),
    regenerate: () => replaceLastTurn(undefined),
    async retry(itemId) {
      const item = model.view.items.find((i) => i.id === itemId)
      if (item?.kind !== 'user' || !item.failed) return
      dispatch({ type: 'retrying', id: itemId })
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
      const running = model.view.items.filter((i): i is ToolItem => i.kind === 'tool' && i.status === 'running').map((i) => i.callId)
      // The response first (the model stops talking), then the tools it had running (their `finally` runs).
      inflight?.abort()
      await Promise.all(running.map(abortCall))
    },
    dismissNotice() {
      dispatch({ type: 'notice', text: undefined })
    },
    dispose() {
      life.abort(new ChatEndpointError('the chat was closed'))
      channel?.close()
      channel = undefined
      if (restoring && !restoring.finished) {
        // Forgotten at once: StrictMode mounts again right away, and that mount restores anew.
        restoring.controller.abort()
        restoring = undefined
      }
      for (const callId of executor.active()) void executor.cancel(callId, 'chat closed')
    },
  }
}

/** How an answer that did not reach the server begins (taken back once the server answers again). */
const UNDELIVERED = 'Your answer could not be delivered:'

/** A random id for one request and its retries. */
function newRequestId(): string {
  const bytes = new Uint8Array(12)
  globalThis.crypto.getRandomValues(bytes)
  return `req-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

/**
 * The tool-use ids whose results end the conversation without a reply from the model after them:
 * every tool use of the last assistant message has its result. Undefined otherwise.
 */
function pendingReplyFor(conversation: readonly McpMessage[]): string[] | undefined {
  const last = conversation[conversation.length - 1]
  const assistant = conversation[conversation.length - 2]
  if (last?.role !== 'user' || assistant?.role !== 'assistant' || last.content.length === 0) return undefined
  if (!last.content.every((b) => b.type === 'tool_result')) return undefined
  const uses = assistant.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
  const answered = new Set(last.content.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])))
  return uses.length > 0 && uses.every((id) => answered.has(id)) ? uses : undefined
}

/** Waits `ms`; `false` (at once) when `signal` ends first. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false)
  return new Promise((resolve) => {
    const done = (due: boolean) => {
      clearTimeout(timer)
      signal.removeEventListener('abort', cancelled)
      resolve(due)
    }
    const cancelled = () => done(false)
    const timer = setTimeout(() => done(true), ms)
    signal.addEventListener('abort', cancelled, { once: true })
  })
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
