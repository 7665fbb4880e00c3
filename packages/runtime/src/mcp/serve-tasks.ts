/**
 * MCP Tasks (`io.modelcontextprotocol/tasks`, the extension of protocol 2026-07-28): a tool call a
 * client can leave and pick up again — on any instance, after a restart — because a task is its
 * call's record in the call store, nothing kept beside it.
 *
 *   tools/call   a client that opts in (the extension in its request's capabilities) calling a
 *                tool whose `taskSupport` allows it gets a task at once (`resultType: "task"`); the
 *                call runs on in this server's scope to its next stop, where it parks as any call
 *                does (its question stored, its lock let go of).
 *   tasks/get    reads the record: running → `working`; waiting → `input_required` with its
 *                question as `inputRequests`; ended → `completed` with the tool's result (a tool's
 *                error included, `isError`), or `cancelled` after `tasks/cancel`.
 *   tasks/update hands the answer to the waiting call the way a 2026-07-28 round does (the warm
 *                copy, or a replay of its journal anywhere), then runs it on to its next stop. An
 *                answer its key's schema refuses is not applied: the question is asked again under
 *                a new key, saying why.
 *   tasks/cancel aborts the call (its `finally` blocks run) where it runs or waits.
 *
 * A task id is its call id (random, 122 bits) and is bound to its caller: the OAuth client and
 * subject, or without auth the client key. Anyone else is told the task is unknown, as for an id
 * that never was. A task's record is kept as any call's is: while it waits (up to
 * `limits.idleTimeoutMs`) and for `limits.idleTimeoutMs` after it ends — its `ttlMs`.
 */
import { until, type Operation } from 'effection'
import { z } from 'zod/v4'
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type AuthInfo,
  type ClientCapabilities,
  type InputRequest,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server'
import { errorResult, toolResultOf } from '../bridge/tool-result.ts'
import { bridgeOutcomeOf } from '../calls/call-record.ts'
import type { CallRecord } from '../calls/stores/call-store.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { mcpAuthOf, principalOf } from './auth.ts'
import { carriesItsRounds, clientCapabilitiesOf, protocolVersionOf } from './client-capabilities.ts'
import type { McpCall } from './mcp-call.ts'
import { mcpCallToStop, type McpQuestionWire } from './mcp-surface.ts'
import { clientOf, deliver, startCall, withReason, type McpOrigin, type StartOptions, type ToolCallService } from './serve-tool-call.ts'
import { recordedCallSpec } from './recover-mcp-call.ts'

/** The extension's id, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

/** How often a client is asked to poll `tasks/get` (`pollIntervalMs`). */
export const TASK_POLL_INTERVAL_MS = 1000

/** The reason a task cancelled with `tasks/cancel` ends with: how `tasks/get` tells `cancelled` from other ends. */
export const TASK_CANCELLED = 'the client cancelled the task'

type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

/** The task fields every task answer carries (`Task` of the extension); a type, so it is a JSON-RPC result as it is. */
type TaskFields = {
  taskId: string
  status: TaskStatus
  statusMessage?: string
  createdAt: string
  lastUpdatedAt: string
  ttlMs: number
  pollIntervalMs: number
}

/** Whether this request's client opted into tasks: the extension in its per-request capabilities (2026-07-28 and later only). */
export function speaksTasks(caps: ClientCapabilities, version: string | undefined): boolean {
  return carriesItsRounds(version) && (caps as { extensions?: Record<string, unknown> }).extensions?.[TASKS_EXTENSION] !== undefined
}

/** -32021 naming the extension: for a task method, or a `taskSupport: 'required'` tool, from a client that did not opt in. */
export function needsTasks(what: string): MissingRequiredClientCapabilityError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } as ClientCapabilities },
    `${what} needs the MCP Tasks extension: declare "${TASKS_EXTENSION}" under extensions in the request's client capabilities (protocol 2026-07-28).`,
  )
}

/** Who may see a task: the OAuth principal, or without auth the client key (`client` is asked only then). */
export function taskOwner(authInfo: AuthInfo | undefined, client: () => string): string {
  return authInfo ? `oauth:${principalOf(authInfo)}` : `client:${client()}`
}

function ownerOf(service: Pick<ToolCallService, 'clientKey'>, ctx: ServerContext): string {
  return taskOwner(ctx.http?.authInfo, () => clientOf(service, ctx))
}

/**
 * `tools/call` as a task: the call's record is written before this returns (a `tasks/get` with its
 * id resolves at once, on any instance), and the call runs on in the server's scope.
 */
export function* startTask(
  service: ToolCallService,
  ctx: ServerContext,
  tool: AnyMcpTool,
  args: unknown,
  options: Omit<StartOptions, 'task'>,
): Operation<TaskFields & { resultType: 'task' }> {
  const call = yield* until(startCall(service, ctx, tool, args, { ...options, task: { owner: ownerOf(service, ctx) } }))
  runOn(service, call)
  const record = yield* until(service.calls.store.get(call.callId))
  if (!record) throw new ProtocolError(ProtocolErrorCode.InternalError, `The task for "${tool.name}" was started but its record is not in the call store; call the tool again.`)
  return { resultType: 'task', ...taskFields(record) }
}

/**
 * Carry a task's call to its next stop, in the server's scope (no request waits for it): it parks
 * at its question, or its end is recorded. Nothing of its logs or progress has anywhere to go.
 */
function runOn(service: ToolCallService, call: McpCall): void {
  void service.scope
    .run(function* () {
      const stop = yield* mcpCallToStop(service, call, undefined)
      if (stop.kind === 'done') {
        if (stop.unsaved) throw stop.unsaved
        yield* until(service.calls.settled(call))
      }
    })
    .catch((error: unknown) => service.logger.error({ err: error }, `the MCP task ${call.callId} (${call.toolName}) could not be carried on`))
}

const taskIdParams = z.looseObject({ taskId: z.string({ error: 'taskId must be a string' }) })

/** `tasks/get`, `tasks/update` and `tasks/cancel` on `server`; `perform` runs each as a task of the server's scope. */
export function serveTasks(server: Server, service: ToolCallService, perform: <T>(operation: () => Operation<T>) => Promise<T>): void {
  const gate = (ctx: ServerContext, method: string) => {
    if (!speaksTasks(clientCapabilitiesOf(server, ctx), protocolVersionOf(server, ctx))) throw needsTasks(method)
  }
  server.setRequestHandler('tasks/get', { params: taskIdParams }, (params, ctx) => {
    gate(ctx, 'tasks/get')
    return perform(function* () {
      return (yield* taskSnapshot(service, params.taskId, ownerOf(service, ctx))) ?? unknownTask(params.taskId)
    })
  })
  server.setRequestHandler('tasks/update', { params: taskIdParams }, (params, ctx) => {
    gate(ctx, 'tasks/update')
    return perform(function* () {
      const record = yield* ownedTask(service, params.taskId, ctx)
      // The SDK lifts `inputResponses` out of the params (as for any 2026-07-28 request), keeping the bare answers.
      yield* updateTask(service, record, ctx.mcpReq.inputResponses ?? {}, ctx)
      return {}
    })
  })
  server.setRequestHandler('tasks/cancel', { params: taskIdParams }, (params, ctx) => {
    gate(ctx, 'tasks/cancel')
    return perform(function* () {
      const record = yield* ownedTask(service, params.taskId, ctx)
      // Cooperative, as the extension says: the ack does not wait for the call to end.
      if (!record.outcome) yield* until(service.calls.abort(record.callId, undefined, TASK_CANCELLED, { trusted: true }))
      return {}
    })
  })
}

/**
 * The task as `tasks/get` answers it, if `owner` may see it: what its record says, with the latest
 * progress of its call where the call runs here (the `Mcp-Name` header lets a balancer route polls there).
 */
export function* taskSnapshot(service: ToolCallService, taskId: string, owner: string): Operation<DetailedTask | undefined> {
  const record = yield* ownedRecord(service, taskId, owner)
  if (!record) return undefined
  const task = detailedTask(record)
  const progress = task.status === 'working' ? service.calls.get(record.callId)?.extra.progress : undefined
  return progress === undefined ? task : { ...task, statusMessage: progress }
}

function* ownedRecord(service: ToolCallService, taskId: string, owner: string): Operation<CallRecord | undefined> {
  const record = taskId.length > 0 && taskId.length <= 200 ? yield* until(service.calls.store.get(taskId)) : undefined
  const origin = record?.surface === 'mcp' ? (record.origin as Partial<McpOrigin> | undefined) : undefined
  return record && origin?.task?.owner === owner ? record : undefined
}

/** The task's record, if it is one of this caller's tasks; else -32602, the same for every id the caller may not see. */
function* ownedTask(service: ToolCallService, taskId: string, ctx: ServerContext): Operation<CallRecord> {
  return (yield* ownedRecord(service, taskId, ownerOf(service, ctx))) ?? unknownTask(taskId)
}

function unknownTask(taskId: string): never {
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task "${taskId.slice(0, 200)}": no task of yours has that id (it may have ended more than its ttlMs ago).`, {
    taskId: taskId.slice(0, 200),
  })
}

/** The key a task's question goes by in `inputRequests`: new each time it is asked again. */
function taskKeyOf(wire: McpQuestionWire): string {
  return wire.retry ? `${wire.wait.inputKey}~${wire.retry}` : wire.wait.inputKey
}

/**
 * A call that failed by a fault of the server's, not the tool's: its task is `failed` (a JSON-RPC
 * error). Anything else a tool throws is its own error, a result with `isError` (`completed`).
 */
const SERVER_FAULTS = new Set(['TOOL_RESULT_INVALID', 'JOURNAL_DIVERGENCE'])

function statusOf(record: Pick<CallRecord, 'status' | 'outcome'>): TaskStatus {
  const { outcome } = record
  if (!outcome) return record.status === 'waiting' ? 'input_required' : 'working'
  if (outcome.status === 'aborted') return outcome.cancelled ? 'cancelled' : 'completed'
  return outcome.status === 'failed' && outcome.code !== undefined && SERVER_FAULTS.has(outcome.code) ? 'failed' : 'completed'
}

function taskFields(record: Pick<CallRecord, 'callId' | 'status' | 'createdAt' | 'updatedAt' | 'expiresAt' | 'outcome'>): TaskFields {
  const status = statusOf(record)
  return {
    taskId: record.callId,
    status,
    ...(status === 'cancelled' && { statusMessage: 'Cancelled.' }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.updatedAt).toISOString(),
    // From creation, as the extension counts it: the record is kept until `expiresAt`.
    ttlMs: Math.max(1, Math.round(record.expiresAt - record.createdAt)),
    pollIntervalMs: TASK_POLL_INTERVAL_MS,
  }
}

/** What `tasks/get` answers (and `notifications/tasks` carries): the task, with its question, or its result. */
export type DetailedTask = TaskFields & { inputRequests?: Record<string, InputRequest>; result?: Record<string, unknown>; error?: { code: number; message: string } }

/** Statuses a task never leaves. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled'])

function detailedTask(record: CallRecord): DetailedTask {
  const fields = taskFields(record)
  if (fields.status === 'input_required') {
    const wire = record.pending?.wire as McpQuestionWire | undefined
    if (!wire?.inputRequest) return { ...fields, status: 'working' }
    return { ...fields, inputRequests: { [taskKeyOf(wire)]: wire.inputRequest } }
  }
  if (fields.status === 'completed' || fields.status === 'failed') {
    // A tool's error is a result too (`isError`); `failed` carries a JSON-RPC error instead.
    const result = record.outcome ? toolResultOf(bridgeOutcomeOf(record.outcome, record.journal)) : errorResult('The tool call ended.')
    if (fields.status === 'failed')
      return { ...fields, error: { code: ProtocolErrorCode.InternalError, message: result.content.map((c) => ('text' in c ? c.text : '')).join(' ') } }
    // As the tool call would have answered (2026-07-28 results carry their `resultType`).
    return { ...fields, result: { resultType: 'complete', ...result } }
  }
  return fields
}

/**
 * Hand the answer to the task's waiting call. Keys that are not its current question's are
 * ignored, as the extension asks; so is an update for a task that no longer waits.
 */
function* updateTask(service: ToolCallService, record: CallRecord, answers: Record<string, unknown>, ctx: ServerContext): Operation<void> {
  const wire = record.pending?.wire as McpQuestionWire | undefined
  if (record.status !== 'waiting' || !wire?.wait) return
  const answer = answers[taskKeyOf(wire)]
  if (answer === undefined) return
  const caller = mcpAuthOf(ctx.http?.authInfo)
  const resumed = yield* until(
    service.calls.resume(record.callId, {
      revision: record.revision,
      ...(caller && { caller }),
      replay: (stored) => recordedCallSpec(service, stored),
    }),
  )
  if (!resumed.ok) {
    // Another answer is being applied right now: this one is not lost silently.
    if (resumed.code === 'BUSY') throw new ProtocolError(ProtocolErrorCode.InvalidParams, resumed.message)
    return // it moved on or ended meanwhile: the key is no longer outstanding
  }
  const { call } = resumed
  if (resumed.replayed) {
    // Not held here (a restart, another instance): replay its journal up to the same question.
    const stop = yield* mcpCallToStop(service, call, undefined, { replayingTo: wire.wait.inputKey, park: false })
    if (stop.kind === 'done') return
  }
  let refused: string | undefined
  try {
    refused = deliver(call, answer)
  } catch (error) {
    yield* parkAgain(service, call, wire) // nothing was applied: it waits for a proper answer
    throw error
  }
  if (refused === undefined) return runOn(service, call)
  // Not applied: asked again under a new key, saying why (`tasks/get` shows it).
  yield* parkAgain(service, call, { ...wire, inputRequest: withReason(call.extra.inputRequest ?? wire.inputRequest, refused), retry: (wire.retry ?? 0) + 1 })
}

function* parkAgain(service: ToolCallService, call: McpCall, wire: McpQuestionWire): Operation<void> {
  const key = call.host.pending()?.key ?? 'sample'
  // Its id is its key in `inputRequests`: a question asked again is a new one, stored as such.
  yield* until(service.calls.park(call, { id: taskKeyOf(wire), key, wire }))
}
