/**
 * The playground's tools as an MCP server over stdio, for MCP Inspector or any desktop client
 * (either protocol generation). The tool list comes from the generated registry, as in the app.
 * stdout is the protocol channel: nothing else may print there.
 */
import { createMcpServer } from '@mcp-bridge/runtime/mcp'
import { appViews, serverPrompts, serverResources, serverTools } from '../src/mcp-bridge/server.gen.ts'
import { chooseStore } from '../src/server/store.ts'

const server = createMcpServer({
  name: 'mcp-bridge-playground',
  version: '0.1.0',
  tools: serverTools,
  // Discovered like the tools: a prompt for clients' menus, a resource template of the demo's flights.
  prompts: serverPrompts,
  resources: serverResources,
  // MCP Apps views of the plugins, built with Vite on a host's first request (logs go to stderr).
  apps: { views: appViews },
  // The same durable store as the chat: SQLite under playground/data/, or Redis with REDIS_URL.
  store: await chooseStore(),
  onError: (error) => console.error(`[mcp-bridge-playground] ${error.message}`),
})
server.listen()
