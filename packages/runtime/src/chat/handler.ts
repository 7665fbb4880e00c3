/**
 * `createChatHandler({ tools, model, limits? })`: a fetch-style handler `(Request) => Promise<Response>`
 * that validates the body and streams the turn as newline-delimited JSON events. Bad input is a
 * 4xx with a message that names the problem; nothing is half-applied and existing calls are
 * unaffected. A turn that names a conversation is recorded in the store, and
 * `GET ?conversation=<id>` with `Authorization: Bearer <secret>` returns it for a reload.
 */
import { createHash } from 'node:crypto'
import { z } from 'zod/v4'
import { functionOption } from '../schema/function-option.ts'
import { takeRequestOnce } from './request-once.ts'
import { callLimitsShape } from '../calls/call-limits.ts'
import { createChatDevtools, type ChatDevtools } from './devtools.ts'
import { consoleLogger, loggerOption, withTraceIds, type McpBridgeLogger } from '../telemetry/logger.ts'
import { startSpan } from '../telemetry/tracing.ts'
import { loadOtel } from '../telemetry/otel.ts'
import { CallRegistry } from '../calls/call-registry.ts'
import { callStoreOption } from '../calls/stores/store-option.ts'
import type { CallStore } from '../calls/stores/call-store.ts'
import { createMemoryStore } from '../calls/stores/memory-store.ts'
import { clockOption, systemClock, type Clock } from '../time/clock.ts'
import { MAX_JSON_DEPTH } from '../model-context/json-safe.ts'
import { exceedsJsonBounds } from '../schema/json-schema.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { formatIssues, summarizeIssues } from '../errors/issues.ts'
import { forClient, type ErrorLog } from '../errors/client-errors.ts'
import { StoreUnavailableError } from '../errors/store-errors.ts'
import { defaultClientKey, type ClientKey } from '../http/client-address.ts'
import { createByteBudget } from './byte-budget.ts'
import { readLimited } from '../http/read-limited.ts'
import { crossOriginHeaders, foreignRequestProblem, preflightResponse, resolveRequestOrigin, type RequestOriginOptions } from '../http/request-origin.ts'
import { collectTools } from '../plugin/collect-tools.ts'
import type { McpPlugin } from '../plugin/types.ts'
import { chatRequestBodySchema, conversationKeySchema, NDJSON_CONTENT_TYPE, type ChatRequestBody, type ChatStreamEvent, type ConversationKey } from '../protocol/chat-wire.ts'
import { encodeChatEvent } from '../protocol/codec.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { callerOf, type Authenticate, type CallerAuth } from '../tool/caller-auth.ts'
import { AuthenticationError } from '../errors/server-errors.ts'
import { ConversationLog, type TurnRecorder } from './conversation-log.ts'
import { chatRecovery } from './recover-chat-call.ts'
import { ClientConversations } from './client-conversations.ts'
import { DEFAULT_LIMITS, runTurn, type ChatLimits } from './engine.ts'
import type { ChatModel } from './model.ts'
import type { McpMessage } from '../sampling/content.ts'
import { OptionsError } from '../errors/options-error.ts'
import { withLiveProgress } from './live-progress.ts'

/**
 * What `createChatHandler` takes: the tools (or plugins) and the model, and optionally limits, a system prompt, a call store, a logger, a clock and who may call (hosts, origins, client keys).
 */
export interface ChatHandlerOptions extends RequestOriginOptions {
  /**
   * Who a request is from, for `limits.maxCallsPerClient`. Default: the remote address the Node
   * adapter saw (`toNodeListener`, `chatMiddleware`); behind a proxy or on a fetch-only runtime,
   * derive it from something you trust (a session, a verified header).
   */
  clientKey?: ClientKey
  /**
   * Who is signed in, from the app's own session (a cookie, a header): `{ subject, scopes?, extra? }`,
   * or `undefined` for nobody. Tools read it as `ctx.auth`; it is recorded with each call (never
   * the credential) and the same when the call resumes on another instance or is recovered. A
   * call, and a conversation, started by a signed-in user is theirs: another user's request is
   * refused (`FORBIDDEN`), even with the call's token. Throwing refuses the request with 401.
   */
  authenticate?: Authenticate
  /** Tools and plugins (a plugin contributes its tool). */
  tools: ReadonlyArray<AnyMcpTool | McpPlugin>
  model: ChatModel
  limits?: Partial<ChatLimits>
  /** A system prompt for the model. */
  system?: string
  /**
   * Where tool calls are recorded so they survive restarts and can be answered on any instance
   * (see the docs: "Durable calls"): `createSqliteStore` for one server, `createRedisStore`
   * for several. Conversations (for reloads) are kept there too. Default: this process's
   * memory. The handler does not close it.
   */
  store?: CallStore
  /**
   * Where the server's own messages go (a recovered call, the details of a failure a client is
   * told only a code for): pino's signature, so `logger: pino()` fits. Default: the console.
   * Lines written in a traced request carry its `trace_id` and `span_id`.
   */
  logger?: McpBridgeLogger
  /**
   * What idle times, leases and expiry are measured with. Default: wall time. Tests pass
   * `createTestClock()` (from `@mcp-bridge/runtime/testing`) here and to their store, then
   * move time on with `clock.advance(ms)`.
   */
  clock?: Clock
}

/**
 * A chat endpoint: a fetch handler (`(request) => Promise<Response>`) speaking the chat protocol, with its live calls and `close()`.
 */
export interface ChatHandler {
  (request: Request): Promise<Response>
  /** The tool calls this handler holds (waiting for users, or running). */
  readonly calls: CallRegistry<undefined>
  /** For the Vite plugin's dev panel (in `vite dev` only): calls with their timelines; answer or cancel as the developer. */
  readonly devtools: ChatDevtools
  /** How it tells clients apart (the `clientKey` option, or the default): `serveApp`'s rate limit counts them the same way. */
  readonly clientKey: ClientKey
  /** Abort every call (server shutdown). */
  close(): Promise<void>
}

/** A body is a few levels of protocol around JSON data (tool inputs, results) of at most MAX_JSON_DEPTH. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 8

const positive = z.number().int().positive()
const optionsSchema = z
  .object({
    tools: z.unknown(),
    model: z.custom<ChatModel>((m) => typeof (m as ChatModel | undefined)?.stream === 'function', {
      message: 'takes a ChatModel: createAiSdkModel(provider(...)), or createScriptedModel(...) from @mcp-bridge/runtime/testing',
    }),
    limits: z
      .object({
        ...callLimitsShape,
        maxBodyBytes: positive,
        maxSteps: positive.max(100),
        maxConversationsPerClient: z.number().int().min(1).max(100_000),
        clientBytesPerSecond: z
          .number()
          .int()
          .min(1024, 'at least 1024 bytes a second')
          .max(1 << 30, 'at most 1 GiB a second'),
        maxTranscriptBytes: z
          .number()
          .int()
          .min(16 << 10, 'at least 16384 bytes')
          .max(64 << 20, 'at most 64 MiB'),
        conversationTtlMs: z
          .number()
          .int()
          .min(60_000, 'at least a minute (60000 ms)')
          .max(366 * 24 * 3600_000, 'at most a year'),
      })
      .partial()
      .strict()
      .optional(),
    system: z.string().optional(),
    clientKey: functionOption().optional(),
    authenticate: functionOption().optional(),
    allowedHosts: z.unknown().optional(),
    allowedOrigins: z.unknown().optional(),
    store: callStoreOption.optional(),
    clock: clockOption.optional(),
    logger: loggerOption.optional(),
  })
  .strict()

/**
 * The app's chat endpoint: a fetch handler that runs the model, calls the tools, streams their questions to the
 * browser and resumes each call with its answer — on any instance sharing the `store`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createChatHandler, createSqliteStore, toNodeListener } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const chat = createChatHandler({
 *   tools: serverTools,
 *   model: createScriptedModel({ fallback: 'Hello!' }),
 *   store: await createSqliteStore({ path: 'data/calls.db' }), // waiting calls survive a restart
 * })
 * createServer(toNodeListener(chat)).listen(3000, '127.0.0.1')
 * ```
 */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new OptionsError('createChatHandler', summarizeIssues(checked.error.issues))
  }
  const tools = collectTools(options.tools, 'createChatHandler({ tools })')
  const limits: ChatLimits = { ...DEFAULT_LIMITS, ...(checked.data.limits as Partial<ChatLimits> | undefined) }
  const origin = resolveRequestOrigin(options, 'createChatHandler')
  const clientKey = options.clientKey ?? defaultClientKey
  const log = withTraceIds(options.logger ?? consoleLogger)
  const clock = options.clock ?? systemClock
  const store = options.store ?? createMemoryStore({ clock })
  const bytes = createByteBudget(limits, clock)
  const conversations = new ConversationLog(store, limits.conversationTtlMs, clock, limits.maxTranscriptBytes)
  const perClient = new ClientConversations(store, clock, limits.conversationTtlMs, limits.maxConversationsPerClient)
  const calls: CallRegistry<undefined> = new CallRegistry<undefined>({
    limits,
    surface: 'chat',
    store,
    clock,
    logger: log,
    recover: chatRecovery({ tools, model: options.model, limits, conversations, calls: () => calls, logger: log }),
  })

  // OpenTelemetry, if the app has it: loaded once, before the first request is served.
  const tracingReady = loadOtel()
  async function handle(request: Request): Promise<Response> {
    await tracingReady
    const foreign = foreignRequestProblem(request, origin)
    if (foreign) return problem(403, 'FORBIDDEN_ORIGIN', foreign)
    // A page of another origin in allowedOrigins (the client hosted apart from the chat) may read
    // the answer; its preflight is answered here.
    const cors = crossOriginHeaders(request)
    if (request.method === 'OPTIONS') return preflightResponse(cors, 'GET, POST, DELETE')
    const response = await route(request)
    for (const [name, value] of Object.entries(cors)) response.headers.set(name, value)
    return response
  }

  async function route(request: Request): Promise<Response> {
    let caller: CallerAuth | undefined
    try {
      caller = await callerOf(options.authenticate, request)
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error
      return problem(401, error.code, error.message)
    }
    if (request.method === 'GET') return restore(request, caller)
    if (request.method === 'DELETE') return forget(request, caller)
    if (request.method !== 'POST') {
      return problem(
        405,
        'METHOD_NOT_ALLOWED',
        `Use POST for a chat turn, GET ?conversation=<id> to restore one, or DELETE ?conversation=<id> to delete it (got ${request.method}).`,
      )
    }
    const type = request.headers.get('content-type') ?? ''
    if (!/^application\/json\b/i.test(type)) {
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json (got ${type || 'no content type'}).`)
    }
    const client = clientKey(request)
    // Counted before it is read when its size is declared, else once read (before any work on it).
    const declared = Number(request.headers.get('content-length') ?? Number.NaN)
    const early = Number.isFinite(declared) ? bytes.admit(client, Math.min(declared, limits.maxBodyBytes)) : undefined
    if (early) return early
    const text = await readLimited(request, limits.maxBodyBytes)
    if (text === undefined) {
      return problem(413, 'BODY_TOO_LARGE', `The request body is larger than ${limits.maxBodyBytes} bytes (limits.maxBodyBytes).`)
    }
    const late = Number.isFinite(declared) ? undefined : bytes.admit(client, text.length)
    if (late) return late
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      return problem(400, 'INVALID_JSON', `The request body is not JSON: ${(error as Error).message}`)
    }
    // Nodes are bounded by the body size already; depth is what recursive code downstream fears.
    if (exceedsJsonBounds(json, { depth: MAX_BODY_DEPTH, nodes: Number.POSITIVE_INFINITY })) {
      return problem(400, 'BODY_TOO_DEEP', `The request body nests deeper than ${MAX_BODY_DEPTH} levels; no chat message needs that.`)
    }
    const parsed = chatRequestBodySchema.safeParse(json)
    if (!parsed.success) {
      const issues = summarizeIssues(parsed.error.issues)
      return problem(400, 'INVALID_BODY', `The request body is not a chat request: ${formatIssues(issues)}`, issues)
    }
    const body = parsed.data
    let recorder: TurnRecorder | undefined
    if (body.requestId !== undefined && !body.conversation) {
      // No conversation to remember it in: the store does (a retry whose first try arrived runs nothing).
      const first = await storeCall(() => takeRequestOnce(calls.store, clock, clientKey(request), body.requestId!), log)
      if (first instanceof Response) return first
      if (!first) return problem(409, 'REQUEST_ALREADY_APPLIED', `Request ${body.requestId} was already taken (a retry whose first try arrived); nothing was done again.`)
    }
    if (body.conversation) {
      const begun = await storeCall(
        () =>
          conversations.begin(ownedBy(body.conversation!, caller), {
            ...(body.requestId !== undefined && { requestId: body.requestId }),
            ...(body.conversationRevision !== undefined && { knownRevision: body.conversationRevision }),
            ...(body.replaceLastTurn && { replaceLastTurn: true }),
            onNew: () => perClient.admit(clientKey(request), body.conversation!.id),
          }),
        log,
      )
      if (begun instanceof Response) return begun
      if (begun === 'forbidden') {
        return problem(403, 'CONVERSATION_FORBIDDEN', `Conversation ${body.conversation.id} belongs to another secret. Start a new conversation (a new random id).`)
      }
      if (begun === 'moved on') {
        return problem(
          409,
          'CONVERSATION_MOVED_ON',
          `Conversation ${body.conversation.id} changed since this page last saw it (another tab or window, or a call that finished on the server); nothing was done. Restore it (GET ?conversation=<id>) and act on what is there.`,
        )
      }
      if (begun === 'turn still open') {
        return problem(
          409,
          'TURN_STILL_OPEN',
          `The last turn of conversation ${body.conversation.id} has a tool call still running or waiting for an answer; it cannot be replaced. Answer or cancel it first; nothing was changed.`,
        )
      }
      if (begun === 'already applied') {
        return problem(
          409,
          'REQUEST_ALREADY_APPLIED',
          `Request ${body.requestId} was already taken in conversation ${body.conversation.id} (a retry whose first try arrived); nothing was done again. Restore the conversation (GET ?conversation=<id>) to see what it did.`,
        )
      }
      recorder = begun
      const said = userText(body)
      if (said !== undefined) recorder.record({ type: 'user_message', text: said, at: clock.now() })
    }
    const encoder = new TextEncoder()
    const stop = new AbortController()
    // A client that leaves stops the turn, whichever adapter notices first (signal or cancel).
    request.signal.addEventListener('abort', () => stop.abort(), { once: true })
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true
        // After the client left, events go nowhere (enqueueing into a cancelled stream would throw).
        const send = (event: ChatStreamEvent) => {
          if (open && !stop.signal.aborted) controller.enqueue(encoder.encode(encodeChatEvent(event)))
        }
        const emit = (event: ChatStreamEvent) => {
          recorder?.record(event)
          send(event)
        }
        /** Saved, then sent. A conversation that cannot be saved does not hide the call from the page showing it: said, and sent all the same. */
        const emitSaved = async (event: ChatStreamEvent, messages: readonly McpMessage[]) => {
          try {
            await recorder?.save(event, messages)
          } catch (error) {
            const said = forClient(error, `the conversation could not be saved before a ${event.type} was shown`, log)
            send({ type: 'error', code: said.code, message: `The conversation could not be saved. ${said.message}` })
          }
          send(event)
        }
        // The turn: an agent invocation in OpenTelemetry's GenAI terms (the model and its tools, in a loop).
        const turn = startSpan('invoke_agent mcp-bridge', {
          kind: 'server',
          attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'mcp-bridge', 'gen_ai.conversation.id': body.conversation?.id },
        })
        try {
          // Active while the turn runs: its log lines carry its trace, and a model library's spans nest under it.
          const context = {
            ...(turn.traceparent !== undefined && { traceParent: turn.traceparent }),
            model: options.model,
            logger: log,
            tools,
            calls,
            limits,
            client,
            ...(caller && { caller }),
            ...(body.conversation && { conversationId: body.conversation.id }),
            emit,
            emitSaved,
            signal: stop.signal,
            ...(recorder && { checkpoint: recorder.checkpoint, revision: recorder.revision }),
            ...(options.system && { system: options.system }),
          }
          await turn.active(() => runTurn(context, body))
        } catch (error) {
          turn.fail(error)
          emit({ type: 'error', ...forClient(error, 'a chat turn failed', log) })
        } finally {
          turn.end()
          open = false
          controller.close()
        }
      },
      cancel() {
        // The client went away: stop talking to the model; waiting calls stay, to be answered later.
        stop.abort()
      },
    })
    return new Response(stream, { headers: { 'content-type': NDJSON_CONTENT_TYPE, 'cache-control': 'no-store' } })
  }

  /** `GET ?conversation=<id>` with `Authorization: Bearer <secret>`: the conversation, for a reload. */
  async function restore(request: Request, caller: CallerAuth | undefined): Promise<Response> {
    const key = conversationKeyOf(request, 'GET on the chat endpoint restores a conversation')
    if (key instanceof Response) return key
    // A restore's work grows with the conversation: counted after (its size is known then), waited off before the next.
    const client = clientKey(request)
    const spent = bytes.admit(client, 1)
    if (spent) return spent
    const snapshot = await storeCall(() => conversations.snapshot(ownedBy(key, caller)), log)
    if (snapshot instanceof Response) return snapshot
    if (!snapshot) return notFound(key.id)
    const text = JSON.stringify({ ...snapshot, events: withLiveProgress(snapshot.events, calls) })
    bytes.charge(client, text.length)
    return new Response(text, { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } })
  }

  /**
   * `DELETE ?conversation=<id>` with the secret: the conversation is forgotten, and calls of it
   * still waiting for an answer are cancelled (their `finally` runs) — nobody could answer them.
   */
  async function forget(request: Request, caller: CallerAuth | undefined): Promise<Response> {
    const key = conversationKeyOf(request, 'DELETE on the chat endpoint deletes a conversation')
    if (key instanceof Response) return key
    const deleted = await storeCall(() => conversations.delete(ownedBy(key, caller)), log)
    if (deleted instanceof Response) return deleted
    if (!deleted) return notFound(key.id)
    for (const call of deleted.calls) await calls.abort(call.callId, call.token, 'the conversation was deleted', { ...(caller && { caller }) }).catch(() => undefined)
    return new Response(null, { status: 204 })
  }

  /** The conversation key of a GET or DELETE: the id in the query, the secret as a Bearer token. */
  function conversationKeyOf(request: Request, what: string): ConversationKey | Response {
    const id = new URL(request.url).searchParams.get('conversation')
    if (id === null) return problem(400, 'CONVERSATION_ID_MISSING', `${what}: add ?conversation=<id>.`)
    const secret = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (secret === undefined) {
      return problem(401, 'CONVERSATION_SECRET_MISSING', "Send the conversation's secret as the header `Authorization: Bearer <secret>`.")
    }
    const key = conversationKeySchema.safeParse({ id, secret })
    if (!key.success) return problem(400, 'INVALID_CONVERSATION_KEY', `Not a conversation key: ${formatIssues(summarizeIssues(key.error.issues))}`)
    return key.data
  }

  return Object.assign(handle, {
    calls,
    clientKey,
    devtools: createChatDevtools({ calls, store, tools, model: options.model }),
    close: () => calls.close('the chat server closed'),
  })
}

function notFound(id: string): Response {
  return problem(404, 'CONVERSATION_NOT_FOUND', `No conversation ${id} with this secret (it was never saved, or expired: limits.conversationTtlMs).`)
}

/** A store that cannot be reached is the server's problem, said as such (503), not a crash. */
async function storeCall<T>(read: () => Promise<T>, log?: ErrorLog): Promise<T | Response> {
  try {
    return await read()
  } catch (error) {
    const said = forClient(error instanceof McpBridgeError ? error : new StoreUnavailableError('conversation', 'its store', error), 'a conversation could not be read', log)
    return problem(503, said.code, `The conversation could not be read. ${said.message}`)
  }
}

/** The text of a request that starts a turn from a new user message (not an answer or an abort). */
function userText(body: ChatRequestBody): string | undefined {
  if (body.elicitResponses?.length || body.abort) return undefined
  const last = body.messages[body.messages.length - 1]
  if (last?.role !== 'user') return undefined
  const text = last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n')
  return text || undefined
}

function problem(status: number, code: string, message: string, issues?: unknown): Response {
  return new Response(JSON.stringify({ code, message, ...(issues !== undefined && { issues }) }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

/**
 * A conversation key bound to the signed-in user: its secret, as stored and sealing the calls'
 * tokens, is derived from the user's id and the page's secret, so another user holding the id
 * and the secret finds no such conversation — nothing to read, write or delete. Without a
 * signed-in user the page's secret is used as it is.
 */
function ownedBy(key: ConversationKey, caller: CallerAuth | undefined): ConversationKey {
  if (caller?.subject === undefined) return key
  const secret = createHash('sha256').update('mcp-bridge conversation owner\0').update(caller.subject).update('\0').update(key.secret).digest('base64url')
  return { ...key, secret }
}
