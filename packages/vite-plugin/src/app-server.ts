/**
 * The plugin's `server` option: the app's server module, served by Vite in dev and preview and
 * built for production, so an app never imports server code into `vite.config.ts` (that would
 * load the generated registry before it exists and break `check`, `generate` and `build`).
 *
 *   dev       the module is loaded through Vite's SSR runner on the first request to the chat or
 *             MCP path, and again after it (or anything it imports) changed; the previous app
 *             server is closed then
 *   build     `vite build` builds the whole app: the client into `<outDir>/client/`, then the
 *             server into `<outDir>/server/` — `app.js` (the module) and `index.js`, which serves
 *             both under Node (`node dist/server/index.js`; PORT, HOST)
 *   preview   `vite preview` serves the built `app.js` at the same paths beside the client
 */
import { existsSync } from 'node:fs'
import { installHint } from './missing-package.ts'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { PreviewServer, UserConfig, ViteBuilder, ViteDevServer } from 'vite'
import { isAppServer, McpBridgeError } from '@mcp-bridge/runtime/build'
import type { AppServer, NodeMiddleware } from '@mcp-bridge/runtime/server'
import type { ResolvedOptions } from './core/options.ts'
import { bundlerOptions } from './core/bundler.ts'

type ServerOption = NonNullable<ResolvedOptions['server']>

/**
 * The runtime's server entry (the chat engine, stores, static files) loads when an app server is
 * first needed, so a build or dev server that serves none never pays for importing it.
 */
const runtimeServer = () => import('@mcp-bridge/runtime/server')

/** The chat and MCP paths, served by the app server `load` gives; any other request goes on. */
function lazyRoutes(load: () => Promise<AppServer>, server: ServerOption): NodeMiddleware {
  let routes: Promise<NodeMiddleware> | undefined
  return (req, res, next) => {
    const pathname = (req.url ?? '/').split(/[?#]/, 1)[0]
    if (pathname !== server.chatPath && pathname !== server.mcpPath) return next()
    routes ??= runtimeServer().then((m) => m.appRoutes(load, { chatPath: server.chatPath, mcpPath: server.mcpPath }))
    routes.then((serve) => serve(req, res, next), next)
  }
}

async function closeApp(app: AppServer): Promise<void> {
  await (await runtimeServer()).closeAppServer(app)
}

/** The environment the server module is built in. */
export const SERVER_ENVIRONMENT = 'mcp_bridge_server'
/** The generated production entry (`index.js`), a virtual module of the server build. */
export const SERVER_INDEX_ID = 'virtual:mcp-bridge/server-index'
const RESOLVED_INDEX_ID = `\0${SERVER_INDEX_ID}`

/**
 * The module the `server` option names does not default-export `createAppServer(...)`, or `vite preview` found no server build.
 */
export class AppServerModuleError extends McpBridgeError {
  readonly code = 'APP_SERVER_MODULE_INVALID'
}

/** The build layout: the client and the server side by side under the app's `build.outDir`. */
export function serverConfig(server: ServerOption, user: UserConfig): UserConfig {
  const outDir = user.build?.outDir ?? 'dist'
  return {
    // `builder` set: `vite build` builds every environment of the app (see `buildApp`).
    builder: user.builder ?? {},
    build: { outDir: join(outDir, 'client') },
    environments: {
      [SERVER_ENVIRONMENT]: {
        consumer: 'server',
        build: {
          ssr: true,
          outDir: join(outDir, 'server'),
          emptyOutDir: true,
          // public/ is the client's (served from dist/client): a second copy here would only be
          // found by someone deploying dist/client alone and wondering what dist/server needs.
          copyPublicDir: false,
          // Node 20.19+ runs it: top-level await (the index awaits the server), whatever the
          // browsers the client targets (Vite 6 and 7 give a custom environment the browser target).
          target: 'es2022',
          ...bundlerOptions({ input: { app: server.entry, index: SERVER_INDEX_ID } }),
        },
      },
    },
  }
}

/** The client first (its outDir is emptied), then the server, which serves it. */
export async function buildClientAndServer(builder: ViteBuilder): Promise<void> {
  for (const name of ['client', SERVER_ENVIRONMENT]) {
    const environment = builder.environments[name]
    if (environment && !environment.isBuilt) await builder.build(environment)
  }
}

export function resolveServerIndex(id: string): string | undefined {
  return id === SERVER_INDEX_ID ? RESOLVED_INDEX_ID : undefined
}

/** `index.js`: the app server and the built client under Node. */
export function loadServerIndex(id: string, server: ServerOption): string | undefined {
  if (id !== RESOLVED_INDEX_ID) return undefined
  return [
    `import app from ${JSON.stringify(server.entry)}`,
    `import { serveApp } from '@mcp-bridge/runtime/server'`,
    `const port = process.env.PORT === undefined || process.env.PORT === '' ? 3000 : Number(process.env.PORT)`,
    `const served = await serveApp(app, { staticDir: new URL('../client/', import.meta.url), port, host: process.env.HOST || '127.0.0.1', chatPath: ${JSON.stringify(server.chatPath)}, mcpPath: ${JSON.stringify(server.mcpPath)} })`,
    `console.log('mcp-bridge app: ' + served.url)`,
    '',
  ].join('\n')
}

function appOf(module: Record<string, unknown>, entry: string, root: string): AppServer {
  if (isAppServer(module.default)) return module.default
  throw new AppServerModuleError(
    `${relative(root, entry)} must \`export default createAppServer({ chat })\` (from '@mcp-bridge/runtime/server'); its default export is ${module.default === undefined ? 'missing' : typeof module.default}.`,
  )
}

/**
 * Dev: the module through Vite's SSR runner, reloaded after a change; the previous one closed.
 * `generated()` resolves once no generation runs: the module is loaded after the registries are
 * on disk, so their first writing does not reload it (and end the calls it just started).
 */
export function mountInDev(vite: ViteDevServer, server: ServerOption, generated: () => Promise<void>): { close(): Promise<void>; load(): Promise<AppServer> } {
  const root = vite.config.root
  if (!existsSync(server.entry)) {
    vite.config.logger.warn(`[mcp-bridge] server: ${relative(root, server.entry)} does not exist yet; ${server.chatPath} answers once it does.`)
  }
  let current: { module: Record<string, unknown>; app: AppServer } | undefined
  const closeQuietly = (app: AppServer) =>
    closeApp(app).catch((error: unknown) => vite.config.logger.error(`[mcp-bridge] closing the previous app server: ${(error as Error).message}`))

  async function load(): Promise<AppServer> {
    try {
      await generated()
      const module = (await vite.ssrLoadModule(server.entry)) as Record<string, unknown>
      if (current?.module === module) return current.app
      const app = appOf(module, server.entry, root)
      // In dev its calls keep timelines for the dev panel (`/__mcp-bridge/`).
      ;(app.chat as { devtools?: { calls(): unknown } }).devtools?.calls()
      const previous = current
      current = { module, app }
      if (previous) {
        vite.config.logger.info(`[mcp-bridge] ${relative(root, server.entry)} changed: a new app server answers; the previous one closed (its running calls ended).`)
        void closeQuietly(previous.app)
      }
      return app
    } catch (error) {
      if (error instanceof Error) vite.ssrFixStacktrace(error)
      const message = `mcp-bridge: the app server (${relative(root, server.entry)}) could not load: ${(error as Error).message}${installHint(error)}`
      vite.config.logger.error(`[mcp-bridge] ${message}`)
      vite.ws.send({ type: 'error', err: { message, stack: (error as Error).stack ?? '', plugin: 'mcp-bridge' } })
      throw error
    }
  }
  vite.middlewares.use(lazyRoutes(load, server))
  return {
    load,
    async close() {
      if (current) await closeQuietly(current.app)
      current = undefined
    },
  }
}

/** Preview: the built module, beside the built client Vite serves. */
export function mountInPreview(preview: PreviewServer, server: ServerOption): void {
  const root = preview.config.root
  const built = resolve(root, preview.config.environments[SERVER_ENVIRONMENT]?.build.outDir ?? join(preview.config.build.outDir, '../server'), 'app.js')
  let loaded: Promise<AppServer> | undefined
  const load = () =>
    (loaded ??= (async () => {
      if (!existsSync(built)) throw new AppServerModuleError(`No server build at ${relative(root, built)}: run \`vite build\` before \`vite preview\`.`)
      const app = appOf((await import(pathToFileURL(built).href)) as Record<string, unknown>, built, root)
      preview.httpServer.once('close', () => void closeApp(app).catch(() => {}))
      return app
    })())
  preview.middlewares.use(lazyRoutes(load, server))
}
