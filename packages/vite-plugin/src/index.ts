/**
 * `mcpBridge(options)` — the Vite plugin. It reads like a table of contents; the work is in
 * `core/` (shared with the `mcp-bridge` CLI):
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
import { dirname, join, resolve } from 'node:path'
import type { Plugin, ResolvedConfig, ViteDevServer } from 'vite'
import type { AppServer } from '@mcp-bridge/runtime/server'
import { fingerprint, readCached, writeCached } from './core/build-cache.ts'
import { formatDiagnostic, type Diagnostic } from './core/diagnostics.ts'
import { CLIENT_REGISTRY, SERVER_REGISTRY } from './core/codegen.ts'
import type { GeneratedFile, GenerateResult, McpBridgeGenerator } from './core/generator.ts'
import { LOADER_ENV_FLAG } from './core/load-modules.ts'
import { createBundledModuleLoader, type BundledModuleLoader } from './core/bundle-loader.ts'
import { resolveOptions, type McpBridgeOptions, type ResolvedOptions } from './core/options.ts'
import { RUNTIME_MODULE } from './core/patterns.ts'
import { ParseCache } from './core/parsed-source.ts'
import { LEAK_HINT, leakMessage, splitModule, type Leak } from './core/split.ts'
import { clientLeaks, type LeakInputs } from './core/client-leaks.ts'
import { redactBundleSourceMaps } from './core/redact-source-maps.ts'
import { GenerationSession } from './core/generation-session.ts'
import { listSources } from './core/source-files.ts'
import { watcherReady } from './watcher-ready.ts'
import { warnOnce } from './warn-once.ts'
import { McpBridgeBuildError, UnsupportedViteError, UnsupportedZodError } from './core/errors.ts'
import { appZodVersion, isBeforeZod4 } from './core/zod-version.ts'
import { assertRuntimePairs } from './core/runtime-version.ts'
import { assertRequiredPeers } from './core/required-peers.ts'
import { appViteVersion, majorOf, OLDEST_VITE } from './core/bundler.ts'
import { buildClientAndServer, loadServerIndex, mountInDev, mountInPreview, resolveServerIndex, serverConfig, SERVER_ENVIRONMENT, SERVER_INDEX_ID } from './app-server.ts'
import { APP_VIEWS_MODULE, buildViewFiles, loadViewModules, placeViewsDir, resolveViewModules, viewsOutDir } from './app-views-build.ts'
import { assembleViewHtml, VIEW_ENTRY_ID, viewBuildConfig, viewFileName, viewMarkOf, type ViewBuildMark } from './view-build.ts'
import { PANEL_MODULE_ID, PANEL_SOURCE } from './dev-panel/panel-module.ts'
import { PANEL_PATH, panelMiddleware } from './dev-panel/panel-routes.ts'
import { prebundledClientDeps } from './prebundle.ts'
import { createPeerGuard, runtimeEntriesImported } from './missing-peer.ts'

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
  // Inside the loader's own Vite server (which reads the same config) the plugin stays inert, and
  // so it does under Vitest (mode `test`): an app's tests import its modules as they are, and
  // generating or splitting there would only get in their way.
  let inert = process.env[LOADER_ENV_FLAG] === '1'
  /** The app's root as its config names it (before configResolved). */
  let appRoot = process.cwd()
  let options: ResolvedOptions
  let config: ResolvedConfig
  let generation: Promise<GenerateResult> | undefined
  /** `vite build`: the registries as soon as discovery knows them (undefined: wait for `generation`). */
  let registries: Promise<GeneratedFile[] | undefined> | undefined
  let loader: BundledModuleLoader | undefined
  /** Client: the tool and plugin modules (what imports the runtime), where the leak check starts. */
  const bridgeModules = new Set<string>()
  /** Client: server-only code a tool file kept only because it exports it (the bundle decides). */
  const exportOnlyLeaks = new Map<string, Leak[]>()
  let generations = 0
  let fromCache = false
  let lastResult: GenerateResult | undefined
  let generator: McpBridgeGenerator | undefined
  /** Dev: runs, queues and catches up generations (see core/generation-session.ts). */
  let session: GenerationSession | undefined
  /** Dev: the watcher's first scan and the catch-up after it. */
  let watching: Promise<void> = Promise.resolve()
  const idle = () => session?.idle ?? Promise.resolve()
  /** The app server mounted in dev (closed with the dev server). */
  let devApp: { close(): Promise<void>; load(): Promise<AppServer> } | undefined
  /** Whether this build's diagnostics were printed (buildEnd runs once per environment). */
  let reported = false
  /** Set in a view build (`view-build.ts`): this instance builds that one MCP Apps view and nothing else. */
  let view: ViewBuildMark | undefined

  /** `vite build` with `server`: warnings already printed by one environment's build (see warn-once.ts). */
  const printedWarnings = new Set<string>()
  /** `vite build`: every file parsed once, by discovery or the split, whichever comes first. */
  const parseCache = new ParseCache()
  const guardPeers = createPeerGuard()
  async function generate(
    changed?: readonly string[],
    { onRegistries, incremental = false, files }: { onRegistries?: (files: GeneratedFile[]) => void; incremental?: boolean; files?: readonly string[] } = {},
  ): Promise<GenerateResult> {
    // The same config file, loaded the same way, as the build or dev server this plugin is in.
    // Started only if a module must run (kept results may answer for all of them).
    // The modules a generation runs are built and loaded as one bundle (see bundle-loader.ts).
    loader ??= createBundledModuleLoader(options.root, { configFile: config.configFile ?? false, configLoader: config.inlineConfig.configLoader ?? 'bundle' })
    // Discovery and validation (and the runtime's schema checker, zod with it) load only when a
    // generation runs: a build whose sources did not change never imports them.
    if (!generator) {
      const [{ McpBridgeGenerator }, { ModuleCache }] = await Promise.all([import('./core/generator.ts'), import('./core/module-cache.ts')])
      generator = new McpBridgeGenerator(options, loader, config.command === 'build' ? parseCache : undefined, ModuleCache.load(config.cacheDir, options.root))
    }
    const result = await generator.generate(changed, { incremental, ...(onRegistries && { onRegistries }), ...(files && { files }) })
    if (!result.diagnostics.some((d) => d.severity === 'error')) generator.write(result)
    generations += 1
    lastResult = result
    return result
  }

  /** The files a generation writes (absolute). */
  const generatedPaths = () => [join(options.outDir, SERVER_REGISTRY), join(options.outDir, CLIENT_REGISTRY), join(options.outDir, options.manifest)]

  /** A source file whose change can change what is generated. */
  const relevant = (file: string) => file.startsWith(options.root) && !file.startsWith(options.outDir) && /\.[cm]?[jt]sx?$/.test(file)

  async function closeLoader(): Promise<void> {
    const closing = loader
    loader = undefined
    generator = undefined
    await closing?.close()
  }

  /** A module id as people read it: relative to the app's root. */
  const displayPath = (id: string) => {
    const path = id.replace(/[?#].*$/, '').replace(/^\0/, '')
    return path.startsWith(`${config.root}/`) ? path.slice(config.root.length + 1) : path
  }

  function report(diagnostics: readonly Diagnostic[], fail: boolean): void {
    const errors = diagnostics.filter((d) => d.severity === 'error')
    for (const d of diagnostics) {
      if (d.severity === 'warning' || !fail) config.logger.warn(`[mcp-bridge] ${formatDiagnostic(d)}`)
    }
    if (fail && errors.length) {
      throw new McpBridgeBuildError(`mcp-bridge found ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${errors.map(formatDiagnostic).join('\n')}`)
    }
  }

  return {
    name: 'mcp-bridge',
    enforce: 'pre',
    // One instance for every environment of a build: one generation, reported once (see buildStart).
    sharedDuringBuild: true,
    api: {
      /** What the user passed, for the CLI, which reads it from the app's Vite config. */
      userOptions,
      get options() {
        return options
      },
      /** How many generations ran (dev); for tools and tests that wait on regeneration. */
      get generations() {
        return generations
      },
      get lastResult() {
        return lastResult
      },
      /** `vite build`: parses made and files parsed (discovery and the split share them: one parse per file). */
      get parses() {
        return { parses: parseCache.parses, reused: parseCache.hits, files: parseCache.size }
      },
      /** Whether this build reused the previous build's generation (nothing had changed). */
      get fromCache() {
        return fromCache
      },
      /** Resolves when no generation is running or queued. */
      whenIdle: () => idle(),
      /**
       * Dev: resolves once the watcher reports every change (its first scan is done) and the
       * outputs are current with the files as they are now, reported by the watcher yet or not.
       */
      whenWatching: () => watching.then(() => session?.settle()),
    },

    config(user, env) {
      if (env.mode === 'test') inert = true
      // Vite 7+ says which Vite runs this config: another than the app's is a tool's own (vite-node,
      // Storybook's builder), where the plugin has nothing to do. Vite 5 and 6 do not say: see configResolved.
      const running = (this as { meta?: { viteVersion?: string } } | undefined)?.meta?.viteVersion
      if (running && majorOf(running) !== majorOf(appViteVersion)) inert = true
      if (inert) return
      assertRuntimePairs()
      appRoot = resolve(user.root ?? process.cwd())
      assertRequiredPeers(appRoot)
      const zod = appZodVersion(appRoot)
      if (zod && isBeforeZod4(zod)) throw new UnsupportedZodError(zod)
      view = viewMarkOf(user)
      if (view) return viewBuildConfig()
      // Options are checked for good in configResolved (against the final root); here only the
      // build layout needs them.
      const server = resolveOptions(userOptions, resolve(user.root ?? process.cwd())).server
      if (!server) return
      return env.command === 'build' && env.isPreview !== true ? serverConfig(server, user) : { build: serverConfig(server, user).build }
    },

    // The browser's environment: what every page imports is pre-bundled from the start (dev).
    configEnvironment(name, environment, env) {
      if (inert || view || env.command !== 'serve' || (environment.consumer ?? (name === 'client' ? 'client' : 'server')) !== 'client') return
      const include = prebundledClientDeps(appRoot)
      return include.length ? { optimizeDeps: { include } } : undefined
    },

    configResolved(resolved) {
      config = resolved
      // Vite 5 and older (no environments): refused if it is the app's own Vite; a tool's own older
      // Vite loading the config (vite-node 1, Vitest 2 outside mode `test`) finds the plugin inert.
      // (The sign is Vite's own client environment: our `config` may have added `environments`.)
      if (!inert && (resolved as { environments?: Record<string, { consumer?: string }> }).environments?.client?.consumer !== 'client') {
        if (majorOf(appViteVersion) < OLDEST_VITE) throw new UnsupportedViteError(appViteVersion)
        inert = true
      }
      options = resolveOptions(userOptions, resolved.root)
      if (!inert && !view && resolved.command === 'build' && options.server) warnOnce(resolved.logger, printedWarnings)
    },

    buildApp: {
      order: 'pre',
      async handler(builder) {
        if (inert || view || !options?.server) return
        await buildClientAndServer(builder)
        if (options.apps) {
          const result = await generation
          const serverOut = resolve(config.root, builder.environments[SERVER_ENVIRONMENT]!.config.build.outDir)
          await buildViewFiles({ result, options, config, outDir: viewsOutDir(serverOut) })
        }
      },
    },

    resolveId: {
      filter: { id: RESOLVE_IDS },
      handler(id, importer) {
        if (inert || !RESOLVE_IDS.test(id)) return null
        // The dev panel's page script (dev only: nothing imports it in a build).
        if (id === PANEL_MODULE_ID && config.command === 'serve') return `\0${PANEL_MODULE_ID}`
        const views = resolveViewModules(id, { view, building: config.command === 'build' && this.environment.config.consumer === 'server' && !!options.apps })
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
        return generatedPaths().includes(path) && !existsSync(path) ? path : null
      },
    },

    configurePreviewServer(preview) {
      if (!inert && options.server) mountInPreview(preview, options.server)
    },

    buildStart() {
      if (inert || view || config.command !== 'build') return
      // One generation per build, shared by the client and server environments; skipped when
      // nothing it depends on changed since the last successful one. Not awaited here: `load`
      // and `buildEnd` wait for it, so the bundler works on everything else meanwhile.
      if (generation) return
      // The app's imports of the registries are answered as soon as discovery knows them, so the
      // bundler goes on with the app while the tools' modules run and are checked. Not with
      // `failOnError: false`, where a generation with errors leaves the files on disk in use.
      let served: GeneratedFile[] | undefined
      let early: (files: GeneratedFile[] | undefined) => void = () => undefined
      registries = new Promise((resolve) => (early = resolve))
      const onRegistries = options.failOnError === false ? undefined : (files: GeneratedFile[]) => early((served = files))
      generation = (async () => {
        const print = await fingerprint(options)
        const cached = readCached(config.cacheDir, print)
        fromCache = cached !== undefined
        if (cached) return cached
        try {
          const result = await generate(undefined, { ...(onRegistries && { onRegistries }) })
          const clean = !result.diagnostics.some((d) => d.severity === 'error')
          if (clean && served?.some((f) => result.files.find((r) => r.path === f.path)?.content !== f.content)) {
            throw new McpBridgeBuildError(
              'mcp-bridge: the registries given to the bundler before the tools were checked differ from the checked ones. This is a bug in mcp-bridge (please report it); the build stops rather than ship them.',
            )
          }
          if (clean) writeCached(config.cacheDir, print, result)
          return result
        } finally {
          // A build needs the loader for this one generation; whatever the tools' top-level code
          // started goes with it (a `--watch` rebuild starts a fresh one).
          await closeLoader()
        }
      })()
      // Its failure is reported by `load` / `buildEnd`; this only keeps it from being "unhandled".
      generation.catch(() => undefined).finally(() => early(undefined))
    },

    load: {
      filter: { id: LOAD_IDS },
      async handler(id) {
        if (inert || !LOAD_IDS.test(id)) return null
        if (id === `\0${PANEL_MODULE_ID}`) return PANEL_SOURCE
        const views = loadViewModules(id, options, view)
        if (views !== undefined) return views
        if (options.server) {
          const index = loadServerIndex(id, options.server)
          if (index) return index
        }
        const path = id.replace(/[?#].*$/, '')
        if (!generation) {
          // Dev: the first generation writes it; wait for that instead of failing the import.
          if (!generatedPaths().includes(path) || existsSync(path)) return null
          await idle()
          return lastResult?.files.find((f) => f.path === path)?.content ?? null
        }
        const known = (await registries)?.find((f) => f.path === path)
        if (known) return known.content
        const result = await generation
        const file = result.files.find((f) => f.path === path)
        if (!file) return null
        // With errors nothing was written; the build fails in buildEnd (or, with
        // failOnError: false, goes on with the files on disk). With no file on disk either
        // (never generated), the errors are the story: say them here, at file:line.
        if (result.diagnostics.some((d) => d.severity === 'error')) {
          if (!existsSync(path)) {
            reported = true
            report(result.diagnostics, true)
          }
          return null
        }
        return file.content
      },
    },

    // `vite build --watch`: the next build generates again (the cache skips it if nothing changed).
    watchChange(id) {
      if (!inert && relevant(id)) {
        generation = undefined
        registries = undefined
        reported = false
      }
    },

    async buildEnd(error) {
      if (inert || !generation || error) return
      const result = await generation
      if (reported) return
      reported = true
      report(result.diagnostics, options.failOnError ?? true)
    },

    transform: {
      filter: { id: TRANSFORM_IDS, code: RUNTIME_MODULE },
      async handler(code, id) {
        if (inert || id.includes('/node_modules/') || !TRANSFORM_IDS.test(id) || !code.includes(RUNTIME_MODULE)) return null
        const target = this.environment.config.consumer === 'client' ? 'client' : 'server'
        // A runtime entry whose optional peer is missing: refused here, before Node links it and
        // keeps the failure for the life of the process (see missing-peer.ts).
        if (target === 'server' && !view) {
          for (const entry of runtimeEntriesImported(code)) {
            const resolved = await this.resolve(entry, id, { skipSelf: true })
            if (resolved && !resolved.id.startsWith('\0')) guardPeers(entry, resolved.id.replace(/[?#].*$/, ''))
          }
        }
        // In a build the parse is shared (with discovery, and between the client and server
        // builds); the split asks for it only when the file can hold something to cut.
        const parsed = config.command === 'build' ? () => parseCache.get(id.replace(/[?#].*$/, ''), code) : undefined
        if (target === 'client') {
          bridgeModules.add(id)
          exportOnlyLeaks.delete(id)
        }
        const out = splitModule(code, id, target, parsed)
        if (!out) return null
        if (target === 'client') {
          // Server-only code the client surely keeps fails here: at file:line, in the dev overlay too.
          const sure = out.leaks.filter((leak) => !leak.exportOnly)
          if (sure.length) {
            const file = displayPath(id)
            const message = `mcp-bridge: server-only code would reach the browser.\n${sure.map((leak) => leakMessage(file, leak)).join('\n')}\n${LEAK_HINT}`
            this.error({ message, id, loc: { file: id, line: sure[0]!.at.line, column: sure[0]!.at.column - 1 } })
          }
          if (out.leaks.length) exportOnlyLeaks.set(id, out.leaks)
        }
        return { code: out.code, map: out.map }
      },
    },

    renderChunk(code, chunk) {
      if (inert || view || !options.apps || this.environment.config.consumer !== 'server') return null
      const placed = placeViewsDir(code, chunk.fileName, resolve(config.root, this.environment.config.build.outDir))
      return placed === undefined ? null : { code: placed, map: null }
    },

    // After Vite's own (`post`): a view build's stylesheet is emitted by Vite's CSS plugin there.
    generateBundle: {
      order: 'post',
      async handler(_output, bundle) {
        if (inert) return
        const consumer = this.environment.config.consumer === 'client' ? 'client' : 'server'
        redactBundleSourceMaps(bundle, consumer)
        if (consumer !== 'client') return
        if (view) this.emitFile({ type: 'asset', fileName: viewFileName(view.tool), source: assembleViewHtml(view.tool, bundle) })
        const result = generation ? await generation : undefined
        // Served to anyone with the client (names, schemas, source paths): only when the app asks.
        if (result && options.publicManifest) this.emitFile({ type: 'asset', fileName: options.manifest, source: result.manifest })
        // No server-only code that a tool or plugin file leads to may ship to the browser.
        const leaks = clientLeaks({
          bundle: bundle as LeakInputs['bundle'],
          importersOf: (id) => this.getModuleInfo(id),
          bridgeModules,
          exportOnly: exportOnlyLeaks,
          display: displayPath,
        })
        if (leaks.length) this.error(`mcp-bridge: server-only code reached a client chunk.\n${leaks.join('\n')}\n${LEAK_HINT}`)
      },
    },

    configureServer(server: ViteDevServer) {
      if (inert) return
      if (options.server) devApp = mountInDev(server, options.server, idle)
      // The dev panel: tools, diagnostics and calls at /__mcp-bridge/, named where the dev server says its URLs.
      server.middlewares.use(panelMiddleware(server, { generated: () => lastResult, app: devApp?.load }))
      const printUrls = server.printUrls.bind(server)
      server.printUrls = () => {
        printUrls()
        const url = server.resolvedUrls?.local[0]
        if (url) server.config.logger.info(`  \u279c  mcp-bridge: ${url.replace(/\/$/, '')}${PANEL_PATH}  (tools, diagnostics, calls)`)
      }
      const failOnError = options.failOnError ?? false
      // The first generation usually ends before any page is open: a page that connects while
      // errors stand gets them too (not only after the next edit).
      let overlay: { message: string; stack: string; plugin: string } | undefined
      // Each edit regenerates: the terminal gets what changed (new problems, and how many went),
      // not every standing diagnostic again.
      let printed = new Set<string>()
      const printChanges = (diagnostics: readonly Diagnostic[]) => {
        const now = new Set<string>()
        for (const d of diagnostics) {
          const line = formatDiagnostic(d)
          now.add(line)
          if (!printed.has(line)) server.config.logger[d.severity === 'error' ? 'error' : 'warn'](`[mcp-bridge] ${line}`)
        }
        const gone = [...printed].filter((line) => !now.has(line)).length
        if (gone > 0) {
          const left = diagnostics.length === 0 ? 'none left' : `${diagnostics.length} still stand`
          server.config.logger.info(`[mcp-bridge] ${gone} diagnostic${gone === 1 ? '' : 's'} resolved; ${left}`)
        }
        printed = now
      }
      const dev = new GenerationSession({
        list: () => listSources(options),
        generate: ({ files, changed, incremental }) => generate(changed, { incremental, ...(files && { files }) }),
        onResult(result, first) {
          // Edits are re-run by the module runner: have it ready before the first one.
          if (first) loader?.warm().catch((error: unknown) => server.config.logger.warn(`[mcp-bridge] the module loader could not start: ${(error as Error).message}`))
          const errors = result.diagnostics.filter((d) => d.severity === 'error')
          printChanges(result.diagnostics)
          overlay = errors.length
            ? { message: `mcp-bridge: ${errors.map(formatDiagnostic).join('\n')}\n\nEvery tool and diagnostic: ${PANEL_PATH} on this server.`, stack: '', plugin: 'mcp-bridge' }
            : undefined
          if (overlay) {
            server.ws.send({ type: 'error', err: overlay })
            if (failOnError) server.config.logger.error('[mcp-bridge] failOnError is set; fix the errors above')
          }
        },
        onError: (error) => server.config.logger.error(`[mcp-bridge] generation failed: ${error.message}`),
      })
      session = dev
      server.ws.on('connection', () => overlay && server.ws.send({ type: 'error', err: overlay }))
      for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, (file: string) => void (relevant(file) && dev.run([file])))
      const first = dev.run()
      // No change may be lost before the watcher's first scan ends: the session compares the files
      // with the listing its first generation used, once the watcher reports everything.
      watching = watcherReady(server.watcher).then(() => dev.catchUp())
      watching.catch((error: unknown) => server.config.logger.error(`[mcp-bridge] watching failed: ${(error as Error).message}`))
      // Pages import the registries: on a clone without them, they are written before the server
      // starts, so Vite's dependency scan follows them (else the first page loads, finds new
      // dependencies, and reloads with "Outdated Optimize Dep" errors in its console).
      if (!existsSync(join(options.outDir, CLIENT_REGISTRY))) return first.catch(() => undefined)
    },

    // The dev server closing (Vite calls closeBundle then); in a build the loader is gone already.
    async closeBundle() {
      await closeLoader()
      await devApp?.close()
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
