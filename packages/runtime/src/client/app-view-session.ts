/**
 * The inside of an MCP Apps view: one tool call, seen through the host. The host tells the view
 * the call's arguments (`ui/notifications/tool-input`); the view takes the call on the server
 * with `mcp_bridge_view_next`, and from then on shows each question with the plugin's own
 * `onElicit` handler — the same executor, components, validation and refusals as in the chat app
 * — and sends the answer with `mcp_bridge_view_answer`. It follows the call until it ends.
 *
 * The host is injected (`ViewHost`: ext-apps' `App` has this method), so this runs and is tested
 * without a browser or an iframe.
 */
import type { IssueSummary } from '../errors/issues.ts'
import type { PluginClientRegistration } from '../plugin/types.ts'
import type { ElicitRequestWire } from '../protocol/chat-wire.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import type { EmissionStore } from './emission-store.ts'
import { createPluginExecutor, type SendOutcome } from './plugin-executor.ts'
import { createPluginRegistry } from './plugin-registry.ts'

/** The one thing a view needs from its host: calling the server's tools through it. */
export interface ViewHost {
  callServerTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{
    isError?: boolean
    content?: ReadonlyArray<{ type: string; text?: string }>
    structuredContent?: unknown
  }>
}

/**
 * What an MCP Apps view shows: waiting, a question, answered elsewhere, done, or lost.
 */
export type ViewStatus =
  | { kind: 'waiting'; message: string }
  | { kind: 'question'; callId: string }
  | { kind: 'elsewhere' }
  | { kind: 'done'; isError: boolean; text: string }
  | { kind: 'lost'; message: string }

/**
 * An MCP Apps view's hold on its tool call: takes the call when its arguments arrive, shows its questions, follows it to its end.
 */
export interface AppViewSession {
  subscribe(listener: () => void): () => void
  getStatus(): ViewStatus
  /** The call's arguments arrived: take the call and follow it. `requestId`: the host's `toolInfo.id`. */
  start(args: Record<string, unknown>, requestId?: string | number): void
  /** The host has the call's result (`ui/notifications/tool-result`): the view shows it if still asking. */
  finished(result: { isError?: boolean; text: string }): void
  stop(): void
}

type Reply = {
  status?: string
  callId?: string
  pass?: string
  version?: number
  question?: ElicitRequestWire
  isError?: boolean
  text?: string
  message?: string
  issues?: IssueSummary[]
}

/**
 * The session behind an MCP Apps view (what `mountMcpAppView` wires up): give it the host link, the plugin and
 * an emission store, and start it with the call's arguments.
 *
 * @example
 * ```ts
 * import { connectToHost, createAppViewSession } from '@mcp-bridge/runtime/app-view'
 * import { createEmissionStore } from '@mcp-bridge/runtime/client'
 * import plugin from './tools/book-flight/plugin.tsx'
 *
 * const store = createEmissionStore()
 * let session: ReturnType<typeof createAppViewSession> | undefined
 * const link = await connectToHost({
 *   appInfo: { name: 'book-flight-view', version: '1.0.0' },
 *   onToolInput: (args) => session?.start(args),
 *   onToolResult: (result) => session?.finished({ isError: result.isError, text: '' }),
 *   onToolCancelled: () => session?.stop(),
 *   onTeardown: () => session?.stop(),
 * })
 * session = createAppViewSession({ host: link, plugin: plugin.client, store })
 * ```
 */
export function createAppViewSession(options: { host: ViewHost; plugin: PluginClientRegistration; store: EmissionStore }): AppViewSession {
  const { host, plugin, store } = options
  let status: ViewStatus = { kind: 'waiting', message: 'Waiting for the tool call…' }
  const listeners = new Set<() => void>()
  const set = (next: ViewStatus) => {
    status = next
    for (const listener of [...listeners]) listener()
  }
  let started = false
  let stopped = false
  let seat: { callId: string; pass: string } | undefined
  const executor = createPluginExecutor({
    registry: createPluginRegistry([plugin]),
    store,
    send: (question, result) => answer(question.request.id, result),
  })

  async function call(name: string, args: Record<string, unknown>): Promise<Reply> {
    const result = await host.callServerTool({ name, arguments: args })
    if (result.isError) {
      const text = (result.content ?? []).map((c) => c.text ?? '').join('')
      return { status: 'error', message: text || `${name} failed` }
    }
    return (result.structuredContent ?? {}) as Reply
  }

  async function answer(elicitId: string, result: ElicitResult<unknown>): Promise<SendOutcome> {
    if (!seat) return { ok: false, message: 'This view does not hold the tool call any more.' }
    try {
      const reply = await call('mcp_bridge_view_answer', { ...seat, elicitId, result })
      if (reply.status === 'accepted') return { ok: true }
      return { ok: false, message: reply.message ?? 'The answer was not taken.', ...(reply.issues?.length && { issues: reply.issues }) }
    } catch (error) {
      return { ok: false, message: `Your answer could not be delivered: ${(error as Error).message}. Try again in a moment.` }
    }
  }

  async function follow(args: Record<string, unknown>, requestId: string | number | undefined): Promise<void> {
    set({ kind: 'waiting', message: 'Connecting to the tool call…' })
    let reply = await call('mcp_bridge_view_next', { tool: plugin.toolName, arguments: args, ...(requestId !== undefined && { requestId }) })
    if (reply.status === 'not_found' || reply.status === 'error' || !reply.callId || !reply.pass) {
      if (status.kind !== 'done') set({ kind: 'lost', message: reply.message ?? 'This tool call is not running.' })
      return
    }
    seat = { callId: reply.callId, pass: reply.pass }
    let shown: string | undefined
    while (!stopped) {
      switch (reply.status) {
        case 'question': {
          const question = reply.question!
          if (question.id !== shown) {
            shown = question.id
            set({ kind: 'question', callId: seat.callId })
            const handled = executor.handle({ callId: seat.callId, toolName: plugin.toolName, request: question })
            if (handled.status === 'handled') void handled.outcome
          }
          break
        }
        case 'working':
          if (status.kind !== 'question') set({ kind: 'waiting', message: 'Working…' })
          break
        case 'elsewhere':
          set({ kind: 'elsewhere' })
          break
        case 'done':
          await executor.cancel(seat.callId, 'the call ended')
          set({ kind: 'done', isError: reply.isError === true, text: reply.text ?? '' })
          return
        default:
          await executor.cancel(seat.callId, 'the view lost its call')
          if (status.kind !== 'done') set({ kind: 'lost', message: reply.message ?? 'This view lost its tool call.' })
          return
      }
      reply = await call('mcp_bridge_view_next', { tool: plugin.toolName, ...seat, after: reply.version ?? 0 })
    }
  }

  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    getStatus: () => status,
    start(args, requestId) {
      if (started || stopped) return // the host may repeat tool-input on re-render; one call per view
      started = true
      follow(args, requestId).catch((error: unknown) => {
        if (!stopped && status.kind !== 'done') set({ kind: 'lost', message: `The view lost its connection: ${(error as Error).message}` })
      })
    },
    finished(result) {
      if (status.kind === 'done') return
      void (seat && executor.cancel(seat.callId, 'the call ended'))
      set({ kind: 'done', isError: result.isError === true, text: result.text })
    },
    stop() {
      stopped = true
      if (seat) void executor.cancel(seat.callId, 'the view closed')
    },
  }
}
