/**
 * Where an app server's handlers live on a Node server: the chat at `chatPath`, the MCP endpoint
 * at `mcpPath`; every other request goes on (`next`) to static files, Vite, or a 404. One
 * Connect-style middleware, used by `serveApp` and by the Vite plugin in dev and preview.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { z } from 'zod/v4'
import { summarizeIssues } from '../errors/issues.ts'
import type { AppServer } from './app-server.ts'
import { toNodeListener, type FetchHandler } from './node-adapter.ts'
import type { ClientKey } from './client-address.ts'
import { rateLimited, type RateLimiter } from './rate-limit.ts'
import { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, routePaths, routePathSchema } from './route-paths.ts'
import { OptionsError } from '../errors/options-error.ts'

/**
 * Where an app server's endpoints are served: `chatPath` (default `/api/chat`) and `mcpPath` (default `/mcp`).
 */
export interface AppRouteOptions {
  /** Where the chat handler answers. Default `/api/chat`. */
  chatPath?: string
  /** Where the MCP endpoint answers, when the app has one. Default `/mcp`. */
  mcpPath?: string
}

export const appRouteOptionsSchema = z.strictObject({ chatPath: routePathSchema.optional(), mcpPath: routePathSchema.optional() })

export { DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH }

/**
 * A Connect-style Node middleware: `(req, res, next) => void`.
 */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void

/** The chat and MCP paths with their defaults filled in (`{ chatPath: '/chat' }` → `/chat` and `/mcp`), checked (`OptionsError` names a bad one). */
export function resolveAppRoutes(options: AppRouteOptions = {}): Required<AppRouteOptions> {
  const parsed = appRouteOptionsSchema.safeParse(options)
  if (!parsed.success) throw new OptionsError('app routes', summarizeIssues(parsed.error.issues))
  const routes = routePaths(parsed.data.chatPath, parsed.data.mcpPath)
  if ('problem' in routes) throw new OptionsError('app routes', { problem: routes.problem })
  return routes
}

/**
 * `app` may be the server itself or a function that returns it when a request first needs it
 * (the Vite dev server loads the module lazily, and again after it changed).
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { appRoutes } from '@mcp-bridge/runtime/server'
 * import app from './server/app.ts'
 *
 * const web = express()
 * web.use(appRoutes(app)) // /api/chat and /mcp; everything else goes on
 * web.listen(3000, '127.0.0.1')
 * ```
 */
export function appRoutes(app: AppServer | (() => Promise<AppServer>), options: AppRouteOptions = {}): NodeMiddleware {
  return routeApp(app, options)
}

/** `appRoutes`, each endpoint's requests first through `limiter` when given (`serveApp`'s rate limit). */
export function routeApp(app: AppServer | (() => Promise<AppServer>), options: AppRouteOptions, limiter?: RateLimiter): NodeMiddleware {
  const { chatPath, mcpPath } = resolveAppRoutes(options)
  const current = typeof app === 'function' ? app : () => Promise.resolve(app)
  const limited = (handler: FetchHandler, endpoint: { clientKey?: ClientKey }) => (limiter ? rateLimited(handler, limiter, endpoint) : handler)
  return (req, res, next) => {
    const pathname = (req.url ?? '/').split(/[?#]/, 1)[0]!
    // The MCP endpoint's OAuth metadata (RFC 9728) lives at the root's well-known path.
    const metadata = pathname.startsWith('/.well-known/oauth-protected-resource')
    if (pathname !== chatPath && pathname !== mcpPath && !metadata) return next()
    current().then(
      (server) => {
        if (pathname === chatPath && !metadata) return toNodeListener(limited(server.chat, server.chat))(req, res)
        const mcp = server.mcp
        if (mcp) return toNodeListener(limited((request) => mcp.fetch(request), mcp))(req, res)
        next()
      },
      (error: unknown) => next(error),
    )
  }
}
