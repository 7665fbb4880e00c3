/**
 * Runs a plugin's `onElicit` handler for each elicitation that reaches the client:
 *
 *   1. find the plugin by tool name (none: the UI shows the fallback form instead);
 *   2. rebuild the typed request: the response schema from the plugin, the context from the
 *      schema's `x-model-context` or, if a client stripped it, from the message section;
 *   3. run the handler; `ctx.render` shows a component in the emission store and waits for it;
 *   4. validate the answer with the key's zod schema before sending (seed 004: nothing invalid
 *      is sent) and, if it is refused here or by the server, run the handler again with the
 *      errors so its UI can show them and ask again;
 *   5. send it, correlated by id. Cancelling the call halts the handler and removes its UI.
 */
import { run, until, withResolvers, type Operation, type Task } from 'effection'
import type { z } from 'zod'
import { summarizeIssues, type IssueSummary } from '../bridge/errors.ts'
import { extractModelContext } from '../context/model-context.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import type { PluginClientContext, PluginClientRegistration, UiComponent } from '../plugin/types.ts'
import type { JsonSchema } from '../schema/json-schema.ts'
import { splitElicitDefinition } from '../tool/compile-elicits.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import { formatElicitId } from '../tool/elicit-request.ts'
import type { ElicitId, ElicitResult } from '../tool/elicits.ts'
import type { EmissionStore } from './emission-store.ts'
import type { PluginRegistry } from './plugin-registry.ts'

/** An elicitation as it arrives over the wire (JSON: no zod schema). */
export interface WireElicitRequest {
  id: ElicitId
  message: string
  /** The requested schema, with `x-model-context` unless a client stripped it. */
  schema: JsonSchema
  params?: unknown
  handoff?: unknown
}

export type SendOutcome = { ok: true } | { ok: false; message: string; issues?: readonly IssueSummary[] }

export type HandlerOutcome =
  | { status: 'sent'; result: ElicitResult<unknown> }
  | { status: 'cancelled'; reason: string }
  | { status: 'failed'; error: Error }

export interface PluginExecutorOptions {
  registry: PluginRegistry
  store: EmissionStore
  /** Deliver an answer to the server; a refusal (e.g. invalid content) comes back as `ok: false`. */
  send(id: ElicitId, result: ElicitResult<unknown>): Promise<SendOutcome>
}

export type HandleResult = { status: 'handled'; outcome: Promise<HandlerOutcome> } | { status: 'no-plugin' }

export interface PluginExecutor {
  handle(request: WireElicitRequest): HandleResult
  /** Halt the handler of a tool call (server abort, user leaving) and remove its UI. */
  cancel(callId: string, reason?: string): Promise<void>
  /** Calls with a running handler. */
  active(): string[]
}

export class PluginHandlerError extends McpBridgeError {
  readonly code = 'PLUGIN_HANDLER_FAILED'
  constructor(id: ElicitId, problem: string) {
    super(`The onElicit handler for "${id.key}" of tool "${id.toolName}" ${problem}`)
  }
}

/** Thrown into a handler waiting in `ctx.render` when the user dismisses the UI. */
class UserCancelled extends Error {}

export function createPluginExecutor(options: PluginExecutorOptions): PluginExecutor {
  const running = new Map<string, { task: Task<HandlerOutcome>; controller: AbortController; reason?: string }>()
  let renders = 0

  function handle(request: WireElicitRequest): HandleResult {
    const plugin = options.registry.get(request.id.toolName)
    if (!plugin) return { status: 'no-plugin' }
    const { callId } = request.id
    const controller = new AbortController()
    const task = run(() => execute(plugin, request, controller.signal))
    running.set(callId, { task, controller })
    const outcome = task.then(
      (value) => value,
      (error: unknown): HandlerOutcome => {
        const entry = running.get(callId)
        if (entry?.reason !== undefined) return { status: 'cancelled', reason: entry.reason }
        return { status: 'failed', error: error instanceof Error ? error : new Error(String(error)) }
      },
    )
    const cleanup = () => {
      // Only if this run is still the call's current one: the next elicitation of the same call
      // may already be on screen (its answer was sent before this run's outcome settled).
      if (running.get(callId)?.task !== task) return
      running.delete(callId)
      options.store.removeCall(callId)
    }
    return { status: 'handled', outcome: outcome.finally(cleanup) }
  }

  function* execute(plugin: PluginClientRegistration, wire: WireElicitRequest, signal: AbortSignal): Operation<HandlerOutcome> {
    const { id } = wire
    const definition = (plugin.elicits as Record<string, unknown>)[id.key]
    const handler = (plugin.handlers as Record<string, unknown>)[id.key]
    if (!definition || typeof handler !== 'function') {
      throw new PluginHandlerError(id, `does not exist: the plugin declares ${Object.keys(plugin.handlers).join(', ') || 'no keys'}; is the client built from the same tool as the server?`)
    }
    const split = splitElicitDefinition(definition)
    const response = split.response as z.ZodObject
    const extracted = extractModelContext({ message: wire.message, schema: wire.schema })
    let context: Record<string, unknown> = extracted.context
    if (split.context) {
      const parsed = (split.context as z.ZodObject).safeParse(context)
      if (!parsed.success) {
        throw new PluginHandlerError(id, `received context that does not match its schema: ${summarizeIssues(parsed.error.issues).map((i) => `${i.path}: ${i.message}`).join('; ')}`)
      }
      context = parsed.data as Record<string, unknown>
    }
    const request: ElicitRequest = {
      id,
      ...id,
      message: extracted.message,
      schema: { zod: response, json: wire.schema as unknown as ElicitRequest['schema']['json'] },
      context,
      ...(wire.params !== undefined && { params: wire.params }),
      ...(wire.handoff !== undefined && { handoff: wire.handoff }),
    }

    let errors: readonly IssueSummary[] | undefined
    for (;;) {
      let rendered = false
      const ctx: PluginClientContext = {
        callId: id.callId,
        signal,
        elicitRequest: request,
        errors,
        render: ((component: UiComponent<never>, props: Record<string, unknown>) => {
          rendered = true
          return render(id, component, props, errors)
        }) as PluginClientContext['render'],
        *reportProgress(message: string) {
          options.store.progress(id.callId, String(message))
        },
      }
      let result: ElicitResult<unknown>
      try {
        result = yield* (handler as (r: ElicitRequest, c: PluginClientContext) => Operation<ElicitResult<unknown>>)(request, ctx)
      } catch (error) {
        if (!(error instanceof UserCancelled)) throw error
        result = { action: 'cancel' }
      }

      const checked = checkResult(response, result)
      if (!checked.ok) {
        if (!rendered) throw new PluginHandlerError(id, `returned an invalid answer without showing any UI, so no one can correct it: ${checked.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`)
        errors = checked.issues
        continue
      }
      const sent = yield* until(options.send(id, checked.result))
      if (sent.ok) return { status: 'sent', result: checked.result }
      if (!rendered) throw new PluginHandlerError(id, `was refused by the server (${sent.message}) and showed no UI to correct it`)
      errors = sent.issues?.length ? sent.issues : [{ path: '', message: sent.message }]
    }
  }

  function* render(id: ElicitId, component: UiComponent<never>, props: Record<string, unknown>, errors: readonly IssueSummary[] | undefined): Operation<unknown> {
    const answer = withResolvers<unknown>()
    renders += 1
    const emissionId = `${formatElicitId(id)}/${renders}`
    options.store.show({
      id: emissionId,
      callId: id.callId,
      elicitId: id,
      component,
      props: props ?? {},
      errors,
      respond: (value) => answer.resolve(value),
      cancel: () => answer.reject(new UserCancelled()),
    })
    try {
      return yield* answer.operation
    } finally {
      options.store.remove(emissionId)
    }
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
  }
}

type Checked = { ok: true; result: ElicitResult<unknown> } | { ok: false; issues: IssueSummary[] }

function checkResult(response: z.ZodObject, result: unknown): Checked {
  const r = result as { action?: unknown; content?: unknown } | undefined
  if (!r || typeof r !== 'object' || !['accept', 'decline', 'cancel'].includes(r.action as string)) {
    return { ok: false, issues: [{ path: '', message: 'the handler must return { action: "accept", content } | { action: "decline" } | { action: "cancel" }' }] }
  }
  if (r.action !== 'accept') return { ok: true, result: { action: r.action as 'decline' | 'cancel' } }
  // Send what the user entered (zod input), after checking it parses: the server parses it again.
  const parsed = response.safeParse(r.content)
  if (!parsed.success) return { ok: false, issues: summarizeIssues(parsed.error.issues) }
  return { ok: true, result: { action: 'accept', content: r.content } }
}
