/**
 * @mcp-bridge/runtime/base — the zod-free basics build tools load on every run: the error base
 * class, app-server detection and the route path rule. `@mcp-bridge/vite-plugin` imports only
 * this until a generation actually runs, so a build whose tools did not change loads no schema
 * library. An app never needs it.
 */
export { McpBridgeError } from './errors/mcp-bridge-error.ts'
export { isAppServer } from './http/app-server.ts'
export { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, ROUTE_PATH_HINT, ROUTE_PATH_PATTERN, routePaths } from './http/route-path-rule.ts'
