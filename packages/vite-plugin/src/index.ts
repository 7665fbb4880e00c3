/**
 * `mcpBridge(options)` — the Vite plugin. It reads like a table of contents: each hook is a thin
 * adapter over one `BridgePluginContext` (`plugin-context.ts`: what this instance knows and does),
 * the hook groups' work beside it (`build-generation.ts`, `dev-generation.ts`, `split-hooks.ts`)
 * and the rest in `core/` (shared with the `mcp-bridge` CLI):
 *
 *   configResolved   resolve and validate options against Vite's root
 *   buildStart       start discovering tools and validating their real schemas (not awaited:
 *                    the rest of the build goes on meanwhile)
 *   load             a generated file the app imports waits for that generation and gets its
 *                    fresh content
 *   transform        split each tool module for its environment (client / server)
 *   buildEnd         report the generation's diagnostics; errors fail the build here
 *   generateBundle   emit the manifest into the client build; fail if server-only code that a
 *                    tool or plugin file leads to is in a client chunk (core/client-leaks.ts)
 *   watchChange      `vite build --watch`: a changed source means a new generation next build
 *   configureServer  regenerate in dev when tool files change; errors go to the overlay
 *
 * With `server` (see `app-server.ts`): `config` lays out the client and server builds and
 * `buildApp` builds both; `configureServer` / `configurePreviewServer` serve the app's chat and
 * MCP endpoint; `resolveId` / `load` give the server build its `index.js`.
 *
 * Discovery parses with oxc (`rolldown/parseAst`, the parser Vite ships) and shares its chain
 * matcher with the split (`core/chains.ts`); no TypeScript compiler is loaded in dev or build.
 *
 * @module
 */
import { existsSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Plugin, ViteDevServer } from 'vite'
import type { LeakInputs } from './core/client-leaks.ts'
import { type McpBridgeOptions, resolveOptions } from './core/options.ts'
import { RUNTIME_MODULE } from './core/patterns.ts'
import { LEAK_HINT } from './core/split.ts'
import { redactBundleSourceMaps } from './core/redact-source-maps.ts'
import { warnOnce } from './warn-once.ts'
import { UnsupportedViteError, UnsupportedZodError } from './core/errors.ts'
import { appZodVersion, isBeforeZod4 } from './core/zod-version.ts'
import { assertRuntimePairs } from './core/runtime-version.ts'
import { assertRequiredPeers } from './core/required-peers.ts'
import { appViteVersion, majorOf, OLDEST_VITE } from './core/bundler.ts'
import { buildClientAndServer, loadServerIndex, mountInDev, mountInPreview, resolveServerIndex, serverConfig, SERVER_ENVIRONMENT, SERVER_INDEX_ID } from './app-server.ts'
import { APP_VIEWS_MODULE, buildViewFiles, loadViewModules, placeViewsDir, resolveViewModules, viewsOutDir } from './app-views-build.ts'
import { assembleViewHtml, VIEW_ENTRY_ID, viewBuildConfig, viewFileName, viewMarkOf } from './view-build.ts'
import { PANEL_MODULE_ID, PANEL_SOURCE } from './dev-panel/panel-module.ts'
import { panelMiddleware } from './dev-panel/panel-routes.ts'
import { prebundledClientDeps } from './prebundle.ts'
import { BridgePluginContext } from './plugin-context.ts'
import { forgetBuildGeneration, loadGenerated, reportBuildGeneration, startBuildGeneration } from './build-generation.ts'
import { generateInDev } from './dev-generation.ts'
import { leaksInBundle, splitForEnvironment } from './split-hooks.ts'

export type { McpBridgeOptions, ResolvedOptions } from './core/options.ts'
export type { Diagnostic } from './core/diagnostics.ts'
export { formatDiagnostic } from './core/diagnostics.ts'

export { PeerMissingError } from './core/required-peers.ts'
export {
  McpBridgeBuildError,
  OptionsError,
  ModuleLoadTimeoutError,
  ModuleLoaderUnavailableError,
  RuntimeVersionMismatchError,
  UnsupportedViteError,
  UnsupportedZodError,
} from './core/errors.ts'
export { AppServerModuleError, SERVER_ENVIRONMENT } from './app-server.ts'

/**
 * The Vite plugin: finds every tool, plugin, prompt and resource; checks elicitation schemas against the MCP rules
 * (errors at `file:line:col`); writes the manifest and the typed registries (`server.gen.ts`, `client.gen.ts`);
 * keeps tool bodies out of the client bundle; and with `server`, serves the app's chat and MCP endpoint in dev and
 * preview and builds them into `dist/server/`.
 *
 * @example
 * ```ts
 * // vite.config.ts
 * import { defineConfig } from 'vite'
 * import react from '@vitejs/plugin-react'
 * import { mcpBridge } from '@mcp-bridge/vite-plugin'
 *
 * export default defineConfig({
 *   plugins: [react(), mcpBridge({ server: 'src/server/app.ts' })],
 * })
 * ```
 */
export function mcpBridge(userOptions: McpBridgeOptions = {}): Plugin {
  const ctx = new BridgePluginContext(userOptions)
  return {
    name: 'mcp-bridge',
    enforce: 'pre',
    // One instance for every environment of a build: one generation, reported once (see buildStart).
    sharedDuringBuild: true,
    api: {
      /** What the user passed, for the CLI, which reads it from the app's Vite config. */
      userOptions,
      get options() {
        return ctx.options
      },
      /** How many generations ran (dev); for tools and tests that wait on regeneration. */
      get generations() {
        return ctx.generations
      },
      get lastResult() {
        return ctx.lastResult
      },
      /** `vite build`: parses made and files parsed (discovery and the split share them: one parse per file). */
      get parses() {
        return { parses: ctx.parseCache.parses, reused: ctx.parseCache.hits, files: ctx.parseCache.size }
      },
      /** Whether this build reused the previous build's generation (nothing had changed). */
      get fromCache() {
        return ctx.fromCache
      },
      /** Resolves when no generation is running or queued. */
      whenIdle: () => ctx.idle(),
      /**
       * Dev: resolves once the watcher reports every change (its first scan is done) and the
       * outputs are current with the files as they are now, reported by the watcher yet or not.
       */
      whenWatching: () => ctx.watching.then(() => ctx.session?.settle()),
    },

    config(user, env) {
      if (env.mode === 'test') ctx.inert = true
      // Vite 7+ says which Vite runs this config: another than the app's is a tool's own (vite-node,
      // Storybook's builder), where the plugin has nothing to do. Vite 5 and 6 do not say: see configResolved.
      const running = (this as { meta?: { viteVersion?: string } } | undefined)?.meta?.viteVersion
      if (running && majorOf(running) !== majorOf(appViteVersion)) ctx.inert = true
      if (ctx.inert) return
      assertRuntimePairs()
      ctx.appRoot = resolve(user.root ?? process.cwd())
      assertRequiredPeers(ctx.appRoot)
      const zod = appZodVersion(ctx.appRoot)
      if (zod && isBeforeZod4(zod)) throw new UnsupportedZodError(zod)
      ctx.view = viewMarkOf(user)
      if (ctx.view) return viewBuildConfig()
      // Options are checked for good in configResolved (against the final root); here only the
      // build layout needs them.
      const server = resolveOptions(userOptions, ctx.appRoot).server
      if (!server) return
      return env.command === 'build' && env.isPreview !== true ? serverConfig(server, user) : { build: serverConfig(server, user).build }
    },

    // The browser's environment: what every page imports is pre-bundled from the start (dev).
    configEnvironment(name, environment, env) {
      if (ctx.inert || ctx.view || env.command !== 'serve' || (environment.consumer ?? (name === 'client' ? 'client' : 'server')) !== 'client') return
      const include = prebundledClientDeps(ctx.appRoot)
      return include.length ? { optimizeDeps: { include } } : undefined
    },

    configResolved(resolved) {
      ctx.config = resolved
      // Vite 5 and older (no environments): refused if it is the app's own Vite; a tool's own older
      // Vite loading the config (vite-node 1, Vitest 2 outside mode `test`) finds the plugin inert.
      // (The sign is Vite's own client environment: our `config` may have added `environments`.)
      if (!ctx.inert && (resolved as { environments?: Record<string, { consumer?: string }> }).environments?.client?.consumer !== 'client') {
        if (majorOf(appViteVersion) < OLDEST_VITE) throw new UnsupportedViteError(appViteVersion)
        ctx.inert = true
      }
      ctx.options = resolveOptions(userOptions, resolved.root)
      if (!ctx.inert && !ctx.view && resolved.command === 'build' && ctx.options.server) warnOnce(resolved.logger, ctx.printedWarnings)
    },

    buildApp: {
      order: 'pre',
      async handler(builder) {
        const { options, config } = ctx
        if (ctx.inert || ctx.view || !options?.server) return
        await buildClientAndServer(builder)
        if (options.apps) {
          const result = await ctx.generation
          const serverOut = resolve(config.root, builder.environments[SERVER_ENVIRONMENT]!.config.build.outDir)
          await buildViewFiles({ result, options, config, outDir: viewsOutDir(serverOut) })
        }
      },
    },

    resolveId: {
      filter: { id: RESOLVE_IDS },
      handler(id, importer) {
        if (ctx.inert || !RESOLVE_IDS.test(id)) return null
        const { config, options } = ctx
        // The dev panel's page script (dev only: nothing imports it in a build).
        if (id === PANEL_MODULE_ID && config.command === 'serve') return `\0${PANEL_MODULE_ID}`
        const views = resolveViewModules(id, { view: ctx.view, building: config.command === 'build' && this.environment.config.consumer === 'server' && !!options.apps })
        if (views) return views
        // Effection's `main()` imports node:process lazily, only when it runs under Node; in the
        // browser bundle it stays an import nothing executes (instead of a "externalized for
        // browser compatibility" warning in every app's build).
        if (id === 'node:process') {
          return this.environment.config.consumer === 'client' && importer && /[\\/]effection[\\/]/.test(importer) ? { id, external: true } : null
        }
        const index = resolveServerIndex(id)
        if (index) return index
        // A generated file the app imports before it was ever generated (a fresh clone): it is
        // the generation's to provide (see `load`), so resolving it must not fail.
        if (!importer || !/^\.{1,2}\//.test(id)) return null
        const path = resolve(dirname(importer.replace(/[?#].*$/, '')), id.endsWith('.gen') ? `${id}.ts` : id)
        return ctx.generatedPaths().includes(path) && !existsSync(path) ? path : null
      },
    },

    configurePreviewServer(preview) {
      if (!ctx.inert && ctx.options.server) mountInPreview(preview, ctx.options.server)
    },

    buildStart() {
      if (!ctx.inert && !ctx.view && ctx.config.command === 'build') startBuildGeneration(ctx)
    },

    load: {
      filter: { id: LOAD_IDS },
      async handler(id) {
        if (ctx.inert || !LOAD_IDS.test(id)) return null
        if (id === `\0${PANEL_MODULE_ID}`) return PANEL_SOURCE
        const views = loadViewModules(id, ctx.options, ctx.view)
        if (views !== undefined) return views
        const index = ctx.options.server && loadServerIndex(id, ctx.options.server)
        if (index) return index
        return loadGenerated(ctx, id.replace(/[?#].*$/, ''))
      },
    },

    // `vite build --watch`: the next build generates again (the cache skips it if nothing changed).
    watchChange(id) {
      if (!ctx.inert && ctx.relevant(id)) forgetBuildGeneration(ctx)
    },

    async buildEnd(error) {
      if (!ctx.inert && !error) await reportBuildGeneration(ctx)
    },

    transform: {
      filter: { id: TRANSFORM_IDS, code: RUNTIME_MODULE },
      async handler(code, id) {
        if (ctx.inert || id.includes('/node_modules/') || !TRANSFORM_IDS.test(id) || !code.includes(RUNTIME_MODULE)) return null
        return splitForEnvironment(ctx, this, code, id)
      },
    },

    renderChunk(code, chunk) {
      if (ctx.inert || ctx.view || !ctx.options.apps || this.environment.config.consumer !== 'server') return null
      const placed = placeViewsDir(code, chunk.fileName, resolve(ctx.config.root, this.environment.config.build.outDir))
      return placed === undefined ? null : { code: placed, map: null }
    },

    // After Vite's own (`post`): a view build's stylesheet is emitted by Vite's CSS plugin there.
    generateBundle: {
      order: 'post',
      async handler(_output, bundle) {
        if (ctx.inert) return
        const consumer = this.environment.config.consumer === 'client' ? 'client' : 'server'
        redactBundleSourceMaps(bundle, consumer)
        if (consumer !== 'client') return
        if (ctx.view) this.emitFile({ type: 'asset', fileName: viewFileName(ctx.view.tool), source: assembleViewHtml(ctx.view.tool, bundle) })
        const result = ctx.generation ? await ctx.generation : undefined
        // Served to anyone with the client (names, schemas, source paths): only when the app asks.
        if (result && ctx.options.publicManifest) this.emitFile({ type: 'asset', fileName: ctx.options.manifest, source: result.manifest })
        // No server-only code that a tool or plugin file leads to may ship to the browser.
        const leaks = leaksInBundle(ctx, bundle as LeakInputs['bundle'], (id) => this.getModuleInfo(id))
        if (leaks.length) this.error(`mcp-bridge: server-only code reached a client chunk.\n${leaks.join('\n')}\n${LEAK_HINT}`)
      },
    },

    configureServer(server: ViteDevServer) {
      if (ctx.inert) return
      if (ctx.options.server) ctx.devApp = mountInDev(server, ctx.options.server, () => ctx.idle())
      // The dev panel: tools, diagnostics and calls at /__mcp-bridge/, named where the dev server says its URLs.
      server.middlewares.use(panelMiddleware(server, { generated: () => ctx.lastResult, app: ctx.devApp?.load }))
      return generateInDev(ctx, server)
    },

    // The dev server closing (Vite calls closeBundle then); in a build the loader is gone already.
    async closeBundle() {
      await ctx.closeLoader()
      await ctx.devApp?.close()
    },
  }
}

/*
 * The ids each hook handles: its filter, and checked again in the hook for Vites that ignore
 * hook filters (before 6.3), where every hook sees every id.
 */
const RESOLVE_IDS = new RegExp(`^${SERVER_INDEX_ID}$|\\.gen(?:\\.ts)?$|\\.json$|^node:process$|^${escapeRegExp(APP_VIEWS_MODULE)}$|^${VIEW_ENTRY_ID}$|^${PANEL_MODULE_ID}$`)
const LOAD_IDS = /(?:\.(?:gen\.ts|json)|^\0virtual:mcp-bridge\/(?:server-index|app-view-entry|app-views|dev-panel))(?:[?#].*)?$/
const TRANSFORM_IDS = /\.[cm]?[jt]sx?(\?.*)?$/

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

export default mcpBridge
