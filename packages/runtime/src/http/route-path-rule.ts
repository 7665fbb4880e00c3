/**
 * Where an app server's chat and MCP endpoint answer: one rule for `serveApp` / `appRoutes` and
 * the Vite plugin's `server` option. Plain code, no zod: the plugin checks its options with it
 * on every build without loading a schema library (`route-paths.ts` wraps it for zod users).
 */
export const DEFAULT_CHAT_PATH = '/api/chat'
export const DEFAULT_MCP_PATH = '/mcp'

export const ROUTE_PATH_PATTERN = /^\/[^\s?#]*$/
export const ROUTE_PATH_HINT = 'a path starting with "/", without spaces, query or hash, e.g. "/api/chat"'

/** The two paths with their defaults, or the problem when they collide. */
export function routePaths(chatPath = DEFAULT_CHAT_PATH, mcpPath = DEFAULT_MCP_PATH): { chatPath: string; mcpPath: string } | { problem: string } {
  if (chatPath === mcpPath) return { problem: `chatPath and mcpPath are both "${chatPath}"; give each its own path` }
  return { chatPath, mcpPath }
}
