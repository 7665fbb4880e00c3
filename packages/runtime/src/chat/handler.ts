/**
 * `createChatHandler({ tools, model, sessions?, limits? })`: a fetch-style handler
 * `(Request) => Promise<Response>` that validates the body and streams the turn as
 * newline-delimited JSON events. Bad input is a 4xx with a message that names the problem;
 * nothing is half-applied and existing sessions are unaffected.
 */
import { isMcpPlugin } from '../plugin/make-plugin.ts'
import type { McpPlugin } from '../plugin/types.ts'
import { PluginSessionManager, type PluginSessionManagerOptions } from '../session/plugin-session-manager.ts'
import { isMcpTool, type AnyMcpTool } from '../tool/mcp-tool.ts'
import { DEFAULT_LIMITS, runTurn, type ChatLimits } from './engine.ts'
import type { ChatModel } from './model.ts'
import { encodeNdjson } from './ndjson.ts'
import { chatRequestBodySchema, NDJSON_CONTENT_TYPE, type ChatStreamEvent } from './protocol.ts'

export interface ChatHandlerOptions {
  /** Tools and plugins (a plugin contributes its `server.tools`). */
  tools: ReadonlyArray<AnyMcpTool | McpPlugin>
  model: ChatModel
  /** A session manager to share, or its options. */
  sessions?: PluginSessionManager | PluginSessionManagerOptions
  limits?: Partial<ChatLimits & { maxActiveSessions: number; idleTimeoutMs: number }>
  /** A system prompt for the model. */
  system?: string
}

export interface ChatHandler {
  (request: Request): Promise<Response>
  readonly sessions: PluginSessionManager
  /** Abort every session (server shutdown). */
  close(): Promise<void>
}

export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const tools = toolMap(options.tools)
  const limits: ChatLimits = { ...DEFAULT_LIMITS, ...pickLimits(options.limits) }
  const sessions =
    options.sessions instanceof PluginSessionManager
      ? options.sessions
      : new PluginSessionManager({
          ...options.sessions,
          ...(options.limits?.maxActiveSessions !== undefined && { maxActiveSessions: options.limits.maxActiveSessions }),
          ...(options.limits?.idleTimeoutMs !== undefined && { idleTimeoutMs: options.limits.idleTimeoutMs }),
        })

  async function handle(request: Request): Promise<Response> {
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
    const parsed = chatRequestBodySchema.safeParse(json)
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }))
      return problem(400, 'INVALID_BODY', `The request body is not a chat request: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`, issues)
    }
    const body = parsed.data
    const encoder = new TextEncoder()
    const stop = new AbortController()
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let open = true
        const emit = (event: ChatStreamEvent) => {
          if (open) controller.enqueue(encoder.encode(encodeNdjson(event)))
        }
        try {
          await runTurn({ model: options.model, tools, sessions, limits, emit, signal: stop.signal, ...(options.system && { system: options.system }) }, body)
        } catch (error) {
          emit({ type: 'error', code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) })
        } finally {
          open = false
          controller.close()
        }
      },
      cancel() {
        // The client went away: stop talking to the model; sessions stay, to be answered later.
        stop.abort()
      },
    })
    return new Response(stream, { headers: { 'content-type': NDJSON_CONTENT_TYPE, 'cache-control': 'no-store' } })
  }

  return Object.assign(handle, { sessions, close: () => sessions.close() })
}

function toolMap(entries: ReadonlyArray<AnyMcpTool | McpPlugin>): Map<string, AnyMcpTool> {
  const map = new Map<string, AnyMcpTool>()
  for (const entry of entries) {
    const list = isMcpPlugin(entry) ? entry.server.tools : isMcpTool(entry) ? [entry] : undefined
    if (!list) throw new TypeError('createChatHandler({ tools }) takes tools (createMcpTool) and plugins (makePlugin().build())')
    for (const tool of list) {
      const existing = map.get(tool.name)
      if (existing && existing !== tool) throw new TypeError(`Two different tools are named "${tool.name}"; tool names must be unique`)
      map.set(tool.name, tool)
    }
  }
  return map
}

function pickLimits(limits: ChatHandlerOptions['limits']): Partial<ChatLimits> {
  const out: Partial<ChatLimits> = {}
  for (const key of ['maxBodyBytes', 'maxContextBytes', 'maxSteps'] as const) {
    const value = limits?.[key]
    if (value === undefined) continue
    if (!Number.isInteger(value) || value <= 0) throw new TypeError(`limits.${key} must be a positive whole number (got ${value})`)
    out[key] = value
  }
  return out
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
