/**
 * Task status notifications (`notifications/tasks`, MCP Tasks on protocol 2026-07-28): a client
 * that opens a `subscriptions/listen` stream naming its tasks (`notifications.taskIds`) is told
 * each change of their status there instead of polling `tasks/get`.
 *
 * The SDK's listen router knows only the four list/resource change kinds, so a listen that names
 * tasks is served here, whole: its resource subscriptions go on the same stream (from the server's
 * change bus), and the list changes this server never sends are not acknowledged, as the SDK does.
 *
 * A task's status lives in the call store and may change on any instance (its call resumed
 * elsewhere, recovered after a restart), so the stream reads each named task from the store every
 * `TASK_WATCH_INTERVAL_MS` and says what changed: at once the status each task has, then every
 * change (status, progress, question, result), the last one with the result or error. A task that
 * ended is watched no more; when none is left and no resource is subscribed, the stream ends with
 * its result. Only the caller's own tasks are acknowledged; other ids are left out of the ack, as
 * unknown ones are (nobody learns that someone else's task exists).
 */
import { sleep, spawn, suspend, type Operation, type Scope, type Task } from 'effection'
import { z } from 'zod/v4'
import {
  CLIENT_CAPABILITIES_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
  type AuthInfo,
  type ClientCapabilities,
  type ServerEventBus,
} from '@modelcontextprotocol/server'
import { needsTasks, speaksTasks, taskOwner, TERMINAL_TASK_STATUSES, type DetailedTask } from './serve-tasks.ts'

/** How often a watched task is read from the store. */
export const TASK_WATCH_INTERVAL_MS = 500
/** Tasks one stream may name. */
const MAX_TASKS_PER_STREAM = 100
/** Task streams open at once (the SDK's own bound for its listen streams). */
const MAX_TASK_STREAMS = 1024
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000

export interface TaskStreams {
  /** Serve `request` if it is a 2026-07-28 `subscriptions/listen` naming tasks; undefined for any other request. */
  serve(request: Request, authInfo: AuthInfo | undefined): Promise<Response | undefined>
  /** End every open task stream (the server closes). */
  closeAll(): void
}

export function createTaskStreams(options: {
  scope: Scope
  /** The task as `tasks/get` answers it, if `owner` may see it. */
  snapshot: (taskId: string, owner: string) => Operation<DetailedTask | undefined>
  clientKey: (request: Request) => string
  /** Where `notifyResourceUpdated` publishes (shared with the SDK's own listen streams). */
  bus: ServerEventBus
  /** Whether the server offers resource subscriptions. */
  resourcesSubscribable: boolean
  onError: (error: Error) => void
}): TaskStreams {
  const open = new Set<() => void>()

  async function serve(request: Request, authInfo: AuthInfo | undefined): Promise<Response | undefined> {
    const listen = await taskListenOf(request)
    if (!listen) return undefined
    if ('refused' in listen) return jsonRpcError(listen.id, listen.refused)
    if (open.size >= MAX_TASK_STREAMS)
      return jsonRpcError(listen.id, { code: -32603, message: `Subscription limit reached (${MAX_TASK_STREAMS} task streams are open); poll tasks/get instead.` })
    const owner = taskOwner(authInfo, () => options.clientKey(request))
    // The first status of each task is read before the stream opens: what the ack names is what is watched.
    const first = await options.scope.run(function* () {
      const found: DetailedTask[] = []
      for (const taskId of listen.taskIds) {
        const task = yield* options.snapshot(taskId, owner)
        if (task) found.push(task)
      }
      return found
    })
    const resources = options.resourcesSubscribable ? (listen.resourceSubscriptions ?? []) : []
    return sseResponse(options.scope, listen.id, request.signal, open, options.onError, (write) => watch(first, resources, write, { ...options, owner, subscriptionId: listen.id }))
  }

  return {
    serve,
    closeAll() {
      for (const end of open) end()
    },
  }
}

type Write = (method: string, params: Record<string, unknown>) => void

/** The stream's life: the ack, the tasks' first statuses, then their changes (and resource updates) until it ends. */
function* watch(
  first: DetailedTask[],
  resources: readonly string[],
  write: Write,
  options: { snapshot: (taskId: string, owner: string) => Operation<DetailedTask | undefined>; bus: ServerEventBus; owner: string; subscriptionId: string | number },
): Operation<void> {
  const stamped = (params: Record<string, unknown>) => ({ ...params, _meta: { [SUBSCRIPTION_ID_META_KEY]: options.subscriptionId } })
  if (resources.length > 0) {
    const unsubscribe = options.bus.subscribe((event) => {
      if (event.kind === 'resource_updated' && resources.includes(event.uri)) write('notifications/resources/updated', stamped({ uri: event.uri }))
    })
    yield* spawn(function* () {
      try {
        yield* suspend()
      } finally {
        unsubscribe()
      }
    })
  }
  // Acknowledged once it is listening: an update published after the ack is never missed.
  write(
    'notifications/subscriptions/acknowledged',
    stamped({ notifications: { taskIds: first.map((task) => task.taskId), ...(resources.length > 0 && { resourceSubscriptions: [...resources] }) } }),
  )
  yield* spawn(function* () {
    for (;;) {
      yield* sleep(KEEP_ALIVE_MS)
      write('', {})
    }
  })
  const said = new Map<string, string>()
  let watched = first.map((task) => task.taskId)
  let latest = first
  for (;;) {
    for (const task of latest) {
      const seen = JSON.stringify(task)
      if (said.get(task.taskId) !== seen) write('notifications/tasks', stamped(task))
      said.set(task.taskId, seen)
    }
    // Gone (its record expired) or ended: nothing more will change.
    watched = watched.filter((taskId) => latest.some((task) => task.taskId === taskId && !TERMINAL_TASK_STATUSES.has(task.status)))
    if (watched.length === 0) break
    yield* sleep(TASK_WATCH_INTERVAL_MS)
    const next: DetailedTask[] = []
    for (const taskId of watched) {
      const task = yield* options.snapshot(taskId, options.owner)
      if (task) next.push(task)
    }
    latest = next
  }
  // Every task ended: the stream ends with them, unless it also carries resource updates.
  if (resources.length > 0) yield* suspend()
}

/**
 * An event stream fed by `life`, run in `scope`: it ends with the listen's result when `life`
 * returns, and `life` is halted when the client leaves or the server closes (`open`).
 */
function sseResponse(
  scope: Scope,
  subscriptionId: string | number,
  signal: AbortSignal,
  open: Set<() => void>,
  onError: (error: Error) => void,
  life: (write: Write) => Operation<void>,
): Response {
  const encoder = new TextEncoder()
  let stream!: ReadableStreamDefaultController<Uint8Array>
  let ended = false
  const frame = (text: string) => {
    if (ended) return
    try {
      stream.enqueue(encoder.encode(text))
    } catch {
      // The reader is gone: its cancel ends the stream.
    }
  }
  const write: Write = (method, params) => frame(method ? `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method, params })}\n\n` : ': keepalive\n\n')
  let task: Task<void> | undefined
  const end = () => {
    if (ended) return
    ended = true
    open.delete(stop)
    signal.removeEventListener('abort', stop)
    try {
      stream.close()
    } catch {
      // Already closed by its reader.
    }
  }
  const stop = () => {
    end()
    void task?.halt().catch(onError)
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      stream = controller
      if (signal.aborted) return end()
      open.add(stop)
      signal.addEventListener('abort', stop, { once: true })
      task = scope.run(function* () {
        try {
          yield* life(write)
          frame(
            `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: subscriptionId, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } } })}\n\n`,
          )
        } catch (error) {
          onError(error instanceof Error ? error : new Error(String(error)))
        } finally {
          // Also when halted: the client left, or the server closed.
          end()
        }
      })
    },
    cancel: stop,
  })
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' } })
}

interface TaskListen {
  id: string | number
  taskIds: string[]
  resourceSubscriptions?: string[]
}

const listenSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number()]),
  method: z.literal('subscriptions/listen'),
  params: z.looseObject({
    notifications: z.looseObject({ taskIds: z.unknown() }),
    _meta: z.record(z.string(), z.unknown()).optional(),
  }),
})

const filterSchema = z.looseObject({
  taskIds: z
    .array(z.string().min(1, 'a task id is not empty').max(200, 'a task id is at most 200 characters'), { error: 'taskIds must be an array of task ids' })
    .min(1, 'name at least one task')
    .max(MAX_TASKS_PER_STREAM, `at most ${MAX_TASKS_PER_STREAM} tasks per stream; open another for more`),
  resourceSubscriptions: z.array(z.string(), { error: 'resourceSubscriptions must be an array of URIs' }).optional(),
})

interface JsonRpcProblem {
  code: number
  message: string
  data?: unknown
}

/** The listen `request` is, if it names tasks; a refusal if it names them wrongly; undefined for anything else. */
async function taskListenOf(request: Request): Promise<TaskListen | { id: string | number; refused: JsonRpcProblem } | undefined> {
  if (request.method !== 'POST') return undefined
  let message: unknown
  try {
    message = JSON.parse(await request.clone().text())
  } catch {
    return undefined // not JSON: the transport says so
  }
  const listen = listenSchema.safeParse(message)
  if (!listen.success || !('taskIds' in listen.data.params.notifications)) return undefined
  const { id, params } = listen.data
  const meta = params._meta ?? {}
  const version = typeof meta[PROTOCOL_VERSION_META_KEY] === 'string' ? meta[PROTOCOL_VERSION_META_KEY] : (request.headers.get('mcp-protocol-version') ?? undefined)
  if (!speaksTasks((meta[CLIENT_CAPABILITIES_META_KEY] ?? {}) as ClientCapabilities, version)) {
    const error = needsTasks('A subscriptions/listen naming taskIds')
    return { id, refused: { code: error.code, message: error.message, data: error.data } }
  }
  const filter = filterSchema.safeParse(params.notifications)
  if (!filter.success) {
    const problem = filter.error.issues.map((issue) => `${issue.path.join('.') || 'notifications'}: ${issue.message}`).join('; ')
    return { id, refused: { code: -32602, message: `Invalid params: ${problem}.` } }
  }
  return { id, taskIds: [...new Set(filter.data.taskIds)], ...(filter.data.resourceSubscriptions && { resourceSubscriptions: filter.data.resourceSubscriptions }) }
}

function jsonRpcError(id: string | number, error: JsonRpcProblem): Response {
  return Response.json({ jsonrpc: '2.0', id, error }, { status: 200 })
}
