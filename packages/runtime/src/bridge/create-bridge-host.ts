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
import { createScope, scoped, until, withResolvers, type Operation, type Scope, type Task, type WithResolvers } from 'effection'
import type { CallObserver } from './call-observer.ts'
import type { CallerAuth } from '../tool/caller-auth.ts'
import type { z } from 'zod/v4'
import { assertJsonSafe } from '../model-context/json-safe.ts'
import {
  ConcurrentElicitationError,
  ElicitContextError,
  ElicitationInvalidResponseError,
  JournalDivergenceError,
  SamplingUnavailableError,
  StepFailedError,
  ToolContextUsageError,
  ToolParamsError,
  ToolResultInvalidError,
  UnknownElicitKeyError,
  UnsupportedElicitationModeError,
} from '../errors/call-errors.ts'
import { formatIssues, summarizeIssues, type IssueSummary } from '../errors/issues.ts'
import { forPeople } from '../errors/human-issues.ts'
import { buildSamplingRequest, completeSample } from '../sampling/sample.ts'
import type { SamplingProvider } from '../sampling/provider.ts'
import type { SampleOptions, SampleResult } from '../sampling/types.ts'
import { elicitId, type ElicitRequest } from '../tool/elicit-request.ts'
import { renderPlainForm } from '../tool/plain-form.ts'
import type { ElicitResult, ElicitsMap } from '../tool/elicits.ts'
import type { McpToolContext } from '../tool/context.ts'
import { isToolContent } from '../tool/with-content.ts'
import type { AnyMcpTool, ToolResult } from '../tool/mcp-tool.ts'
import { EventLog, readAsync, TERMINAL_STATUSES, type BridgeEvent, type BridgeStatus, type EventReader } from './events.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { BEFORE_STEP, completedSteps, describeEntry, Journal, type CompletedStep, type JournalEntry } from './journal.ts'
import { afterPhaseContext, beforePhaseContext, createToolContext, type StepBody } from './tool-context.ts'

/**
 * What `createBridgeHost` takes: the tool, its raw parameters (validated first), the call id, a sampling provider, and optionally a signal, a scope, a journal to replay and a clock.
 */
export interface BridgeHostOptions<T extends AnyMcpTool> {
  tool: T
  /** Raw parameters (from the model); validated with the tool's schema before anything runs. */
  params: unknown
  /** The LLM's tool-call id. */
  callId: string
  /** The caller over an MCP endpoint with OAuth: the tool's `ctx.auth`. */
  auth?: CallerAuth
  /** Where `ctx.sample` goes. Without one, sampling fails with a clear error. */
  sampling?: SamplingProvider
  /** Aborting it aborts the call. */
  signal?: AbortSignal
  /**
   * Run inside this scope (a call registry's, a server's): the call ends when it does. Without
   * one the call gets a scope of its own, ended with the call.
   */
  scope?: Scope
  /** A journal to replay (resume a call recorded elsewhere); see `Journal`. */
  replay?: readonly JournalEntry[]
  /**
   * Make each new journal entry durable before the tool goes on (a call store's write). A step's
   * result is thus recorded before anything that depends on it runs; if this throws, the call fails.
   */
  persist?: (journal: readonly JournalEntry[]) => Operation<void>
  /** Told of each step and sample as it happens (tracing, metrics). */
  observer?: CallObserver
  /** Called once, synchronously, when the call ends (before `outcome` settles). */
  onEnd?: (outcome: BridgeOutcome<ToolResult<T>>) => void
}

/**
 * An answer to a call's pending question: the question's id and the `ElicitResult`.
 */
export interface ElicitResponse {
  /** The `id` of the request this answers. */
  id: string
  result: ElicitResult<unknown>
}

/**
 * Options of `host.respond`.
 */
export interface RespondOptions {
  /** What to do with content that fails the schema: refuse it (default) or throw it into the tool. */
  invalid?: 'refuse' | 'throw'
}

/**
 * What `host.respond` did: `{ ok: true }`, or why the answer was refused (`INVALID_CONTENT` with the issues, `ID_MISMATCH`, `NOT_PENDING`).
 */
export type RespondOutcome =
  | { ok: true }
  | {
      ok: false
      code: 'NOT_PENDING' | 'ID_MISMATCH' | 'INVALID_RESULT' | 'INVALID_CONTENT'
      message: string
      issues?: IssueSummary[]
      /** The tool was resumed with an `ElicitationInvalidResponseError` (`invalid: 'throw'`). */
      delivered?: true
    }

/**
 * How a call ended: `completed` with its result, `failed` with its error, or `aborted` with the reason.
 */
export type BridgeOutcome<R> =
  | { status: 'completed'; result: R }
  | { status: 'failed'; error: Error }
  /**
   * `completed`: the steps that had completed before it stopped (their effects stay) and what each returned, when there were any.
   * `cancelled`: someone asked for it to stop (a person's Stop, a client's cancel) — not a timeout, a server closing or an eviction.
   */
  | { status: 'aborted'; reason: string; completed?: readonly CompletedStep[]; cancelled?: true }

/** One running tool call. Call its methods on the host (`host.respond(...)`); they are not bound. */
export interface BridgeHost<R = unknown> {
  readonly toolName: string
  readonly callId: string
  status(): BridgeStatus
  /** The elicitation waiting for an answer, if any. */
  pending(): ElicitRequest | undefined
  /** Every event so far, in order. */
  readonly events: readonly BridgeEvent[]
  /** Read every event from the start (or `from`) in async code; ends after the terminal event. */
  subscribe(from?: number): AsyncGenerator<BridgeEvent, void, undefined>
  /** The same, for Effection code: `for (let e = yield* r.next(); e; e = yield* r.next())`. */
  reader(from?: number): EventReader<BridgeEvent>
  /**
   * Answer the pending elicitation. Never throws; a refusal says why and changes nothing.
   * With `invalid: 'throw'`, an answer whose content does not match the schema is not refused
   * but handed to the tool as an `ElicitationInvalidResponseError` (for peers with no UI to
   * show the problem in, such as MCP clients); the outcome then has `delivered: true`.
   */
  respond(response: ElicitResponse, options?: RespondOptions): RespondOutcome
  /** Halt the call; resolves once its cleanup ran. Idempotent. `cancelled`: someone asked for it (the outcome says so). */
  abort(reason?: string, options?: { cancelled?: boolean }): Promise<BridgeOutcome<R>>
  /** Settles when the call completes, fails or is aborted; never rejects. */
  readonly outcome: Promise<BridgeOutcome<R>>
  /** Resolved yield points so far (persist this to resume elsewhere). */
  readonly journal: readonly JournalEntry[]
}

interface Pending {
  request: ElicitRequest
  resolvers: WithResolvers<Resumption>
}

/** What an elicit step resumes with: an answer, or the issues of an invalid one (`invalid: 'throw'`). */
type Resumption = { result: ElicitResult<unknown> } | { invalid: IssueSummary[] }

const ACTIONS = new Set(['accept', 'decline', 'cancel'])

/**
 * The state of one call. Its steps are module-level generators taking the call as an argument:
 * generator functions created per call would each get their own prototype object once used,
 * which costs ~1 KB per function in every suspended call.
 */
class BridgeCall<R> implements BridgeHost<R> {
  readonly log = new EventLog<BridgeEvent>()
  task: Task<unknown> | undefined
  readonly recorder: Journal
  state: BridgeStatus = 'running'
  waiting: Pending | undefined
  seq = 0
  abortReason: string | undefined
  cancelled = false
  handoffValue: unknown = undefined
  params: Record<string, unknown> = {}
  ctx!: McpToolContext<ElicitsMap>
  settle!: (outcome: BridgeOutcome<R>) => void
  readonly outcome = new Promise<BridgeOutcome<R>>((resolve) => (this.settle = resolve))
  release: () => void = noop
  onEnd: ((outcome: BridgeOutcome<R>) => void) | undefined
  persist: ((journal: readonly JournalEntry[]) => Operation<void>) | undefined
  /** An answer is in the journal but not stored yet (see `record`). */
  unsaved = false
  observer: CallObserver | undefined
  /** Where the call runs, and where an async reader waits for its events. */
  scope!: Scope

  constructor(
    readonly tool: AnyMcpTool,
    readonly callId: string,
    readonly sampling: SamplingProvider | undefined,
    replay: readonly JournalEntry[] | undefined,
  ) {
    this.recorder = new Journal(tool.name, replay)
  }

  get toolName(): string {
    return this.tool.name
  }

  status(): BridgeStatus {
    return this.state
  }

  pending(): ElicitRequest | undefined {
    return this.waiting?.request
  }

  get events(): readonly BridgeEvent[] {
    return this.log.events
  }

  subscribe(from?: number): AsyncGenerator<BridgeEvent, void, undefined> {
    return readAsync(this.scope, this.log.reader(from))
  }

  reader(from?: number): EventReader<BridgeEvent> {
    return this.log.reader(from)
  }

  get journal(): readonly JournalEntry[] {
    return this.recorder.entries
  }

  async abort(reason = 'aborted', options: { cancelled?: boolean } = {}): Promise<BridgeOutcome<R>> {
    if (TERMINAL_STATUSES.has(this.state) || this.abortReason !== undefined) return this.outcome
    this.abortReason = reason
    this.cancelled = options.cancelled === true
    if (this.waiting) this.log.push({ type: 'elicit_cancelled', id: this.waiting.request.id, reason })
    // Halting runs the tool's `finally` blocks, then `runCall`'s, which records the abort.
    await this.task?.halt().catch(noop)
    this.finish(this.abortedOutcome(reason))
    return this.outcome
  }

  abortedOutcome(reason: string): BridgeOutcome<R> {
    const completed = completedSteps(this.recorder.entries)
    return { status: 'aborted', reason, ...(completed.length > 0 && { completed }), ...(this.cancelled && { cancelled: true as const }) }
  }

  finish(result: BridgeOutcome<R>): void {
    if (TERMINAL_STATUSES.has(this.state)) return
    this.state = result.status
    this.waiting = undefined
    this.log.push(
      result.status === 'completed'
        ? { type: 'completed', result: result.result }
        : result.status === 'failed'
          ? { type: 'failed', error: result.error }
          : { type: 'aborted', reason: result.reason },
    )
    this.log.close()
    this.release()
    this.onEnd?.(result)
    this.settle(result)
  }

  respond(response: ElicitResponse, options?: RespondOptions): RespondOutcome {
    const current = this.waiting
    if (!current || TERMINAL_STATUSES.has(this.state)) {
      return {
        ok: false,
        code: 'NOT_PENDING',
        message: `No elicitation of tool call "${this.callId}" is waiting for an answer (it was answered, or the call ended).`,
      }
    }
    const id: unknown = response?.id
    if (id !== current.request.id) {
      return {
        ok: false,
        code: 'ID_MISMATCH',
        message: `This answer is for ${typeof id === 'string' ? `"${id}"` : 'no question'}, but the call waits for "${current.request.id}" (${current.request.key}).`,
      }
    }
    const result = response.result as { action?: unknown; content?: unknown } | undefined
    if (!result || typeof result !== 'object' || !ACTIONS.has(result.action as string)) {
      return { ok: false, code: 'INVALID_RESULT', message: 'An elicitation result must have action "accept", "decline" or "cancel".' }
    }
    let settled: ElicitResult<unknown>
    if (result.action === 'accept') {
      const parsed = current.request.schema.zod.safeParse(result.content, { error: forPeople })
      if (!parsed.success) {
        // Said for the person who answered: the UI shows these beside the fields.
        const issues = summarizeIssues(parsed.error.issues)
        const refusal = {
          ok: false as const,
          code: 'INVALID_CONTENT' as const,
          message: `The answer to "${current.request.key}" does not match its schema: ${formatIssues(issues)}`,
          issues,
        }
        if (options?.invalid !== 'throw') return refusal
        current.resolvers.resolve({ invalid: issues })
        return { ...refusal, delivered: true }
      }
      settled = { action: 'accept', content: parsed.data }
    } else {
      settled = { action: result.action as 'decline' | 'cancel' }
    }
    // Log first: resolving runs the generator synchronously up to its next wait, which may emit.
    this.log.push({ type: 'elicit_resolved', id: current.request.id, result: settled })
    current.resolvers.resolve({ result: settled })
    return { ok: true }
  }
}

/**
 * The whole call as one operation. Its end is recorded here, whichever way it ends: the value,
 * a failure (`scoped` makes a failing child of the tool — a spawned task — an error caught here),
 * or — in `finally`, which is all a halted operation runs — an abort (by `abort()`, or by the
 * scope running it shutting down).
 */
function* runCall(call: BridgeCall<unknown>): Operation<void> {
  try {
    const value = yield* scoped(() => runToolBody(call))
    // A tool that returns before using up its journal took another path than the recorded run.
    const unreached = call.recorder.unreached()
    if (unreached) throw new JournalDivergenceError(call.tool.name, describeEntry(unreached), 'the end of the tool')
    call.finish({ status: 'completed', result: checkedResult(call.tool, value) })
  } catch (error) {
    call.finish({ status: 'failed', error: error instanceof Error ? error : new Error(String(error)) })
  } finally {
    call.finish(call.abortedOutcome(call.abortReason ?? 'the scope running the tool was shut down'))
  }
}

/** With `.returns(schema)`: the schema's output, or a failure naming each field it refuses. */
function checkedResult(tool: AnyMcpTool, value: unknown): unknown {
  if (!tool.returns) return value
  // Rich content: the structured part is what the schema describes (and clients get as structuredContent).
  if (isToolContent(value)) return { ...value, structured: checkedResult(tool, value.structured) }
  const parsed = tool.returns.safeParse(value)
  if (!parsed.success) throw new ToolResultInvalidError(tool.name, summarizeIssues(parsed.error.issues))
  return parsed.data
}

function* runToolBody(call: BridgeCall<unknown>): Operation<unknown> {
  const b = call.tool.body
  if (b.kind === 'execute') return yield* b.execute(call.params, call.ctx)
  call.handoffValue = yield* stepStep(call, BEFORE_STEP, () => b.before(call.params, beforePhaseContext(call.ctx)))
  const clientResult = yield* b.client(call.handoffValue, call.ctx)
  return yield* b.after(call.handoffValue, clientResult, afterPhaseContext(call.ctx))
}

/**
 * Record an entry and make it durable before the tool continues. An answer (`deferred`) is made
 * durable at the call's next durable point instead — before any step body or sampling request
 * runs, when it parks at its next question, or when it ends (`flush`): nothing with an effect
 * runs before it is stored, and a resume that goes straight on to the next question writes
 * once, not twice. Lost with a crash before that point, the answer is asked for again, as if
 * it had never arrived (its client sends it again).
 */
function* record(call: BridgeCall<unknown>, entry: Parameters<Journal['record']>[0], deferred = false): Operation<void> {
  call.recorder.record(entry)
  if (!call.persist) return
  if (deferred) call.unsaved = true
  else yield* flush(call)
}

/** Store the journal if an entry is not stored yet (see `record`). */
function* flush(call: BridgeCall<unknown>): Operation<void> {
  if (!call.persist) return
  call.unsaved = false
  yield* call.persist(call.recorder.entries)
}

/**
 * `ctx.step`: replay returns the recorded value (or throws the recorded failure); a live run
 * runs the body, checks its value is plain JSON, and records the value as JSON gives it back —
 * so the live run and every replay see exactly the same thing.
 */
function* stepStep(call: BridgeCall<unknown>, name: string, body: StepBody): Operation<unknown> {
  const { tool, callId } = call
  const recorded = call.recorder.take('step', name)
  if (recorded) {
    call.observer?.step({ name, replayed: true })('error' in recorded ? recorded.error : undefined)
    if ('error' in recorded) throw new StepFailedError(tool.name, name, recorded.error.message, recorded.error.code)
    return recorded.value
  }
  if (call.unsaved) yield* flush(call)
  const seq = call.recorder.entries.length + 1
  const idempotencyKey = `${callId}:${name}#${seq}`
  const ended = call.observer?.step({ name, idempotencyKey, replayed: false })
  let value: unknown
  try {
    const running = body({ idempotencyKey })
    // An operation or a promise, as typed; a plain value from an untyped caller is taken as is
    // (a string is iterable, and would otherwise be run as an operation).
    value = isPromise(running) ? yield* until(running) : isOperation(running) ? yield* running : running
  } catch (error) {
    ended?.(error)
    // Misuse inside the body (a nested step, a question) is a bug in the tool, not the step's outcome.
    if (error instanceof ToolContextUsageError) throw error
    const failure = stepFailure(error)
    yield* record(call, { kind: 'step', name, error: failure })
    throw Object.assign(new StepFailedError(tool.name, name, failure.message, failure.code), { cause: error })
  }
  ended?.()
  try {
    if (value !== undefined) assertJsonSafe(value)
  } catch (error) {
    throw new ToolContextUsageError(
      tool.name,
      `${name === BEFORE_STEP ? 'handoff before()' : `ctx.step("${name}")`} must return plain JSON so it can be recorded and replayed: ${(error as Error).message}`,
    )
  }
  const copy: unknown = value === undefined ? undefined : JSON.parse(JSON.stringify(value))
  yield* record(call, { kind: 'step', name, ...(copy !== undefined && { value: copy }) })
  return copy
}

function stepFailure(error: unknown): { message: string; code?: string } {
  const message = error instanceof Error ? error.message : String(error)
  return error instanceof McpBridgeError ? { message, code: error.code } : { message }
}

function isOperation(value: unknown): value is Operation<unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Operation<unknown>)[Symbol.iterator] === 'function'
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | undefined)?.then === 'function'
}

/** `ctx.patched(name)`: the journal decides for a recorded call; a new path is recorded before it is taken. */
function* patchedStep(call: BridgeCall<unknown>, name: string): Operation<boolean> {
  const path = call.recorder.patched(name)
  if (path !== 'new') return path
  yield* record(call, { kind: 'patch', name })
  return true
}

function* elicitStep(call: BridgeCall<unknown>, key: string, raw: Record<string, unknown>): Operation<ElicitResult<unknown>> {
  const { tool, callId } = call
  const { message, mode, ...context } = raw
  if (mode !== undefined && mode !== 'form') throw new UnsupportedElicitationModeError(tool.name, key, mode)
  if (call.waiting) throw new ConcurrentElicitationError(tool.name, key, call.waiting.request.key)
  const compiled = Object.hasOwn(tool.compiled, key) ? tool.compiled[key] : undefined
  if (!compiled) throw new UnknownElicitKeyError(tool.name, key, Object.keys(tool.compiled))
  if (typeof message !== 'string') throw new ToolContextUsageError(tool.name, `ctx.elicit("${key}") needs a message string`)

  call.seq += 1
  const recorded = call.recorder.take('elicit', key)
  if (recorded) {
    if ('invalid' in recorded) throw new ElicitationInvalidResponseError(tool.name, key, recorded.invalid)
    return recorded.result
  }

  let data: Record<string, unknown> = context
  if (compiled.context) {
    const checked = compiled.context.safeParse(context)
    if (!checked.success) throw new ElicitContextError(tool.name, key, summarizeIssues(checked.error.issues))
    data = checked.data as Record<string, unknown>
  }
  assertJsonSafe(data)
  const plain = renderPlainForm(tool.name, key, tool.plainForms?.[key], data)
  const request: ElicitRequest = {
    id: elicitId(callId, call.seq),
    key,
    message,
    schema: { zod: compiled.response, json: compiled.wire },
    context: data,
    params: call.params,
    handoff: call.handoffValue,
    ...(plain && { plain }),
  }
  const resolvers = withResolvers<Resumption>()
  call.waiting = { request, resolvers }
  call.state = 'awaiting_elicit'
  call.log.push({ type: 'elicit', request })
  try {
    const resumed = yield* resolvers.operation
    if ('invalid' in resumed) {
      yield* record(call, { kind: 'elicit', name: key, invalid: resumed.invalid }, true)
      throw new ElicitationInvalidResponseError(tool.name, key, resumed.invalid)
    }
    yield* record(call, { kind: 'elicit', name: key, result: resumed.result }, true)
    return resumed.result
  } finally {
    // Synchronous on purpose: a halted call must not run further steps here.
    if (call.waiting?.resolvers === resolvers) call.waiting = undefined
    if (call.state === 'awaiting_elicit') call.state = 'running'
  }
}

function* sampleStep(call: BridgeCall<unknown>, options: SampleOptions & { schema?: z.ZodType }): Operation<SampleResult<unknown>> {
  const recorded = call.recorder.take('sample', 'sample')
  if (recorded) {
    call.observer?.sample({ replayed: true })()
    return recorded.result
  }
  const provider = call.sampling
  if (!provider) throw new SamplingUnavailableError(call.tool.name)
  if (call.unsaved) yield* flush(call)
  const request = buildSamplingRequest(call.tool.name, options)
  call.state = 'awaiting_sample'
  call.log.push({ type: 'sample', request })
  const answered = call.observer?.sample({ replayed: false })
  try {
    let result: SampleResult<unknown>
    try {
      result = yield* completeSample(call.tool.name, provider, request, options.schema)
    } catch (error) {
      answered?.(error)
      throw error
    }
    answered?.()
    yield* record(call, { kind: 'sample', name: 'sample', result })
    call.log.push({ type: 'sample_result', text: result.text, ...(result.parsed !== undefined && { parsed: result.parsed }) })
    return result
  } finally {
    if (call.state === 'awaiting_sample') call.state = 'running'
  }
}

/**
 * Runs one tool call in an Effection scope and exposes it to async code: its events from the start
 * (`subscribe`), answers (`respond`, validated with the key's schema), `abort`, and its `outcome`. The chat handler,
 * the MCP server and `runMcpTool` are built on it.
 *
 * @example
 * ```ts
 * import { createBridgeHost } from '@mcp-bridge/runtime/server'
 * import { createMockMcpClient } from '@mcp-bridge/runtime/testing'
 * import { bookFlight } from './tools.ts'
 *
 * const host = createBridgeHost({ tool: bookFlight, params: { destination: 'LAX' }, callId: 'call_1', sampling: createMockMcpClient() })
 * for await (const event of host.subscribe()) {
 *   if (event.type === 'elicit') host.respond({ id: event.request.id, result: { action: 'accept', content: { row: 3, seat: 'B' } } })
 * }
 * console.log(await host.outcome) // { status: 'completed', result: 'Booked seat 3B' }
 * ```
 */
export function createBridgeHost<T extends AnyMcpTool>(options: BridgeHostOptions<T>): BridgeHost<ToolResult<T>> {
  type R = ToolResult<T>
  // The call is the host: one object per call, its methods on the prototype.
  const call = new BridgeCall<R>(options.tool, options.callId, options.sampling, options.replay)
  call.onEnd = options.onEnd
  call.persist = options.persist
  call.observer = options.observer
  // Without a scope of the caller's, the call gets its own: isolated from every other call, and
  // destroyed once the call has ended (its readers then read what was logged, without waiting).
  if (options.scope) call.scope = options.scope
  else {
    const [own, destroy] = createScope()
    call.scope = own
    void call.outcome.then(() => destroy())
  }
  const params = call.tool.parameters.safeParse(options.params)
  if (!params.success) {
    call.finish({ status: 'failed', error: new ToolParamsError(call.tool.name, summarizeIssues(params.error.issues)) })
    return call
  }
  call.params = params.data as Record<string, unknown>
  const internal = call as BridgeCall<unknown>
  const { log } = call
  call.ctx = createToolContext({
    toolName: call.tool.name,
    callId: call.callId,
    ...(options.auth && { auth: options.auth }),
    elicit: (key, raw) => elicitStep(internal, key, raw),
    sample: (o) => sampleStep(internal, o),
    step: (name, body) => stepStep(internal, name, body),
    patched: (name) => patchedStep(internal, name),
    log: (level, message, data) => log.push({ type: 'log', level, message, ...(data !== undefined && { data }), ...replayedFlag(internal) }),
    notify: (message, progress, total) =>
      log.push({
        type: 'notify',
        message,
        ...(progress !== undefined && { progress }),
        ...(total !== undefined && { total }),
        ...replayedFlag(internal),
      }),
  })

  call.task = call.scope.run(() => runCall(internal))

  const { signal } = options
  if (signal) {
    const onSignal = () => void call.abort(signalReason(signal))
    signal.addEventListener('abort', onSignal, { once: true })
    call.release = () => signal.removeEventListener('abort', onSignal)
    if (signal.aborted) onSignal()
  }
  return call
}

function replayedFlag(call: BridgeCall<unknown>): { replayed?: true } {
  return call.recorder.replaying ? { replayed: true } : {}
}

function signalReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'aborted by signal'
}

function noop(): void {}
