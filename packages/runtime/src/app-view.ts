/**
 * @mcp-bridge/runtime/app-view — a plugin's UI as an MCP Apps view (`io.modelcontextprotocol/ui`).
 * The Vite plugin builds one self-contained HTML per plugin around `mountMcpAppView(plugin.client)`
 * (`mcpBridge({ apps: true })`); you rarely call it yourself. It speaks to the host with ext-apps'
 * `App` over postMessage, and to its tool call through the server's app-only tools.
 */
import { App } from '@modelcontextprotocol/ext-apps'
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { createAppViewSession } from './client/app-view-session.ts'
import { createEmissionStore } from './client/emission-store.ts'
import { McpBridgeError } from './errors/mcp-bridge-error.ts'
import type { PluginClientRegistration } from './plugin/types.ts'
import { McpAppView } from './react/mcp-app-view.tsx'

export { createAppViewSession } from './client/app-view-session.ts'
export type { AppViewSession, ViewHost, ViewStatus } from './client/app-view-session.ts'
export { McpAppView } from './react/mcp-app-view.tsx'

export class McpAppViewMountError extends McpBridgeError {
  readonly code = 'MCP_APP_VIEW_MOUNT_FAILED'
}

export interface MountMcpAppViewOptions {
  /** Where to render; default `#root`, created if missing. */
  root?: HTMLElement
  /** Shown above the question (default: none; the host already names the tool). */
  title?: string
}

/** Connect to the host, render the plugin's questions for the call this view belongs to, and follow it to its end. */
export async function mountMcpAppView(plugin: PluginClientRegistration, options: MountMcpAppViewOptions = {}): Promise<App> {
  if (plugin?.kind !== 'mcp-plugin-client') {
    throw new McpAppViewMountError("mountMcpAppView takes a plugin's client part: makePlugin(tool).onElicit({...}).build().client")
  }
  const app = new App({ name: `${plugin.toolName} view`, version: '1.0.0' }, {}, { autoResize: true })
  const store = createEmissionStore()
  const session = createAppViewSession({ host: app, plugin, store })
  // Handlers before connecting: the host may send the tool input right after the handshake.
  app.ontoolinput = ({ arguments: args }) => session.start(args ?? {}, app.getHostContext()?.toolInfo?.id)
  app.ontoolresult = (result) => {
    const text = (result.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('')
    session.finished({ isError: result.isError === true, text })
  }
  app.ontoolcancelled = () => session.finished({ isError: true, text: 'the call was cancelled' })
  app.onteardown = async () => {
    session.stop()
    return {}
  }
  const root = options.root ?? document.getElementById('root') ?? document.body.appendChild(Object.assign(document.createElement('div'), { id: 'root' }))
  createRoot(root).render(createElement(McpAppView, { session, store, ...(options.title !== undefined && { title: options.title }) }))
  await app.connect()
  return app
}
