/**
 * The view's end of the MCP Apps protocol (`io.modelcontextprotocol/ui`, SEP-1865): JSON-RPC 2.0
 * over `postMessage` with the host window. A view needs only a little of it — the `ui/initialize`
 * handshake, the tool's input and result notifications, `tools/call` proxied to the server,
 * size changes, teardown — so it is spoken here in a page of code instead of through ext-apps'
 * `App`, which brings the whole MCP client package (not tree-shakable) and would add ~35 kB gzip
 * to every view. Conformance is checked against ext-apps' own host side (`AppBridge`) in the tests.
 */
import type { ViewHost } from './app-view-session.ts'
import { McpAppHostError } from '../errors/browser-errors.ts'

/** The revision of the MCP Apps protocol this view speaks (ext-apps' LATEST_PROTOCOL_VERSION; a test keeps them equal). */
export const MCP_APPS_PROTOCOL_VERSION = '2026-01-26'

/**
 * What an MCP Apps host tells its view about where it is shown (the tool call, the theme, …).
 */
export interface HostContext {
  toolInfo?: { id?: string | number; tool?: { name?: string } }
  theme?: 'light' | 'dark'
  [key: string]: unknown
}

/**
 * The tool call's result as an MCP Apps host sends it to the view.
 */
export interface ToolResultNotice {
  isError?: boolean
  content?: ReadonlyArray<{ type: string; text?: string }>
  structuredContent?: unknown
}

/**
 * What `connectToHost` takes: the view's name and version and what to do when the host sends the call's input, its result, a cancellation, a teardown or a new context.
 */
export interface HostLinkOptions {
  appInfo: { name: string; version: string }
  onToolInput(args: Record<string, unknown>): void
  onToolResult(result: ToolResultNotice): void
  onToolCancelled(reason: string | undefined): void
  onTeardown(): void
  onContextChanged?(context: HostContext): void
  /** The host window; default `window.parent`. */
  host?: Window
}

export interface HostLink extends ViewHost {
  readonly hostContext: HostContext
  close(): void
}

type Message = { jsonrpc: '2.0'; id?: string | number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { code: number; message: string } }

/**
 * Connects an MCP Apps view to its host (the `ui/initialize` handshake over `postMessage`): the link calls the
 * server's tools through the host and hears the call's input, result and teardown.
 *
 * @example
 * ```ts
 * import { connectToHost } from '@mcp-bridge/runtime/app-view'
 *
 * const link = await connectToHost({
 *   appInfo: { name: 'my-view', version: '1.0.0' },
 *   onToolInput: (args) => console.log('called with', args),
 *   onToolResult: (result) => console.log('done', result.isError),
 *   onToolCancelled: () => {},
 *   onTeardown: () => link.close(),
 * })
 * ```
 */
export async function connectToHost(options: HostLinkOptions): Promise<HostLink> {
  const host = options.host ?? window.parent
  const pending = new Map<string | number, { resolve(value: unknown): void; reject(error: Error): void }>()
  let nextId = 1
  let context: HostContext = {}
  const post = (message: Message) => host.postMessage(message, '*')

  function request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = nextId++
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject })
      post({ jsonrpc: '2.0', id, method, params })
    })
  }

  function onRequest(message: Message): void {
    const respond = (result: unknown) => post({ jsonrpc: '2.0', id: message.id!, result })
    if (message.method === 'ui/resource-teardown') {
      options.onTeardown()
      return respond({})
    }
    if (message.method === 'ping') return respond({})
    post({ jsonrpc: '2.0', id: message.id!, error: { code: -32601, message: `This view does not handle "${String(message.method)}".` } })
  }

  function onNotification(message: Message): void {
    const params = message.params ?? {}
    switch (message.method) {
      case 'ui/notifications/tool-input':
        return options.onToolInput((params.arguments as Record<string, unknown> | undefined) ?? {})
      case 'ui/notifications/tool-result':
        return options.onToolResult(params as ToolResultNotice)
      case 'ui/notifications/tool-cancelled':
        return options.onToolCancelled(typeof params.reason === 'string' ? params.reason : undefined)
      case 'ui/notifications/host-context-changed':
        context = { ...context, ...params }
        return options.onContextChanged?.(context)
    }
  }

  const listener = (event: MessageEvent) => {
    if (event.source !== host) return
    const message = event.data as Message
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return
    if (message.method !== undefined) return message.id !== undefined ? onRequest(message) : onNotification(message)
    const waiter = message.id === undefined ? undefined : pending.get(message.id)
    if (!waiter) return
    pending.delete(message.id!)
    if (message.error) waiter.reject(new McpAppHostError(`the host could not pass it on to the server (${message.error.message})`))
    else waiter.resolve(message.result)
  }
  window.addEventListener('message', listener)

  const initialized = (await request('ui/initialize', {
    appInfo: options.appInfo,
    appCapabilities: {},
    protocolVersion: MCP_APPS_PROTOCOL_VERSION,
  })) as { hostContext?: HostContext } | undefined
  context = initialized?.hostContext ?? {}
  post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} })
  const stopResizing = reportSize((params) => post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params }))

  return {
    get hostContext() {
      return context
    },
    callServerTool: (params) => request('tools/call', params) as ReturnType<ViewHost['callServerTool']>,
    close() {
      stopResizing()
      window.removeEventListener('message', listener)
      for (const waiter of pending.values()) waiter.reject(new McpAppHostError('The view closed.'))
      pending.clear()
    },
  }
}

/** Tell the host the content's size whenever it changes, at most once a frame, so it can fit the frame to it. */
function reportSize(send: (size: { width: number; height: number }) => void): () => void {
  let queued = false
  let last = { width: 0, height: 0 }
  const measure = () => {
    if (queued) return
    queued = true
    requestAnimationFrame(() => {
      queued = false
      const root = document.documentElement
      const previous = root.style.height
      root.style.height = 'max-content'
      const height = Math.ceil(root.getBoundingClientRect().height)
      root.style.height = previous
      const width = Math.ceil(window.innerWidth)
      if (width === last.width && height === last.height) return
      last = { width, height }
      send(last)
    })
  }
  measure()
  const observer = new ResizeObserver(measure)
  observer.observe(document.documentElement)
  observer.observe(document.body)
  return () => observer.disconnect()
}
