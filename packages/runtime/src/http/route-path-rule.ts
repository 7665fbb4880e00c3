/**
 * Where an app server's chat and MCP endpoint answer: one rule for `serveApp` / `appRoutes` and
 * the Vite plugin's `server` option. Plain code, no zod: the plugin checks its options with it
 * on every build without loading a schema library (`route-paths.ts` wraps it for zod users).
 */
export const DEFAULT_CHAT_PATH = '/api/chat'
/**
 * Where an app server's MCP endpoint is served unless `mcpPath` says otherwise: `/mcp`.
 */
export const DEFAULT_MCP_PATH = '/mcp'

/**
 * A route path: starts with `/`, no spaces, query or hash.
 */
export const ROUTE_PATH_PATTERN = /^\/[^\s?#]*$/
/**
 * What a route path must look like, for messages about a wrong one.
 */
export const ROUTE_PATH_HINT = 'a path starting with "/", without spaces, query or hash, e.g. "/api/chat"'

/**
 * The two paths with their defaults, or the problem when they collide.
 *
 * @example
 * ```ts
 * import { routePaths } from '@mcp-bridge/runtime/build'
 *
 * routePaths('/chat') // { chatPath: '/chat', mcpPath: '/mcp' }
 * routePaths('/x', '/x') // { problem: 'chatPath and mcpPath are both "/x"; give each its own path' }
 * ```
 */
export function routePaths(chatPath = DEFAULT_CHAT_PATH, mcpPath = DEFAULT_MCP_PATH): { chatPath: string; mcpPath: string } | { problem: string } {
  if (chatPath === mcpPath) return { problem: `chatPath and mcpPath are both "${chatPath}"; give each its own path` }
  return { chatPath, mcpPath }
}
