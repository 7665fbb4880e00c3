/**
 * MCP Tasks from the client's side, for tests: raw JSON-RPC requests at protocol 2026-07-28 over
 * Streamable HTTP (the headers a requester sends, JSON or SSE answers read back), polling a task,
 * and the official requester — `@modelcontextprotocol/ext-tasks` on the SDK v2 client — with its
 * raw path wired to the same requests.
 */
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from '@modelcontextprotocol/client'
import { createTaskSessionFromClient, type JsonRpcResponse } from '@modelcontextprotocol/ext-tasks/client'

export const TASKS = 'io.modelcontextprotocol/tasks'
const VERSION = '2026-07-28'

/** One JSON-RPC request over Streamable HTTP at 2026-07-28, as a requester's raw path sends it. */
export async function post(url: URL, method: string, params: Record<string, unknown>, options: { tasks?: boolean; client?: string } = {}): Promise<JsonRpcResponse> {
  return send(url, requestOf(method, params, options), options.client)
}

function requestOf(method: string, params: Record<string, unknown>, options: { tasks?: boolean }) {
  const caps: ClientCapabilities = { elicitation: { form: {} }, ...(options.tasks !== false && { extensions: { [TASKS]: {} } }) }
  return {
    jsonrpc: '2.0' as const,
    id: Math.floor(Math.random() * 1e9),
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': caps,
        ...(params._meta as object | undefined),
      },
    },
  }
}

type Message = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { code: number; message: string } }

/**
 * A `subscriptions/listen` stream at 2026-07-28, read as it comes: `next` waits for a message that
 * matches, `ended` settles when the server ends the stream. A refusal is the JSON-RPC error.
 */
export async function listen(url: URL, notifications: Record<string, unknown>, options: { tasks?: boolean; client?: string } = {}) {
  const body = requestOf('subscriptions/listen', { notifications }, options)
  const stop = new AbortController()
  const response = await fetch(url, {
    method: 'POST',
    signal: stop.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': 'subscriptions/listen',
      ...(options.client && { 'x-test-client': options.client }),
    },
    body: JSON.stringify(body),
  })
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return { refused: ((await response.json()) as Message).error! }
  const messages: Message[] = []
  let wake = () => {}
  const ended = (async () => {
    const decoder = new TextDecoder()
    let buffered = ''
    for await (const chunk of response.body! as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true })
      const frames = buffered.split('\n\n')
      buffered = frames.pop()!
      for (const frame of frames) {
        const data = frame.split('\n').find((line) => line.startsWith('data:'))
        if (data) messages.push(JSON.parse(data.slice(5)) as Message)
      }
      wake()
    }
  })()
    .catch(() => {})
    .finally(() => wake())
  let done = false
  void ended.then(() => (done = true))
  return {
    refused: undefined,
    id: body.id,
    messages,
    ended,
    /** The first message from `from` on that matches (10 s at most). */
    async next(matches: (message: Message) => boolean, from = 0): Promise<Message> {
      const deadline = Date.now() + 10_000
      for (;;) {
        const found = messages.slice(from).find(matches)
        if (found) return found
        if (done || Date.now() > deadline) throw new Error(`no such message on the listen stream; it had: ${JSON.stringify(messages).slice(0, 1500)}`)
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => stop.abort(),
  }
}

export async function send(url: URL, body: { jsonrpc: '2.0'; id: unknown; method: string; params?: Record<string, unknown> }, client?: string): Promise<JsonRpcResponse> {
  const params = body.params ?? {}
  const name = body.method === 'tools/call' ? params.name : body.method.startsWith('tasks/') ? params.taskId : undefined
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': body.method,
      ...(typeof name === 'string' && { 'mcp-name': name }),
      ...(client && { 'x-test-client': client }),
    },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  const messages = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)))
    : [JSON.parse(text)]
  const message = messages.find((m: { id?: unknown }) => m.id === body.id)
  if (!message) throw new Error(`no response to ${body.method} (HTTP ${response.status}): ${text.slice(0, 500)}`)
  return message.error ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result }
}

export function resultOf(response: JsonRpcResponse): Record<string, unknown> {
  if (response.kind === 'error') throw new Error(`JSON-RPC error ${response.error.code}: ${response.error.message}`)
  return response.result as Record<string, unknown>
}

/** An ack as the extension shapes it: nothing but `resultType` (the SDK's `_meta.serverInfo` aside). */
export function ack(response: JsonRpcResponse): Record<string, unknown> {
  const { _meta, ...rest } = resultOf(response)
  return rest
}

export async function pollUntil(url: URL, taskId: string, done: (task: Record<string, unknown>) => boolean, client?: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const task = resultOf(await post(url, 'tasks/get', { taskId }, client ? { client } : {}))
    if (done(task)) return task
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`task ${taskId} did not get there in 10 s`)
}

/** The official requester: an SDK v2 client that opts into tasks, under `createTaskSessionFromClient`. */
export interface RequesterOptions {
  /**
   * How long a request whose connection failed (its server died) is sent again, to the same URL,
   * as a requester that keeps its task ids does (default: not at all). Only task methods are:
   * a `tools/call` sent twice could start a second task.
   */
  retryTaskMethodsForMs?: number
}

type ElicitReply = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }

export async function requester(url: URL, onElicit: (params: Record<string, unknown>) => ElicitReply | Promise<ElicitReply>, options: RequesterOptions = {}) {
  const capabilities = { elicitation: { form: {} }, sampling: {}, extensions: { [TASKS]: {} } } as ClientCapabilities
  const clientInfo = { name: 'ext-tasks-test', version: '1.0.0' }
  const client = new Client(clientInfo, { capabilities, versionNegotiation: { mode: { pin: VERSION } } })
  await client.connect(new StreamableHTTPClientTransport(url))
  const seen: Array<{ kind: string; params: Record<string, unknown>; delivery: string }> = []
  const session = createTaskSessionFromClient(client, {
    endpointId: 'tasks-test',
    rawDispatch: async (request) => {
      const body = { jsonrpc: '2.0' as const, id: Math.floor(Math.random() * 1e9), ...(request as { method: string; params?: Record<string, unknown> }) }
      const deadline = Date.now() + (body.method.startsWith('tasks/') ? (options.retryTaskMethodsForMs ?? 0) : 0)
      for (;;) {
        try {
          return await send(url, body)
        } catch (error) {
          if (Date.now() > deadline) throw error
          await new Promise((r) => setTimeout(r, 100))
        }
      }
    },
    v2RequestFraming: { protocolVersion: VERSION, clientInfo, clientCapabilities: capabilities as Record<string, never> },
    onInputRequest: async (request, context) => {
      const params = request.params as Record<string, unknown>
      seen.push({ kind: request.kind, params, delivery: context.delivery })
      // A model's reply, for a tool that samples: plain text.
      if (request.kind === 'sampling') return { model: 'scripted', role: 'assistant', content: { type: 'text', text: 'A fine choice.' } } as never
      return (await onElicit(params)) as never
    },
  })
  return {
    seen,
    session,
    close: async () => {
      await session.close()
      await client.close()
    },
  }
}
