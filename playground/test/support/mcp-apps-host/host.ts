/**
 * A minimal MCP Apps host page, on ext-apps' own host side (`AppBridge`): it renders a view's HTML
 * in a sandboxed iframe (scripts only: an opaque origin, no network of its own) and forwards the
 * view's requests to the MCP client, which lives in the test process (`hostCallTool`,
 * `hostReadResource`, exposed by Playwright). The test drives the tools/call itself and hands its
 * result to the view with `deliverResult`, as a host does when the call ends.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'

interface HostWindow {
  hostCallTool(params: unknown): Promise<never>
  hostReadResource(params: unknown): Promise<never>
  startView(html: string, tool: string, args: Record<string, unknown>): Promise<void>
  deliverResult(result: unknown): Promise<void>
}
const host = window as unknown as Window & HostWindow
let bridge: AppBridge | undefined

host.startView = async (html, tool, args) => {
  const iframe = document.createElement('iframe')
  iframe.setAttribute('sandbox', 'allow-scripts')
  iframe.title = `${tool} view`
  iframe.style.cssText = 'display:block;width:100%;height:420px;border:1px solid #d1d5db;border-radius:12px;background:#fff'
  document.getElementById('conversation')!.append(iframe)
  bridge = new AppBridge(
    null,
    { name: 'mcp-bridge test host', version: '1.0.0' },
    { serverTools: {}, serverResources: {}, logging: {} },
    { hostContext: { theme: 'light', displayMode: 'inline', toolInfo: { tool: { name: tool, inputSchema: { type: 'object' } } } } },
  )
  bridge.oncalltool = (params) => host.hostCallTool(params)
  bridge.onreadresource = (params) => host.hostReadResource(params)
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${Math.min(Math.max(height, 120), 900)}px`
  }
  const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()))
  // Listening before the view's script runs: its first message is ui/initialize.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!))
  iframe.srcdoc = html
  await initialized
  await bridge.sendToolInput({ arguments: args })
}

host.deliverResult = async (result) => {
  await bridge!.sendToolResult(result as never)
}
