/**
 * What one `mcpBridge()` instance knows and does, shared by its hooks (the TanStack
 * `Generator` / `createRoutesContext` pattern): the resolved options and Vite config, whether it
 * is inert, the generation this build or dev server is on and its result, the module loader the
 * tools run in, and what the split and the leak check collect. The hooks in `index.ts` are thin
 * adapters over it; what a hook group does lives beside it (`build-generation.ts`,
 * `dev-generation.ts`, `split-hooks.ts`).
 */
import { join } from 'node:path'
import type { ResolvedConfig } from 'vite'
import type { AppServer } from '@mcp-bridge/runtime/server'
import { createBundledModuleLoader, type BundledModuleLoader } from './core/bundle-loader.ts'
import { CLIENT_REGISTRY, SERVER_REGISTRY } from './core/codegen.ts'
import { formatDiagnostic, type Diagnostic } from './core/diagnostics.ts'
import { McpBridgeBuildError } from './core/errors.ts'
import type { GeneratedFile, GenerateResult, McpBridgeGenerator } from './core/generator.ts'
import type { GenerationSession } from './core/generation-session.ts'
import { LOADER_ENV_FLAG } from './core/load-modules.ts'
import type { McpBridgeOptions, ResolvedOptions } from './core/options.ts'
import { ParseCache } from './core/parsed-source.ts'
import type { Leak } from './core/split.ts'
import { createPeerGuard } from './missing-peer.ts'
import type { ViewBuildMark } from './view-build.ts'

export interface GenerateRequest {
  onRegistries?: (files: GeneratedFile[]) => void
  incremental?: boolean
  files?: readonly string[]
}

export class BridgePluginContext {
  /**
   * Inside the loader's own Vite server (which reads the same config) the plugin stays inert, and
   * so it does under Vitest (mode `test`) or a tool's own Vite: an app's tests import its modules
   * as they are, and generating or splitting there would only get in their way.
   */
  inert = process.env[LOADER_ENV_FLAG] === '1'
  /** The app's root as its config names it (before configResolved). */
  appRoot = process.cwd()
  options!: ResolvedOptions
  config!: ResolvedConfig
  /** Set in a view build (`view-build.ts`): this instance builds that one MCP Apps view and nothing else. */
  view: ViewBuildMark | undefined
  /** `vite build`: this build's one generation (client and server environments share it). */
  generation: Promise<GenerateResult> | undefined
  /** `vite build`: the registries as soon as discovery knows them (undefined: wait for `generation`). */
  registries: Promise<GeneratedFile[] | undefined> | undefined
  /** Whether this build's diagnostics were printed (buildEnd runs once per environment). */
  reported = false
  /** Whether this build reused the previous build's generation (nothing had changed). */
  fromCache = false
  generations = 0
  lastResult: GenerateResult | undefined
  /** Dev: runs, queues and catches up generations (see core/generation-session.ts). */
  session: GenerationSession | undefined
  /** Dev: the watcher's first scan and the catch-up after it. */
  watching: Promise<void> = Promise.resolve()
  /** The app server mounted in dev (closed with the dev server). */
  devApp: { close(): Promise<void>; load(): Promise<AppServer> } | undefined
  /** Client: the tool and plugin modules (what imports the runtime), where the leak check starts. */
  readonly bridgeModules = new Set<string>()
  /** Client: server-only code a tool file kept only because it exports it (the bundle decides). */
  readonly exportOnlyLeaks = new Map<string, Leak[]>()
  /** `vite build` with `server`: warnings already printed by one environment's build (see warn-once.ts). */
  readonly printedWarnings = new Set<string>()
  /** `vite build`: every file parsed once, by discovery or the split, whichever comes first. */
  readonly parseCache = new ParseCache()
  readonly guardPeers = createPeerGuard()
  #loader: BundledModuleLoader | undefined
  #generator: McpBridgeGenerator | undefined

  constructor(readonly userOptions: McpBridgeOptions) {}

  get loader(): BundledModuleLoader | undefined {
    return this.#loader
  }

  /** Resolves when no generation is running or queued. */
  idle(): Promise<void> {
    return this.session?.idle ?? Promise.resolve()
  }

  /** One generation: discovery, validation and codegen; its files written when it has no errors. */
  async generate(changed?: readonly string[], { onRegistries, incremental = false, files }: GenerateRequest = {}): Promise<GenerateResult> {
    const { options, config } = this
    // The same config file, loaded the same way, as the build or dev server this plugin is in.
    // Started only if a module must run (kept results may answer for all of them). The modules a
    // generation runs are built and loaded as one bundle (see bundle-loader.ts).
    this.#loader ??= createBundledModuleLoader(options.root, { configFile: config.configFile ?? false, configLoader: config.inlineConfig.configLoader ?? 'bundle' })
    // Discovery and validation (and the runtime's schema checker, zod with it) load only when a
    // generation runs: a build whose sources did not change never imports them.
    if (!this.#generator) {
      const [{ McpBridgeGenerator }, { ModuleCache }] = await Promise.all([import('./core/generator.ts'), import('./core/module-cache.ts')])
      this.#generator = new McpBridgeGenerator(options, this.#loader, config.command === 'build' ? this.parseCache : undefined, ModuleCache.load(config.cacheDir, options.root))
    }
    const result = await this.#generator.generate(changed, { incremental, ...(onRegistries && { onRegistries }), ...(files && { files }) })
    if (!result.diagnostics.some((d) => d.severity === 'error')) this.#generator.write(result)
    this.generations += 1
    this.lastResult = result
    return result
  }

  /** Stop the module loader (and whatever the tools' top-level code started in it). */
  async closeLoader(): Promise<void> {
    const closing = this.#loader
    this.#loader = undefined
    this.#generator = undefined
    await closing?.close()
  }

  /** The files a generation writes (absolute). */
  generatedPaths(): string[] {
    const { outDir, manifest } = this.options
    return [join(outDir, SERVER_REGISTRY), join(outDir, CLIENT_REGISTRY), join(outDir, manifest)]
  }

  /** A source file whose change can change what is generated. */
  relevant(file: string): boolean {
    return file.startsWith(this.options.root) && !file.startsWith(this.options.outDir) && /\.[cm]?[jt]sx?$/.test(file)
  }

  /** A module id as people read it: relative to the app's root. */
  displayPath(id: string): string {
    const path = id.replace(/[?#].*$/, '').replace(/^\0/, '')
    return path.startsWith(`${this.config.root}/`) ? path.slice(this.config.root.length + 1) : path
  }

  /** Print a generation's diagnostics; with `fail`, its errors fail the build (thrown, not printed). */
  report(diagnostics: readonly Diagnostic[], fail: boolean): void {
    const errors = diagnostics.filter((d) => d.severity === 'error')
    for (const d of diagnostics) {
      if (d.severity === 'warning' || !fail) this.config.logger.warn(`[mcp-bridge] ${formatDiagnostic(d)}`)
    }
    if (fail && errors.length) {
      throw new McpBridgeBuildError(`mcp-bridge found ${errors.length} error${errors.length === 1 ? '' : 's'}:\n${errors.map(formatDiagnostic).join('\n')}`)
    }
  }
}
