/**
 * `createBridgeHost`: runs one tool call in its own Effection scope and exposes it to async
 * code (the HTTP layer, the MCP server, tests):
 *
 *   - events go to an append-only log, so a consumer that subscribes late loses nothing;
 *   - `elicit` suspends on a resolver until `respond()` brings a valid answer for that exact id;
 *     an invalid answer is refused with the zod issues and the elicitation stays pending;
 *   - `abort()` halts the generator (its `finally` blocks run), closes a pending elicitation as
 *     cancelled for the UI, and is idempotent;
 *   - completion, failure and abort all release the scope, the signal listener and the readers.
 */
import { createScope, withResolvers, type Operation, type Scope, type WithResolvers } from 'effection'
import type { z } from 'zod'
import { assertJsonSafe } from '../context/json-safe.ts'
import { encodeModelContext } from '../context/model-context.ts'
import { buildSamplingRequest, completeSample } from '../sampling/sample.ts'
import type { SamplingProvider } from '../sampling/provider.ts'
import type { SampleOptions, SampleResult } from '../sampling/types.ts'
import { splitElicitDefinition } from '../tool/compile-elicits.ts'
import { sameElicitId, formatElicitId, type ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitId, ElicitResult } from '../tool/elicits.ts'
import type { AnyMcpTool, ToolResult } from '../tool/mcp-tool.ts'
import {
  ConcurrentElicitationError,
  ElicitContextError,
  ToolParamsError,
  UnknownElicitKeyError,
  UnsupportedElicitationModeError,
  summarizeIssues,
  type IssueSummary,
} from './errors.ts'
import { EventLog, TERMINAL_STATUSES, type BridgeEvent, type BridgeStatus } from './events.ts'
import { Journal, type JournalEntry } from './journal.ts'
import { createServerPhaseContext, createToolContext, type ToolPrimitives } from './tool-context.ts'

export interface BridgeHostOptions<T extends AnyMcpTool> {
  tool: T
  /** Raw parameters (from the model); validated with the tool's schema before anything runs. */
  params: unknown
  /** The LLM's tool-call id. */
  callId: string
  /** Where `ctx.sample` goes. Without one, sampling fails with a clear error. */
  sampling?: SamplingProvider
  /** Aborting it aborts the call. */
  signal?: AbortSignal
  /** Run inside this scope (e.g. a server's long-lived scope) instead of a fresh one. */
  scope?: Scope
  /** A journal to replay (resume a call recorded elsewhere); see `Journal`. */
  replay?: readonly JournalEntry[]
}

export interface ElicitResponse {
  id: ElicitId
  result: ElicitResult<unknown>
}

export type RespondOutcome =
  | { ok: true }
  | {
      ok: false
      code: 'NOT_PENDING' | 'ID_MISMATCH' | 'INVALID_RESULT' | 'INVALID_CONTENT'
      message: string
      issues?: IssueSummary[]
    }

export type BridgeOutcome<R> =
  | { status: 'completed'; result: R }
  | { status: 'failed'; error: Error }
  | { status: 'aborted'; reason: string }

export interface BridgeHost<R = unknown> {
  readonly toolName: string
  readonly callId: string
  status(): BridgeStatus
  /** The elicitation waiting for an answer, if any. */
  pending(): ElicitRequest | undefined
  /** Every event so far, in order. */
  readonly events: readonly BridgeEvent[]
  /** Read every event from the start (or `from`); ends after the terminal event. */
  subscribe(from?: number): AsyncGenerator<BridgeEvent, void, undefined>
  /** Answer the pending elicitation. Never throws; a refusal says why and changes nothing. */
  respond(response: ElicitResponse): RespondOutcome
  /** Halt the call; resolves once its cleanup ran. Idempotent. */
  abort(reason?: string): Promise<BridgeOutcome<R>>
  /** Settles when the call completes, fails or is aborted; never rejects. */
  readonly outcome: Promise<BridgeOutcome<R>>
  /** Resolved yield points so far (persist this to resume elsewhere). */
  readonly journal: readonly JournalEntry[]
}

interface Pending {
  request: ElicitRequest
  response: z.ZodObject
  resolvers: WithResolvers<ElicitResult<unknown>>
}

const ACTIONS = new Set(['accept', 'decline', 'cancel'])

export function createBridgeHost<T extends AnyMcpTool>(options: BridgeHostOptions<T>): BridgeHost<ToolResult<T>> {
  type R = ToolResult<T>
  const { tool, callId } = options
  const log = new EventLog<BridgeEvent>()
  const journal = new Journal(tool.name, options.replay)
  let status: BridgeStatus = 'running'
  let pending: Pending | undefined
  let seq = 0
  let abortReason: string | undefined
  let release = (): void => {}
  let settle!: (outcome: BridgeOutcome<R>) => void
  const outcome = new Promise<BridgeOutcome<R>>((resolve) => (settle = resolve))

  function finish(result: BridgeOutcome<R>): void {
    if (TERMINAL_STATUSES.has(status)) return
    status = result.status
    pending = undefined
    log.push(
      result.status === 'completed'
        ? { type: 'completed', result: result.result }
        : result.status === 'failed'
          ? { type: 'failed', error: result.error }
          : { type: 'aborted', reason: result.reason },
    )
    log.close()
    release()
    settle(result)
  }

  const host: BridgeHost<R> = {
    toolName: tool.name,
    callId,
    status: () => status,
    pending: () => pending?.request,
    get events() {
      return log.events
    },
    subscribe: (from) => log.subscribe(from),
    respond,
    abort,
    outcome,
    get journal() {
      return journal.entries
    },
  }

  const params = tool.parameters.safeParse(options.params)
  if (!params.success) {
    finish({ status: 'failed', error: new ToolParamsError(tool.name, summarizeIssues(params.error.issues)) })
    return host
  }
  const validParams = params.data as Record<string, unknown>

  const primitives: ToolPrimitives = {
    toolName: tool.name,
    callId,
    elicit,
    sample,
    log: (level, message, data) => log.push({ type: 'log', level, message, ...(data !== undefined && { data }) }),
    notify: (message, progress, total) =>
      log.push({
        type: 'notify',
        message,
        ...(progress !== undefined && { progress }),
        ...(total !== undefined && { total }),
      }),
  }
  const ctx = createToolContext(primitives)
  const serverCtx = createServerPhaseContext(primitives)
  let handoffValue: unknown

  function* body(): Operation<unknown> {
    const b = tool.body
    if (b.kind === 'execute') return yield* b.execute(validParams, ctx)
    const recorded = journal.take('before')
    handoffValue = recorded ? recorded.value : yield* b.before(validParams, serverCtx)
    if (!recorded) journal.record({ kind: 'before', value: handoffValue })
    const clientResult = yield* b.client(handoffValue, ctx)
    return yield* b.after(handoffValue, clientResult, serverCtx)
  }

  function* elicit(key: string, raw: Record<string, unknown>): Operation<{ id: ElicitId; result: ElicitResult<unknown> }> {
    const { message, mode, ...context } = raw
    if (mode !== undefined && mode !== 'form') throw new UnsupportedElicitationModeError(tool.name, key, mode)
    if (pending) throw new ConcurrentElicitationError(tool.name, key, pending.request.key)
    const definition = Object.hasOwn(tool.elicits, key) ? tool.elicits[key] : undefined
    if (!definition) throw new UnknownElicitKeyError(tool.name, key, Object.keys(tool.elicits))
    if (typeof message !== 'string') throw new TypeError(`Tool "${tool.name}": ctx.elicit("${key}") needs a message string`)
    const split = splitElicitDefinition(definition)
    const response = split.response as z.ZodObject

    seq += 1
    const id: ElicitId = { toolName: tool.name, key, callId, seq }
    const recorded = journal.take('elicit', key)
    if (recorded) return { id, result: recorded.result }

    let data: Record<string, unknown> = context
    if (split.context) {
      const checked = (split.context as z.ZodObject).safeParse(context)
      if (!checked.success) throw new ElicitContextError(tool.name, key, summarizeIssues(checked.error.issues))
      data = checked.data as Record<string, unknown>
    }
    assertJsonSafe(data)
    const wire = tool.jsonSchema.elicits[key]!
    const encoded = encodeModelContext({ message, context: data, schema: wire })
    const request: ElicitRequest = {
      id,
      ...id,
      message,
      schema: { zod: response, json: encoded.schema },
      context: data,
      params: validParams,
      ...(tool.body.kind === 'handoff' && { handoff: handoffValue }),
    }
    const resolvers = withResolvers<ElicitResult<unknown>>(formatElicitId(id))
    pending = { request, response, resolvers }
    status = 'awaiting_elicit'
    log.push({ type: 'elicit', request })
    try {
      const result = yield* resolvers.operation
      journal.record({ kind: 'elicit', key, seq, result })
      return { id, result }
    } finally {
      // Synchronous on purpose: a halted call must not run further steps here.
      if (pending?.resolvers === resolvers) pending = undefined
      if (status === 'awaiting_elicit') status = 'running'
    }
  }

  function* sample(sampleOptions: SampleOptions & { schema?: z.ZodType }): Operation<SampleResult<unknown>> {
    const recorded = journal.take('sample')
    if (recorded) return recorded.result
    const provider = options.sampling
    if (!provider) {
      throw new TypeError(`Tool "${tool.name}" called ctx.sample, but its host has no sampling provider; pass createBridgeHost({ sampling })`)
    }
    const request = buildSamplingRequest(tool.name, sampleOptions)
    status = 'awaiting_sample'
    log.push({ type: 'sample', request })
    try {
      const result = yield* completeSample(tool.name, provider, request, sampleOptions.schema)
      journal.record({ kind: 'sample', result })
      log.push({ type: 'sample_result', text: result.text, ...(result.parsed !== undefined && { parsed: result.parsed }) })
      return result
    } finally {
      if (status === 'awaiting_sample') status = 'running'
    }
  }

  function respond(response: ElicitResponse): RespondOutcome {
    const current = pending
    if (!current || TERMINAL_STATUSES.has(status)) {
      return { ok: false, code: 'NOT_PENDING', message: `No elicitation of tool call "${callId}" is waiting for an answer (it was answered, or the call ended).` }
    }
    const id = response?.id
    if (!id || typeof id !== 'object' || !sameElicitId(id, current.request.id)) {
      return {
        ok: false,
        code: 'ID_MISMATCH',
        message: `This answer is for ${id && typeof id === 'object' ? formatElicitId(id) : 'no id'}, but the call waits for ${formatElicitId(current.request.id)}.`,
      }
    }
    const result = response.result as { action?: unknown; content?: unknown } | undefined
    if (!result || typeof result !== 'object' || !ACTIONS.has(result.action as string)) {
      return { ok: false, code: 'INVALID_RESULT', message: 'An elicitation result must have action "accept", "decline" or "cancel".' }
    }
    if (result.action !== 'accept') {
      current.resolvers.resolve({ action: result.action as 'decline' | 'cancel' })
      log.push({ type: 'elicit_resolved', id: current.request.id, result: { action: result.action as 'decline' | 'cancel' } })
      return { ok: true }
    }
    const parsed = current.response.safeParse(result.content)
    if (!parsed.success) {
      const issues = summarizeIssues(parsed.error.issues)
      return {
        ok: false,
        code: 'INVALID_CONTENT',
        message: `The answer to "${current.request.key}" does not match its schema: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
        issues,
      }
    }
    const accepted: ElicitResult<unknown> = { action: 'accept', content: parsed.data }
    // Log first: resolving runs the generator synchronously up to its next wait, which may emit.
    log.push({ type: 'elicit_resolved', id: current.request.id, result: accepted })
    current.resolvers.resolve(accepted)
    return { ok: true }
  }

  const [scope, destroy] = options.scope ? [options.scope, undefined] : createScope()
  const task = scope.run(body)

  async function abort(reason = 'aborted'): Promise<BridgeOutcome<R>> {
    if (TERMINAL_STATUSES.has(status) || abortReason !== undefined) return outcome
    abortReason = reason
    if (pending) log.push({ type: 'elicit_cancelled', id: pending.request.id, reason })
    await task.halt()
    finish({ status: 'aborted', reason })
    return outcome
  }

  const onSignal = () => void abort(signalReason(options.signal))
  options.signal?.addEventListener('abort', onSignal, { once: true })
  release = () => {
    options.signal?.removeEventListener('abort', onSignal)
    if (destroy) destroy().then(noop, noop)
  }
  if (options.signal?.aborted) onSignal()

  task.then(
    (value) => finish({ status: 'completed', result: value as R }),
    (error: unknown) => {
      if (abortReason !== undefined) return finish({ status: 'aborted', reason: abortReason })
      if (isHalt(error)) return finish({ status: 'aborted', reason: 'the scope running the tool was shut down' })
      finish({ status: 'failed', error: error instanceof Error ? error : new Error(String(error)) })
    },
  )
  return host
}

function signalReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted by signal'
}

function isHalt(error: unknown): boolean {
  return error instanceof Error && error.message === 'halted'
}

function noop(): void {}
