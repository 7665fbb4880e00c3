/**
 * The playground's server side, as the Vite plugin serves it (`mcpBridge({ server })`): the chat
 * at /api/chat and the same tools as an MCP endpoint at /mcp, on one durable store — in
 * `vite dev`, `vite preview` and the built `node dist/server/index.js`.
 */
// First: OpenTelemetry set up (when OTEL_EXPORTER_OTLP_ENDPOINT is set) before anything traces.
import './telemetry.ts'
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { createAppServer } from '@mcp-bridge/runtime/server'
import { appViews, serverPrompts, serverResources, serverTools } from '../mcp-bridge/server.gen.ts'
import { chat, store } from './chat.ts'

const mcp = createMcpServer({
  name: 'mcp-bridge-playground',
  version: '0.1.0',
  tools: serverTools,
  // Discovered like the tools: a prompt for clients' menus, a resource template of the demo's flights.
  prompts: serverPrompts,
  resources: serverResources,
  // Each plugin's UI as an MCP Apps view, in hosts that render them; other clients get forms.
  apps: { views: appViews },
  store,
  onError: (error) => console.error(`[mcp-bridge-playground] ${error.message}`),
})

export default createAppServer({
  chat,
  mcp: mcp.createHandler(),
  // After the chat and MCP handlers: calls that wait stay in the store for the next start.
  close: () => store.close(),
})
