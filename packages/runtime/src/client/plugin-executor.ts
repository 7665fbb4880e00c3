/**
 * Runs a plugin's `onElicit` handler for each question that reaches the browser:
 *
 *   1. find the plugin by tool name (none: the UI shows the generated form instead);
 *   2. decode the question with the key's compiled model (the same `ElicitRequest` the tool
 *      asked: typed context, `params`, `handoff`);
 *   3. run the handler; `ctx.render` shows a component in the emission store and waits for it;
 *   4. validate the answer with the key's response schema before sending (nothing
 *      invalid is sent) and, if it is refused here or by the server, run the handler again with
 *      the errors so its UI can show them and ask again;
 *   5. send it. Cancelling the call halts the handler and removes its UI.
 *
 * Every handler runs as a task of the executor's one scope: `close()` halts whatever still runs
 * (a page or component going away), so no handler outlives the chat that started it.
 */
import { createScope, until, withResolvers, type Operation, type Task } from 'effection'
import { formatIssues, summarizeIssues, type IssueSummary } from '../errors/issues.ts'
import { forPeople } from '../errors/human-issues.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { GeneratedFormSlot } from '../plugin/generated-form.ts'
import type { PluginClientContext, PluginClientRegistration, UiComponent } from '../plugin/types.ts'
import type { ElicitRequestWire } from '../protocol/chat-wire.ts'
import { decodeElicitRequest } from '../protocol/codec.ts'
import type { CompiledElicit } from '../tool/compile-elicits.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitResult } from '../tool/elicits.ts'
import type { EmissionStore } from './emission-store.ts'
import type { PluginRegistry } from './plugin-registry.ts'
import { PluginHandlerError } from '../errors/browser-errors.ts'

/** A question as it arrives: which call asks, and the request on the wire. */
export interface IncomingQuestion {
  callId: string
  toolName: string
  request: ElicitRequestWire
}

/**
 * Whether the server took an answer, or why not (the issues of invalid content).
 */
export type SendOutcome = { ok: true } | { ok: false; message: string; issues?: readonly IssueSummary[] }

/**
 * How a plugin handler ended: its answer sent, cancelled, or failed.
 */
export type HandlerOutcome = { status: 'sent'; result: ElicitResult<unknown> } | { status: 'cancelled'; reason: string } | { status: 'failed'; error: Error }

/**
 * What `createPluginExecutor` takes: the registry, the emission store, and how to send an answer.
 */
export interface PluginExecutorOptions {
  registry: PluginRegistry
  store: EmissionStore
  /** Deliver an answer to the server; a refusal (e.g. invalid content) comes back as `ok: false`. */
  send(question: IncomingQuestion, result: ElicitResult<unknown>): Promise<SendOutcome>
}

/**
 * Whether a question went to a plugin handler (`handled`, with how it ended) or there is no plugin for its tool.
 */
export type HandleResult = { status: 'handled'; outcome: Promise<HandlerOutcome> } | { status: 'no-plugin' }

/**
 * Runs plugin handlers in the browser, one per open question, each in its own Effection scope, halted when its call ends.
 */
export interface PluginExecutor {
  handle(question: IncomingQuestion): HandleResult
  /** Halt the handler of a tool call (server abort, user leaving) and remove its UI. */
  cancel(callId: string, reason?: string): Promise<void>
  /** Calls with a running handler. */
  active(): string[]
  /** Halt every running handler and remove their UI; the executor takes no new questions afterwards. */
  close(): Promise<void>
}

/** Thrown into a handler waiting in `ctx.render` when the user dismisses the UI. */
class UserCancelled extends McpBridgeError {
  readonly code = 'USER_CANCELLED'
}

type Handler = (request: ElicitRequest, ctx: PluginClientContext) => Operation<ElicitResult<unknown>>

/**
 * The browser's runner of plugin handlers, for a chat client of your own (`useChat` builds one).
 *
 * @example
 * ```ts
 * import { createEmissionStore, createPluginExecutor, createPluginRegistry } from '@mcp-bridge/runtime/client'
 * import { clientPlugins } from './mcp-bridge/client.gen.ts'
 *
 * const executor = createPluginExecutor({
 *   registry: createPluginRegistry(clientPlugins),
 *   store: createEmissionStore(),
 *   send: async (question, result) => {
 *     const response = await fetch('/my-answers', { method: 'POST', body: JSON.stringify({ callId: question.callId, result }) })
 *     return response.ok ? { ok: true } : { ok: false, message: await response.text() }
 *   },
 * })
 * ```
 */
export function createPluginExecutor(options: PluginExecutorOptions): PluginExecutor {
  const running = new Map<string, { task: Task<HandlerOutcome>; controller: AbortController; reason?: string }>()
  const [scope, destroy] = createScope()
  let closed = false

  function handle(question: IncomingQuestion): HandleResult {
    const plugin = options.registry.get(question.toolName)
    if (!plugin) return { status: 'no-plugin' }
    const { callId } = question
    if (closed) return { status: 'handled', outcome: Promise.resolve({ status: 'cancelled', reason: 'the chat was closed' }) }
    const controller = new AbortController()
    const task = scope.run(() => execute(plugin, question, controller.signal))
    // This run's own entry: by the time a cancelled run settles, the call's next question may
    // be running under the same call id, and its entry says nothing about this one.
    const entry: { task: typeof task; controller: AbortController; reason?: string } = { task, controller }
    running.set(callId, entry)
    const outcome = task.then(
      (value) => value,
      (error: unknown): HandlerOutcome => {
        if (entry.reason !== undefined) return { status: 'cancelled', reason: entry.reason }
        return { status: 'failed', error: error instanceof Error ? error : new Error(String(error)) }
      },
    )
    const cleanup = () => {
      // Only if this run is still the call's current one: the next question of the same call
      // may already be on screen (its answer was sent before this run's outcome settled).
      if (running.get(callId)?.task !== task) return
      running.delete(callId)
      options.store.removeCall(callId)
    }
    return { status: 'handled', outcome: outcome.finally(cleanup) }
  }

  function* execute(plugin: PluginClientRegistration, question: IncomingQuestion, signal: AbortSignal): Operation<HandlerOutcome> {
    const { toolName, request: wire } = question
    const fail = (problem: string) => new PluginHandlerError(toolName, wire.key, problem)
    const compiled: CompiledElicit | undefined = Object.hasOwn(plugin.compiled, wire.key) ? plugin.compiled[wire.key] : undefined
    const handler = (plugin.handlers as Record<string, Handler | undefined>)[wire.key]
    if (!compiled || typeof handler !== 'function') {
      throw fail(`does not exist: the plugin declares ${Object.keys(plugin.handlers).join(', ') || 'no keys'}; is the client built from the same tool as the server?`)
    }
    let request: ElicitRequest
    try {
      request = decodeElicitRequest(wire, compiled)
    } catch (error) {
      throw fail(`cannot run: ${(error as Error).message}`)
    }

    let errors: readonly IssueSummary[] | undefined
    for (;;) {
      let rendered = false
      // The n-th render of every attempt has the same emission id, so a component asked again
      // (its answer refused) stays mounted and gets the errors as new props: what the user typed stays.
      let renders = 0
      const ctx: PluginClientContext = {
        callId: question.callId,
        signal,
        elicitRequest: request,
        errors,
        render: ((component: UiComponent<never>, props: Record<string, unknown>) => {
          rendered = true
          return render(question, component, props, errors, ++renders)
        }) as PluginClientContext['render'],
        generatedForm: ((formOptions?: { message?: string }) => {
          rendered = true
          const props = { message: formOptions?.message ?? request.message, schema: request.schema.json }
          return render(question, GeneratedFormSlot as UiComponent<never>, props, errors, ++renders)
        }) as PluginClientContext['generatedForm'],
        *reportProgress(message: string) {
          options.store.progress(question.callId, String(message))
        },
      }
      let result: ElicitResult<unknown>
      try {
        result = yield* handler(request, ctx)
      } catch (error) {
        if (!(error instanceof UserCancelled)) throw error
        result = { action: 'cancel' }
      }

      const checked = checkResult(compiled, result)
      if (!checked.ok) {
        if (!rendered) throw fail(`returned an invalid answer without showing any UI, so no one can correct it: ${formatIssues(checked.issues)}`)
        errors = checked.issues
        continue
      }
      options.store.sending(question.callId, true)
      const sent = yield* until(options.send(question, checked.result))
      options.store.sending(question.callId, false)
      if (sent.ok) return { status: 'sent', result: checked.result }
      if (!rendered) throw fail(`was refused by the server (${sent.message}) and showed no UI to correct it`)
      errors = sent.issues?.length ? sent.issues : [{ path: '', message: sent.message }]
    }
  }

  function* render(
    question: IncomingQuestion,
    component: UiComponent<never>,
    props: Record<string, unknown>,
    errors: readonly IssueSummary[] | undefined,
    position: number,
  ): Operation<unknown> {
    const answer = withResolvers<unknown>()
    const emissionId = `${question.request.id}/${position}`
    options.store.show({
      id: emissionId,
      callId: question.callId,
      elicitId: question.request.id,
      component,
      props: props ?? {},
      errors,
      respond: (value) => answer.resolve(value),
      cancel: () => answer.reject(new UserCancelled('the user dismissed the question')),
    })
    // It stays on screen after the answer (while it is checked and sent): the next render of this
    // question replaces it, and the question's end removes it.
    return yield* answer.operation
  }

  return {
    handle,
    async cancel(callId, reason = 'cancelled') {
      const entry = running.get(callId)
      options.store.removeCall(callId)
      if (!entry) return
      entry.reason = reason
      entry.controller.abort(reason)
      await entry.task.halt()
    },
    active: () => [...running.keys()],
    async close() {
      if (closed) return
      closed = true
      for (const [callId, entry] of running) {
        entry.reason = 'the chat was closed'
        entry.controller.abort(entry.reason)
        options.store.removeCall(callId)
      }
      // Forgotten now: a halted run's late cleanup must not remove what another executor on the
      // same emission store shows by then (React's StrictMode closes one and opens the next).
      running.clear()
      await destroy()
    },
  }
}

type Checked = { ok: true; result: ElicitResult<unknown> } | { ok: false; issues: IssueSummary[] }

function checkResult(compiled: CompiledElicit, result: unknown): Checked {
  const r = result as { action?: unknown; content?: unknown } | undefined
  if (!r || typeof r !== 'object' || !['accept', 'decline', 'cancel'].includes(r.action as string)) {
    return { ok: false, issues: [{ path: '', message: 'the handler must return { action: "accept", content } | { action: "decline" } | { action: "cancel" }' }] }
  }
  if (r.action !== 'accept') return { ok: true, result: { action: r.action as 'decline' | 'cancel' } }
  // Send what the user entered (zod input), after checking it parses: the server parses it again.
  const parsed = compiled.response.safeParse(r.content, { error: forPeople })
  if (!parsed.success) return { ok: false, issues: summarizeIssues(parsed.error.issues) }
  return { ok: true, result: { action: 'accept', content: r.content } }
}
