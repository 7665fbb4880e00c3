/**
 * @mcp-bridge/runtime/base — the zod-free basics build tools load on every run: the error base
 * class, app-server detection, the route path rule, the tool-name rule and how a schema
 * violation reads. `@mcp-bridge/vite-plugin` imports only this until a generation's tool modules
 * run, so a build whose tools did not change loads no schema library, and a build whose tools
 * did learns its registries (discovery) before zod is loaded. An app never needs it.
 */
export { McpBridgeError } from './errors/mcp-bridge-error.ts'
export { isAppServer } from './http/app-server.ts'
export { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, ROUTE_PATH_HINT, ROUTE_PATH_PATTERN, routePaths } from './http/route-path-rule.ts'
export { toolNameProblem } from './tool/tool-name.ts'
export { formatViolation } from './schema/violation.ts'
