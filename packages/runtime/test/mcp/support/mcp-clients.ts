/**
 * Official SDK clients of both protocol generations, connected to a `createMcpServer` in memory
 * (through the server's own `listen({ transport })`, the stdio entry) or over Streamable HTTP on
 * 127.0.0.1. They answer elicitations and sampling from a script and record everything they
 * receive, in order.
 */
import { createServer, type Server as HttpServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitRequestFormParams,
  type ElicitResult,
} from '@modelcontextprotocol/client'
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio'
import type { BridgeMcpServer, McpHttpOptions } from '../../../src/mcp.ts'

export type Generation = '2025-11-25' | '2026-07-28'
export const GENERATIONS: readonly Generation[] = ['2025-11-25', '2026-07-28']

export type Received =
  | { kind: 'elicit'; params: ElicitRequestFormParams }
  | { kind: 'sample'; params: CreateMessageRequestParams }
  | { kind: 'log'; level: string; data: unknown }
  | { kind: 'progress'; progress: number; total?: number; message?: string }

export type ElicitAnswer = (params: ElicitRequestFormParams) => ElicitResult | Promise<ElicitResult>
export type SampleAnswer = (params: CreateMessageRequestParams) => CreateMessageResult | CreateMessageResultWithTools | Promise<CreateMessageResult | CreateMessageResultWithTools>

export interface ScriptedClient {
  readonly client: Client
  readonly generation: Generation
  readonly received: Received[]
  /** Resolves once something matching `predicate` has been received (at once if it already was). */
  receivedWhere(predicate: (r: Received) => boolean): Promise<Received>
  /** Answers, used in order; running out is a test failure the tool sees as a client error. */
  readonly elicitAnswers: ElicitAnswer[]
  readonly sampleAnswers: SampleAnswer[]
  call(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>
  close(): Promise<void>
}

export interface ConnectOptions {
  capabilities?: ClientCapabilities
  /** Default: in memory. */
  http?: URL
  /** Extra HTTP headers on every request (with `http`). */
  headers?: Record<string, string>
  /** The client transport's fetch (with `http`): to watch or break its connections. */
  fetch?: typeof fetch
  /** Spawn a stdio server instead (`server` is then unused). */
  stdio?: StdioServerParameters
}

export const FULL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {} }, sampling: { tools: {} } }

export async function connectClient(server: BridgeMcpServer | undefined, generation: Generation, options: ConnectOptions = {}): Promise<ScriptedClient> {
  // Every receipt goes through `record`, which also wakes whoever waits for it.
  const received: Received[] = []
  const waiters: Array<{ predicate: (r: Received) => boolean; resolve: (r: Received) => void }> = []
  const record = (item: Received): void => {
    received.push(item)
    for (const w of waiters.filter((w) => w.predicate(item))) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve(item)
    }
  }
  const elicitAnswers: ElicitAnswer[] = []
  const sampleAnswers: SampleAnswer[] = []
  const capabilities = options.capabilities ?? FULL_CAPABILITIES
  const client = new Client(
    { name: `test-client-${generation}`, version: '1.0.0' },
    {
      capabilities,
      ...(generation === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
    },
  )
  if (capabilities.elicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as ElicitRequestFormParams
      record({ kind: 'elicit', params })
      const answer = elicitAnswers.shift()
      if (!answer) throw new Error(`the test script has no answer for elicitation "${params.message.split('\n')[0]}"`)
      return answer(params)
    })
  }
  if (capabilities.sampling) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      record({ kind: 'sample', params: request.params })
      const answer = sampleAnswers.shift()
      if (!answer) throw new Error('the test script has no answer for a sampling request')
      return answer(request.params) as never
    })
  }
  client.setNotificationHandler('notifications/message', (n) => record({ kind: 'log', level: n.params.level, data: n.params.data }))

  let close: () => Promise<void>
  if (options.stdio) {
    await client.connect(new StdioClientTransport(options.stdio))
    close = () => client.close()
  } else if (options.http) {
    await client.connect(
      new StreamableHTTPClientTransport(options.http, {
        ...(options.headers && { requestInit: { headers: options.headers } }),
        ...(options.fetch && { fetch: options.fetch }),
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 2, maxRetries: 5 },
      }),
    )
    close = () => client.close()
  } else {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    if (!server) throw new Error('connectClient: pass a server, or options.http / options.stdio')
    const handle = server.listen({ transport: serverSide })
    await client.connect(clientSide)
    close = async () => {
      await client.close()
      await handle.close()
    }
  }

  return {
    client,
    generation,
    received,
    receivedWhere: (predicate) => {
      const seen = received.find(predicate)
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ predicate, resolve }))
    },
    elicitAnswers,
    sampleAnswers,
    call: (name, args = {}, callOptions = {}) =>
      client.callTool(
        // 2026-07-28 clients opt into log messages per request.
        { name, arguments: args, ...(generation === '2026-07-28' && { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } }) },
        {
          timeout: 30_000,
          onprogress: (p) =>
            record({ kind: 'progress', progress: p.progress, ...(p.total !== undefined && { total: p.total }), ...(p.message !== undefined && { message: p.message }) }),
          ...(callOptions.signal && { signal: callOptions.signal }),
        },
      ) as Promise<CallToolResult>,
    close,
  }
}

/** `server.createHandler(options)` on 127.0.0.1 at a free port (default options: loopback hosts and origins only). */
export async function serveHttp(server: BridgeMcpServer, options: McpHttpOptions = {}): Promise<{ url: URL; close: () => Promise<void> }> {
  const handler = server.createHandler(options)
  const http: HttpServer = createServer((req, res) => void handler.node(req, res))
  await new Promise<void>((ready) => http.listen(0, '127.0.0.1', ready))
  const { port } = http.address() as AddressInfo
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      await handler.close()
      http.closeAllConnections()
      await new Promise((done) => http.close(done))
    },
  }
}

export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n')
}

export const accept =
  (content: Record<string, unknown>): ElicitAnswer =>
  () => ({ action: 'accept', content: content as ElicitResult['content'] })
