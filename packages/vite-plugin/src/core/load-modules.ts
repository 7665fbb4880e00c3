/**
 * Loading user modules to get the real zod objects. The core takes a `ModuleLoader`, so tests
 * can inject a fake and the CLI and the plugin share one implementation.
 *
 * The default loader runs a separate Vite server (middleware mode, no HMR, no watcher) and
 * imports through its SSR module runner: path aliases, TypeScript and the app's imports work
 * as in the app, and the loaded modules live in their own module graph, apart from the build's.
 * Each import has a time limit so a module that never settles cannot hang the build.
 */
// A namespace import: linking never fails on an export an older Vite lacks (the plugin's entry
// reaches this module, and must load under Vite 5 to say it is unsupported).
import * as vite from 'vite'
import type { Plugin, ViteDevServer } from 'vite'
import { RUNTIME_MODULE } from './patterns.ts'
import { ModuleLoadTimeoutError, ModuleLoaderUnavailableError } from './errors.ts'

/**
 * How the generator runs app modules to read their real zod schemas: one at a time or told in advance, forgetting changed files, and naming what it evaluated.
 */
export interface ModuleLoader {
  import(file: string): Promise<Record<string, unknown>>
  /**
   * Told, before a generation imports them, the modules it will run: a loader may load them
   * together (`bundle-loader.ts` builds them as bundles) instead of one by one. The first call
   * counts; later calls wait for it. A module it was not told of is still imported, one by one.
   */
  prepare?(files: readonly string[]): Promise<void>
  /** Forget what was loaded from these files and from every module that imports them. */
  invalidate(files: readonly string[]): void
  /** Every app file (outside node_modules) evaluated so far: the inputs of a generation. */
  loadedFiles(): string[]
  /** `file` and every app file it imports, directly or not (once it was imported): what its result depends on. */
  dependencies(file: string): string[]
  close(): Promise<void>
}

/** Set while the loader's own Vite server runs, so `mcpBridge()` in the app's config stays inert there. */
export const LOADER_ENV_FLAG = 'MCP_BRIDGE_LOADING'

export { ModuleLoadTimeoutError } from './errors.ts'

/** The server environment tools load in when the app's SSR environment cannot run them here. */
const TOOLS_ENVIRONMENT = 'mcp_bridge_tools'

/**
 * The loader only runs modules, on demand: no file watcher, no browser dependency
 * pre-bundling. Set from a plugin, last, because merging with the app's config would drop an
 * inline `watch: null` (null means "unset" to mergeConfig) and append to its
 * `optimizeDeps.include` — and a watcher crawling the project keeps the build's process alive
 * for a second after it is done.
 */
const loaderOnly: Plugin = {
  name: 'mcp-bridge:loader-only',
  enforce: 'post',
  config(config) {
    config.server = { ...config.server, middlewareMode: true, hmr: false, ws: false, watch: null }
    config.optimizeDeps = { noDiscovery: true, include: [] }
    // The runtime is a dependency, not app code: Node loads its built JavaScript directly, even
    // when it is linked into a monorepo (which Vite would otherwise transform file by file).
    config.ssr = { ...config.ssr, external: runtimeExternal(config.ssr?.external) }
  },
  configEnvironment(name, config) {
    config.optimizeDeps = { noDiscovery: true, include: [] }
    // Tools' own environment (see `createViteModuleLoader`): the runtime external there too.
    if (name === TOOLS_ENVIRONMENT) config.resolve = { ...config.resolve, external: runtimeExternal(config.resolve?.external) }
  },
  configResolved(config) {
    // This server serves nothing: the app's plugins' server setup (a framework's worker, as
    // Nitro's; a route watcher; middlewares) would only cost time beside the app's own dev server.
    // Their plugin objects are this loader's own (the config was loaded again for it); Vite's own
    // plugins keep theirs (some hold the server they transform with).
    for (const plugin of config.plugins) if (plugin !== loaderOnly && !plugin.name.startsWith('vite:') && plugin.configureServer) plugin.configureServer = undefined
  },
}

/**
 * Options of `createViteModuleLoader`: the per-module time limit.
 */
export interface ModuleLoaderOptions {
  /** Per-module time limit (default 10 s). */
  timeoutMs?: number
  /** The app's Vite config file (default: found in `root`, as Vite does); false for none. */
  configFile?: string | false
  /** How to load that config; the plugin passes what the build itself used (default 'runner'). */
  configLoader?: 'bundle' | 'runner' | 'native'
  /** Told before each module is run (the CLI reports it, so a module that never returns can be named). */
  onImport?: (file: string) => void
}

/** A file of the app (not a dependency, not a virtual module). */
export function isAppFile(file: string): boolean {
  return file.startsWith('/') && !file.includes('/node_modules/')
}

/** Run a module's import under the per-module time limit (its top-level code may wait forever). */
export async function withTimeout<T>(file: string, timeoutMs: number, run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ModuleLoadTimeoutError(file, timeoutMs)), timeoutMs)
  })
  try {
    return await Promise.race([run(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Vite's `ssr.external` with the runtime added: Node loads its built JavaScript itself. */
export function runtimeExternal(external: true | string[] | undefined): true | string[] {
  return external === true ? true : [...(external ?? []), RUNTIME_MODULE]
}

/**
 * A module loader over a Vite server of its own (SSR module runner): the app's aliases, TypeScript and imports work
 * as in the app. What the dev server uses; a cold build uses `createBundledModuleLoader`.
 *
 * @example
 * ```ts
 * import { createViteModuleLoader } from '@mcp-bridge/vite-plugin/core'
 *
 * const loader = await createViteModuleLoader(process.cwd(), { timeoutMs: 20_000 })
 * try {
 *   const module = await loader.import(`${process.cwd()}/src/tools/book-flight/tool.ts`)
 *   console.log(Object.keys(module))
 * } finally {
 *   await loader.close()
 * }
 * ```
 */
export async function createViteModuleLoader(root: string, options: ModuleLoaderOptions = {}): Promise<ModuleLoader> {
  const timeoutMs = options.timeoutMs ?? 10_000
  let server = await loaderServer(root, options, false)
  let env: vite.DevEnvironment | undefined = server.environments.ssr
  if (!env || !vite.isRunnableDevEnvironment(env)) {
    // The app's SSR environment runs elsewhere (Nitro's, as TanStack Start's scaffold sets up,
    // runs in a worker; Cloudflare's in workerd): tools load in a server environment of our own,
    // with the app's config and plugins, that runs in this process.
    await server.close()
    server = await loaderServer(root, options, true)
    env = server.environments[TOOLS_ENVIRONMENT]
  }
  if (!env || !vite.isRunnableDevEnvironment(env)) {
    await server.close()
    throw new ModuleLoaderUnavailableError(
      `Vite could not make a server environment that runs modules in this process (the app's SSR environment does not, and neither did "${TOOLS_ENVIRONMENT}"); mcp-bridge needs one to load tools.`,
    )
  }
  const runnable = env
  return {
    import(file) {
      options.onImport?.(file)
      return withTimeout(file, timeoutMs, () => runnable.runner.import(file) as Promise<Record<string, unknown>>)
    },
    invalidate(files) {
      const evaluated = runnable.runner.evaluatedModules
      const queue = files.flatMap((f) => [...(evaluated.getModulesByFile(f) ?? [])])
      const seen = new Set<string>()
      while (queue.length) {
        const node = queue.pop()!
        if (seen.has(node.id)) continue
        seen.add(node.id)
        evaluated.invalidateModule(node)
        for (const mod of runnable.moduleGraph.getModulesByFile(node.file) ?? []) runnable.moduleGraph.invalidateModule(mod)
        for (const importer of node.importers) {
          const parent = evaluated.getModuleById(importer)
          if (parent) queue.push(parent)
        }
      }
    },
    loadedFiles: () => [...runnable.runner.evaluatedModules.fileToModulesMap.keys()].filter(isAppFile).sort(),
    dependencies(file) {
      const evaluated = runnable.runner.evaluatedModules
      const files = new Set<string>([file])
      const queue = [...(evaluated.getModulesByFile(file) ?? [])]
      const seen = new Set<string>()
      while (queue.length) {
        const node = queue.pop()!
        if (seen.has(node.id)) continue
        seen.add(node.id)
        // Externalized modules (dependencies Node loads itself, the runtime among them) are
        // covered by the versions and the lockfile, not by their files.
        const external = node.meta !== undefined && 'externalize' in node.meta
        if (node.file && !external && isAppFile(node.file)) files.add(node.file)
        for (const id of node.imports) {
          const child = evaluated.getModuleById(id)
          if (child) queue.push(child)
        }
      }
      return [...files].sort()
    },
    close: () => server.close(),
  }
}

/** A Vite server on the app's config, in middleware mode, with our plugin inert; with `ownEnvironment`, a runnable server environment of its own. */
async function loaderServer(root: string, options: ModuleLoaderOptions, ownEnvironment: boolean): Promise<ViteDevServer> {
  const previous = process.env[LOADER_ENV_FLAG]
  process.env[LOADER_ENV_FLAG] = '1'
  try {
    return await vite.createServer({
      root,
      configFile: options.configFile,
      // The runner loader transforms the app's config and what it imports (TypeScript included),
      // so it works where the others may not (a config importing TypeScript workspace packages).
      configLoader: options.configLoader ?? 'runner',
      logLevel: 'silent',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, watch: null, ws: false },
      plugins: [loaderOnly],
      ...(ownEnvironment && {
        environments: {
          [TOOLS_ENVIRONMENT]: { consumer: 'server', dev: { createEnvironment: (name, config) => vite.createRunnableDevEnvironment(name, config) } },
        },
      }),
    })
  } finally {
    if (previous === undefined) delete process.env[LOADER_ENV_FLAG]
    else process.env[LOADER_ENV_FLAG] = previous
  }
}

/**
 * A loader that starts its Vite server only when a module must actually run: when every tool
 * module's result is kept (`module-cache.ts`) — an app whose components changed but whose tools
 * did not — a generation starts no server at all.
 */
export function lazyModuleLoader(create: () => Promise<ModuleLoader>): ModuleLoader & { start(): Promise<void> } {
  let started: Promise<ModuleLoader> | undefined
  let loader: ModuleLoader | undefined
  // Failing to start is the whole run's failure, not each module's: it is thrown as such.
  const start = () =>
    (started ??= create().then(
      (created) => (loader = created),
      (error: unknown) => {
        throw error instanceof ModuleLoaderUnavailableError
          ? error
          : new ModuleLoaderUnavailableError(`The module loader (a Vite server with the app's config) could not start: ${(error as Error).message}`, { cause: error })
      },
    ))
  return {
    /** Start the server now rather than at the first import. */
    async start() {
      await start()
    },
    async import(file) {
      return (await start()).import(file)
    },
    invalidate: (files) => loader?.invalidate(files),
    loadedFiles: () => loader?.loadedFiles() ?? [],
    dependencies: (file) => loader?.dependencies(file) ?? [file],
    async close() {
      const running = started && (await started.catch(() => undefined))
      await running?.close()
    },
  }
}
