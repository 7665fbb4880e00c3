/**
 * @mcp-bridge/runtime/app-view — a plugin's UI as an MCP Apps view (`io.modelcontextprotocol/ui`).
 * The Vite plugin builds one self-contained HTML per plugin around `mountMcpAppView(plugin.client)`
 * (`mcpBridge({ apps: true })`); you rarely call it yourself. It speaks to the host over
 * postMessage (`client/mcp-app-host-link.ts`), and to its tool call through the server's
 * app-only tools (`client/app-view-session.ts`).
 *
 * @module
 */
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppViewSession } from './client/app-view-session.ts'
import { createEmissionStore } from './client/emission-store.ts'
import { connectToHost, type HostLink } from './client/mcp-app-host-link.ts'
import type { PluginClientRegistration } from './plugin/types.ts'
import { McpAppView } from './react/mcp-app-view.tsx'
import { McpAppViewMountError } from './errors/browser-errors.ts'

export { createAppViewSession } from './client/app-view-session.ts'
export type { AppViewSession, ViewHost, ViewStatus } from './client/app-view-session.ts'
export { connectToHost, MCP_APPS_PROTOCOL_VERSION } from './client/mcp-app-host-link.ts'
export type { HostContext, HostLink, HostLinkOptions, ToolResultNotice } from './client/mcp-app-host-link.ts'
export { McpAppView } from './react/mcp-app-view.tsx'

/**
 * Where `mountMcpAppView` renders, and the title it shows above the question.
 */
export interface MountMcpAppViewOptions {
  /** Where to render; default `#root`, created if missing. */
  root?: HTMLElement
  /** Shown above the question (default: none; the host already names the tool). */
  title?: string
}

/**
 * Connect to the host, render the plugin's questions for the call this view belongs to, and follow it to its end.
 *
 * @example
 * ```ts
 * // the MCP Apps view entry the Vite plugin builds for a tool (`apps: true`)
 * import { mountMcpAppView } from '@mcp-bridge/runtime/app-view'
 * import plugin from './tools/book-flight/plugin.tsx'
 *
 * await mountMcpAppView(plugin.client, { title: 'Book a flight' })
 * ```
 */
export async function mountMcpAppView(plugin: PluginClientRegistration, options: MountMcpAppViewOptions = {}): Promise<HostLink> {
  if (plugin?.kind !== 'mcp-plugin-client') {
    throw new McpAppViewMountError("mountMcpAppView takes a plugin's client part: createPlugin(tool).onElicit({...}).build().client")
  }
  const store = createEmissionStore()
  let link: HostLink | undefined
  // The session calls the server through the link, which exists once the handshake is done;
  // the host sends the tool input only after it, so no call is made before.
  const session = createAppViewSession({ host: { callServerTool: (params) => link!.callServerTool(params) }, plugin, store })
  const textOf = (result: { content?: ReadonlyArray<{ type: string; text?: string }> }) =>
    (result.content ?? []).map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('')
  const root = options.root ?? document.getElementById('root') ?? document.body.appendChild(Object.assign(document.createElement('div'), { id: 'root' }))
  createRoot(root).render(createElement(McpAppView, { session, store, ...(options.title !== undefined && { title: options.title }) }))
  link = await connectToHost({
    appInfo: { name: `${plugin.toolName} view`, version: '1.0.0' },
    onToolInput: (args) => session.start(args, link?.hostContext.toolInfo?.id),
    onToolResult: (result) => session.finished({ isError: result.isError === true, text: textOf(result) }),
    onToolCancelled: (reason) => session.finished({ isError: true, text: reason ? `the call was cancelled: ${reason}` : 'the call was cancelled' }),
    onTeardown: () => session.stop(),
  })
  return link
}
