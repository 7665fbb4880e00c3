/**
 * `createChatHandler({ tools, model, limits? })`: a fetch-style handler `(Request) => Promise<Response>`
 * that validates the body and streams the turn as newline-delimited JSON events. Bad input is a
 * 4xx with a message that names the problem; nothing is half-applied and existing calls are
 * unaffected.
 */
import { z } from 'zod'
import { CallRegistry } from '../calls/call-registry.ts'
import { callStoreOption } from '../calls/stores/store-option.ts'
import type { CallStore } from '../calls/stores/call-store.ts'
import { MAX_JSON_DEPTH } from '../context/json-safe.ts'
import { exceedsJsonBounds } from '../schema/json-schema.ts'
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { formatIssues, summarizeIssues } from '../errors/issues.ts'
import { defaultClientKey, type ClientKey } from '../http/client-address.ts'
import { foreignRequestProblem, resolveRequestOrigin, type RequestOriginOptions } from '../http/request-origin.ts'
import { collectTools } from '../plugin/collect-tools.ts'
import type { McpPlugin } from '../plugin/types.ts'
import { chatRequestBodySchema, NDJSON_CONTENT_TYPE, type ChatStreamEvent } from '../protocol/chat-wire.ts'
import { encodeChatEvent } from '../protocol/codec.ts'
import type { AnyMcpTool } from '../tool/mcp-tool.ts'
import { DEFAULT_LIMITS, runTurn, type ChatLimits } from './engine.ts'
import type { ChatModel } from './model.ts'

export interface ChatHandlerOptions extends RequestOriginOptions {
  /**
   * Who a request is from, for `limits.maxCallsPerClient`. Default: the remote address the Node
   * adapter saw (`toNodeListener`, `chatMiddleware`); behind a proxy or on a fetch-only runtime,
   * derive it from something you trust (a session, a verified header).
   */
  clientKey?: ClientKey
  /** Tools and plugins (a plugin contributes its tool). */
  tools: ReadonlyArray<AnyMcpTool | McpPlugin>
  model: ChatModel
  limits?: Partial<ChatLimits>
  /** A system prompt for the model. */
  system?: string
  /**
   * Where tool calls are recorded so they survive restarts and can be answered on any instance
   * (see "Durable calls" in the README): `createSqliteStore` for one server, `createRedisStore`
   * for several. Default: this process's memory. The handler does not close it.
   */
  store?: CallStore
}

export interface ChatHandler {
  (request: Request): Promise<Response>
  /** The tool calls this handler holds (waiting for users, or running). */
  readonly calls: CallRegistry<undefined>
  /** Abort every call (server shutdown). */
  close(): Promise<void>
}

/** A body is a few levels of protocol around JSON data (tool inputs, results) of at most MAX_JSON_DEPTH. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH + 8

export class ChatHandlerOptionsError extends McpBridgeError {
  readonly code = 'CHAT_HANDLER_OPTIONS_INVALID'
}

const positive = z.number().int().positive()
const optionsSchema = z
  .object({
    tools: z.unknown(),
    model: z.custom<ChatModel>((m) => typeof (m as ChatModel | undefined)?.stream === 'function', {
      message: 'takes a ChatModel: fromAiSdk(provider(...)), or createScriptedModel(...) from @mcp-bridge/runtime/testing',
    }),
    limits: z
      .object({
        maxBodyBytes: positive,
        maxContextBytes: positive,
        maxSteps: positive.max(100),
        maxActiveCalls: positive,
        maxCallsPerClient: positive,
        // A timer cannot wait longer than 2^31 - 1 ms; a day is plenty for a person.
        idleTimeoutMs: z.number().int().min(1000, 'at least 1000 ms; a person needs time to answer').max(24 * 3600_000, 'at most a day (86400000 ms)'),
      })
      .partial()
      .strict()
      .optional(),
    system: z.string().optional(),
    clientKey: z.function().optional(),
    allowedHosts: z.unknown().optional(),
    allowedOrigins: z.unknown().optional(),
    store: callStoreOption.optional(),
  })
  .strict()

export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new ChatHandlerOptionsError(`createChatHandler: invalid options:\n${formatIssues(summarizeIssues(checked.error.issues), 'list', '(options)')}`)
  }
  const tools = collectTools(options.tools, 'createChatHandler({ tools })')
  const limits: ChatLimits = { ...DEFAULT_LIMITS, ...(checked.data.limits as Partial<ChatLimits> | undefined) }
  const origin = resolveRequestOrigin(options, 'createChatHandler')
  const clientKey = options.clientKey ?? defaultClientKey
  const calls = new CallRegistry<undefined>({
    idleTimeoutMs: limits.idleTimeoutMs,
    maxCalls: limits.maxActiveCalls,
    maxCallsOption: 'limits.maxActiveCalls',
    maxCallsPerClient: limits.maxCallsPerClient,
    maxCallsPerClientOption: 'limits.maxCallsPerClient',
    idleTimeoutOption: 'limits.idleTimeoutMs',
    surface: 'chat',
    ...(options.store && { store: options.store }),
  })

  async function handle(request: Request): Promise<Response> {
    const foreign = foreignRequestProblem(request, origin)
    if (foreign) return problem(403, 'FORBIDDEN_ORIGIN', foreign)
    if (request.method !== 'POST') return problem(405, 'METHOD_NOT_ALLOWED', `Use POST for the chat endpoint (got ${request.method}).`)
    const type = request.headers.get('content-type') ?? ''
    if (!/^application\/json\b/i.test(type)) {
      return problem(415, 'UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json (got ${type || 'no content type'}).`)
    }
    const text = await readLimited(request, limits.maxBodyBytes)
    if (text === undefined) {
      return problem(413, 'BODY_TOO_LARGE', `The request body is larger than ${limits.maxBodyBytes} bytes (limits.maxBodyBytes).`)
    }
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
    const client = clientKey(request)
    const encoder = new TextEncoder()
    const stop = new AbortController()
    // A client that leaves stops the turn, whichever adapter notices first (signal or cancel).
    request.signal.addEventListener('abort', () => stop.abort(), { once: true })
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true
        // After the client left, events go nowhere (enqueueing into a cancelled stream would throw).
        const emit = (event: ChatStreamEvent) => {
          if (open && !stop.signal.aborted) controller.enqueue(encoder.encode(encodeChatEvent(event)))
        }
        try {
          await runTurn({ model: options.model, tools, calls, limits, client, emit, signal: stop.signal, ...(options.system && { system: options.system }) }, body)
        } catch (error) {
          emit({ type: 'error', code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) })
        } finally {
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

  return Object.assign(handle, { calls, close: () => calls.close('the chat server closed') })
}

async function readLimited(request: Request, max: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > max) return undefined
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > max) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return new TextDecoder().decode(Buffer.concat(chunks))
}

function problem(status: number, code: string, message: string, issues?: unknown): Response {
  return new Response(JSON.stringify({ code, message, ...(issues !== undefined && { issues }) }), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}
