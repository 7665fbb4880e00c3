/**
 * `serveApp(app, options)`: production under plain Node — the chat and the MCP endpoint (see
 * `appRoutes`), the built client's files (sirv: the static server Vite's own preview uses, with
 * ETags and precompressed files; hashed `/assets/` cached for a year, `index.html` never), and
 * `index.html` for any other path so client-side routes load. SIGTERM / SIGINT close it: calls
 * abort (their `finally` blocks run), the store closes, open connections are cut.
 *
 * `vite build` with the plugin's `server` option emits `dist/server/index.js`, which calls this.
 */
import { existsSync, statSync } from 'node:fs'
import { consoleLogger, loggerOption, withTraceIds, type McpBridgeLogger } from '../telemetry/logger.ts'
import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import sirv from 'sirv'
import { z } from 'zod/v4'
import { summarizeIssues } from '../errors/issues.ts'
import { closeAppServer, isAppServer, type AppServer } from './app-server.ts'
import { appRouteOptionsSchema, routeApp, type AppRouteOptions } from './app-routes.ts'
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit.ts'
import { clockOption, systemClock, type Clock } from '../time/clock.ts'
import { OptionsError } from '../errors/options-error.ts'
import { forClient } from '../errors/client-errors.ts'
import { staticRoot } from './static-root.ts'
import { ServeAppListenError } from '../errors/server-errors.ts'

/**
 * How `serveApp` serves: the built client folder, port and host, signals, socket timeouts, a per-client rate limit, a clock and a logger.
 */
export interface ServeAppOptions extends AppRouteOptions {
  /** The built client (Vite's client outDir). Without it only the chat and MCP paths answer. */
  staticDir?: string | URL
  /** Default 3000; 0 picks a free port. */
  port?: number
  /** Default `127.0.0.1`; `0.0.0.0` to accept connections from other machines (a container). */
  host?: string
  /** Close on SIGTERM and SIGINT (default true). */
  handleSignals?: boolean
  /**
   * A client whose request headers have not all arrived after this long is cut off (default
   * 10 s): slow-header sockets cannot pile up.
   */
  headersTimeoutMs?: number
  /** A client whose whole request (headers and body) has not arrived after this long is cut off (default 30 s). */
  requestTimeoutMs?: number
  /**
   * Requests to the chat and MCP paths per client, as a token bucket; past it, `429 RATE_LIMITED`
   * with `Retry-After`. Clients are told apart as each endpoint's own limits tell them (its
   * `clientKey`: by default the address's network, an IPv6 /64). Default 50 a second with bursts of
   * 200 (`DEFAULT_RATE_LIMIT`); `false` turns it off (a proxy in front that limits rates already).
   */
  rateLimit?: RateLimit | false
  /** What the rate limit is measured with (default: wall time). */
  clock?: Clock
  /** Where the server's own messages go (a link it will not serve, a failed request's details): pino's signature. Default: the console. */
  logger?: McpBridgeLogger
}

/**
 * A running `serveApp` server: its Node server, its URL and `close()`.
 */
export interface ServedApp {
  server: Server
  /** `http://host:port/` as it listens. */
  url: string
  /** Stop accepting, cut open connections, close the app server (calls, MCP sessions, store). */
  close(): Promise<void>
}

const optionsSchema = appRouteOptionsSchema.extend({
  staticDir: z.union([z.string().min(1), z.instanceof(URL)]).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  handleSignals: z.boolean().optional(),
  headersTimeoutMs: z.number().int().min(100).max(600_000).optional(),
  requestTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
  rateLimit: z
    .union([z.literal(false), z.strictObject({ requestsPerSecond: z.number().positive().max(100_000), burst: z.number().int().min(1).max(1_000_000).optional() })])
    .optional(),
  clock: clockOption.optional(),
  logger: loggerOption.optional(),
})

/**
 * Serves an app server under Node: the chat and MCP paths, the built client's files, bounded sockets, and a clean
 * shutdown on SIGTERM. The Vite plugin's built `dist/server/index.js` is this.
 *
 * @example
 * ```ts
 * import { serveApp } from '@mcp-bridge/runtime/server'
 * import app from './server/app.ts'
 *
 * const served = await serveApp(app, { staticDir: new URL('../client/', import.meta.url), port: 3000, rateLimit: { requestsPerSecond: 10, burst: 40 } })
 * console.log(`listening at ${served.url}`)
 * ```
 */
export async function serveApp(app: AppServer, options: ServeAppOptions = {}): Promise<ServedApp> {
  if (!isAppServer(app)) throw new OptionsError('serveApp', { option: 'app', problem: 'serveApp(app) takes the value of createAppServer({ chat, mcp?, close? })' })
  const parsed = optionsSchema.safeParse(options)
  if (!parsed.success) throw new OptionsError('serveApp', summarizeIssues(parsed.error.issues))
  const {
    staticDir,
    port = 3000,
    host = '127.0.0.1',
    handleSignals = true,
    headersTimeoutMs = 10_000,
    requestTimeoutMs = 30_000,
    rateLimit = DEFAULT_RATE_LIMIT,
    clock,
    logger,
    ...routes
  } = parsed.data
  const log = withTraceIds(logger ?? consoleLogger)
  const dir = staticDir instanceof URL ? fileURLToPath(staticDir) : staticDir
  if (dir !== undefined && !(existsSync(dir) && statSync(dir).isDirectory())) {
    throw new OptionsError('serveApp', { option: 'staticDir', problem: `staticDir ${dir} is not a directory; build the client first (vite build)` })
  }

  const limiter = rateLimit ? createRateLimiter(rateLimit, (clock as Clock | undefined) ?? systemClock) : undefined
  const api = routeApp(app, routes, limiter)
  const root = dir === undefined ? undefined : staticRoot(dir)
  for (const link of root?.skipped ?? []) log.warn({ link, staticDir: dir }, `serveApp: not serving ${link}: only files inside ${dir} are served.`)
  const files = root
    ? sirv(root.dir, {
        single: true,
        etag: true,
        gzip: true,
        brotli: true,
        setHeaders: (res, pathname) => {
          res.setHeader('cache-control', pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache')
        },
      })
    : undefined
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ code: 'NOT_FOUND', message: 'Nothing is served at this path.' }))
  }
  const server = createServer(
    { headersTimeout: headersTimeoutMs, requestTimeout: Math.max(requestTimeoutMs, headersTimeoutMs), connectionsCheckingInterval: Math.min(1000, headersTimeoutMs) },
    (req, res) => {
      api(req, res, (error) => {
        if (error) {
          // The details are for the server's log; the client gets a code and a sentence.
          res.writeHead(500, { 'content-type': 'application/json' })
          res.end(JSON.stringify(forClient(error, 'a request failed', log)))
          return
        }
        if (files) files(req, res, () => notFound(res))
        else notFound(res)
      })
    },
  )
  await new Promise<void>((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) =>
      reject(
        new ServeAppListenError(
          error.code === 'EADDRINUSE'
            ? `Port ${port} on ${host} is in use: stop what holds it, or set another port (PORT=…)`
            : `Could not listen on ${host}:${port}: ${error.message}`,
          { cause: error },
        ),
      )
    server.once('error', fail)
    server.listen(port, host, () => {
      server.off('error', fail)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      server.close()
      server.closeAllConnections()
      root?.dispose()
      await closeAppServer(app)
    })())
  if (handleSignals) {
    const onSignal = () =>
      void close().then(
        () => process.exit(0),
        (error: unknown) => (log.error({ err: error }, 'serveApp: the app server did not close cleanly'), process.exit(1)),
      )
    process.once('SIGTERM', onSignal)
    process.once('SIGINT', onSignal)
    server.once('close', () => (process.off('SIGTERM', onSignal), process.off('SIGINT', onSignal)))
  }
  return { server, url, close }
}
