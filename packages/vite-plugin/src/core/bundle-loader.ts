/**
 * Loading a generation's tool modules together. Run one by one through Vite's module runner, a
 * tool module costs ~1.8 ms (its own fetch, plugin pipeline, TypeScript transform and SSR
 * rewrite in JavaScript, and two dynamic imports of its dependencies): 1,000 tools took 1.8 s.
 * Here every module a generation must run is built as SSR bundles — rolldown, with the app's
 * Vite config and plugins, so aliases, TypeScript and the app's imports resolve as in the app —
 * of up to `BATCH_SIZE` modules each, and each bundle is imported once: ~0.5 s for the same 1,000.
 *
 * Each module stays its own unit. A bundle is a single chunk in which every module is a lazy
 * initializer (`codeSplitting: false` inlines dynamic imports that way), and the entry maps each
 * file to `() => import(file)`: a module runs only when the generation imports it, its top-level
 * error rejects only its own import (and again for every importer, as in the module runner), and
 * the per-module time limit still names the module whose top-level code never settles.
 *
 * Whatever the bundle cannot answer goes to the module runner (`load-modules.ts`), started only
 * then: a module that does not build (a syntax error, an import that does not resolve) fails the
 * whole bundling, so the runner loads every module and reports each one's own error; and in dev a
 * changed file (or a file that imports it) is re-run by the runner, as before (`warm()` starts it
 * ahead of the first edit). The bundle is built once per loader, so a long dev session does not
 * pile up chunks in memory.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
// A namespace import: linking never fails on an export an older Vite lacks (see load-modules.ts).
import * as vite from 'vite'
import type { BuildEnvironmentOptions, Plugin, ViteBuilder } from 'vite'
import { bundlerOptions, onRolldown } from './bundler.ts'
import { OptionsError } from './errors.ts'
import { createViteModuleLoader, isAppFile, lazyModuleLoader, LOADER_ENV_FLAG, runtimeExternal, withTimeout, type ModuleLoader, type ModuleLoaderOptions } from './load-modules.ts'

/**
 * Options of `createBundledModuleLoader`: how many modules per bundle, where the bundles are written, and the loader's options.
 */
export interface BundledModuleLoaderOptions extends ModuleLoaderOptions {
  /**
   * Where the bundle is written while the loader lives (default `<root>/node_modules/.mcp-bridge`):
   * inside the app, so Node resolves its dependencies from there. Removed as soon as it is
   * imported, and so is each folder of that path the loader had to create, once empty.
   */
  scratchDir?: string
  /** Modules per bundle (default 250; see `BATCH_SIZE`). */
  batchSize?: number
}

/** What the bundle did, for tests and benchmarks. */
export interface BundleStats {
  /** Modules the bundle answers for. */
  bundled: number
  /** Why the bundle could not be used (every module then ran through the module runner). */
  fellBack: string | undefined
}

/**
 * A `ModuleLoader` that bundles the tool modules first (in batches) and runs the bundles.
 */
export type BundledModuleLoader = ModuleLoader & {
  readonly stats: BundleStats
  /**
   * Start the module runner now (~0.1 s), not when the first changed file needs it: a dev server
   * calls this after its first generation, so the first edit's regeneration does not wait for it.
   */
  warm(): Promise<void>
}

const ENTRY = 'virtual:mcp-bridge/load-all'
const RESOLVED_ENTRY = `\0${ENTRY}`
const CHUNK = 'load-all.mjs'
/**
 * Modules per build. One build of 3,000 tool modules held ~270 MiB of the bundler's memory at
 * once; batches of 250 hold a twelfth of that, and cost no more time: each build after the first
 * reuses the resolved config, and runs while the previous batch's modules run. Measured at 1,000
 * and 3,000 tools: 250 as fast as 500 with 10–25 MiB less at the peak; 125 ~5–10 % slower. A module
 * imported by tools of several batches is evaluated once in each (as in separate processes); a
 * tool module itself runs once.
 */
const BATCH_SIZE = 250
/** `import.meta.url` and friends as the module runner gives them: the module's own file, not the bundle's. */
const IMPORT_META_FILE = /\bimport\.meta\.(url|filename|dirname)\b/

type Loaders = Record<string, () => Promise<Record<string, unknown>>>

/**
 * A module loader for a cold generation (`vite build`, `mcp-bridge check`): the tool modules are bundled together,
 * 250 to a bundle by default, and run from the bundles — much faster than one module at a time. A
 * generation starts on the first bundle's modules while the next ones build.
 *
 * @example
 * ```ts
 * import { createBundledModuleLoader } from '@mcp-bridge/vite-plugin/core'
 *
 * const loader = createBundledModuleLoader(process.cwd(), { batchSize: 200 })
 * await loader.close()
 * ```
 */
export function createBundledModuleLoader(root: string, options: BundledModuleLoaderOptions = {}): BundledModuleLoader {
  const timeoutMs = options.timeoutMs ?? 10_000
  const batchSize = options.batchSize ?? BATCH_SIZE
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new OptionsError('createBundledModuleLoader', { option: 'batchSize', problem: `batchSize must be a whole number of modules, at least 1 (got ${String(batchSize)}).` })
  const scratchDir = options.scratchDir ?? join(root, 'node_modules', '.mcp-bridge')
  const runner = lazyModuleLoader(() => createViteModuleLoader(root, options))
  /** The one bundling (see `ModuleLoader.prepare`): later calls wait for it. */
  let preparing: Promise<void> | undefined
  let outDir: string | undefined
  /** Each bundled file's batch: its loaders once the batch is built and imported (undefined: it could not be). */
  const batchOf = new Map<string, Promise<Loaders | undefined>>()
  /** The batches' builds, one after another: the bundler holds one batch at a time. */
  let builds: Promise<void> = Promise.resolve()
  /** Files the bundle answers for (a changed file leaves this set for the runner). */
  const bundled = new Set<string>()
  /** Every app module in the bundle → the app modules it imports. */
  const graph = new Map<string, string[]>()
  const stats: BundleStats = { bundled: 0, fellBack: undefined }

  /** Folders of the scratch path that did not exist before (removed on close when empty, innermost first). */
  const created: string[] = []

  function removeScratch(): void {
    if (outDir) rmSync(outDir, { recursive: true, force: true })
    for (const dir of created) {
      // Another loader may be using the folder (a second build, a dev server): only an empty one goes.
      if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir)
    }
  }

  /**
   * Builds the batches one after another and resolves once the first is ready: the generation runs
   * that batch's modules (JavaScript, on this thread) while the bundler builds the next (mostly on
   * its own threads), instead of waiting for every batch first.
   */
  async function bundle(files: readonly string[]): Promise<void> {
    for (let dir = scratchDir; !existsSync(dir) && dir !== dirname(dir); dir = dirname(dir)) created.push(dir)
    sweepDeadLoaders(scratchDir)
    const out = (outDir = join(scratchDir, `load-${process.pid}-${randomBytes(4).toString('hex')}`))
    const setup: BundleSetup = { entry: '', outDir: out, graph, onConfigResolved: () => undefined }
    const previous = process.env[LOADER_ENV_FLAG]
    const restoreFlag = (setup.onConfigResolved = () => {
      if (previous === undefined) delete process.env[LOADER_ENV_FLAG]
      else process.env[LOADER_ENV_FLAG] = previous
    })
    // `mcpBridge()` in the app's config stays inert while that config is loaded for this build.
    process.env[LOADER_ENV_FLAG] = '1'
    let builder: ViteBuilder
    try {
      // The app's config is loaded once; each batch is one more build of the same environment.
      builder = await vite.createBuilder(
        {
          root,
          configFile: options.configFile,
          configLoader: options.configLoader ?? 'runner',
          logLevel: 'silent',
          clearScreen: false,
          publicDir: false,
          plugins: [bundleOnly(setup)],
        },
        true,
      )
    } finally {
      restoreFlag()
    }
    const environment = Object.values(builder.environments)[0]!
    async function build(batch: readonly string[], start: number): Promise<Loaders> {
      setup.entry = `export const loaders = {\n${batch.map((f) => `  ${JSON.stringify(f)}: () => import(${JSON.stringify(f)}),`).join('\n')}\n}\n`
      await builder.build(environment)
      try {
        // Each batch's chunk has the same path: the query makes it a module of its own for Node.
        return ((await import(`${pathToFileURL(join(out, CHUNK)).href}?batch=${start}`)) as { loaders: Loaders }).loaders
      } finally {
        // Once imported, every module runs from memory (its externals resolve by package name,
        // not from the file): the bundle goes now, so a dev server stopped with Ctrl-C, which
        // never closes its plugins, leaves nothing behind.
        removeScratch()
      }
    }
    let first: Promise<Loaders | undefined> | undefined
    for (let start = 0; start < files.length; start += batchSize) {
      const batch = files.slice(start, start + batchSize)
      const built = builds.then(() => build(batch, start))
      builds = built.then(noop, noop)
      const ready = built.then(
        (loaders) => {
          for (const file of batch) bundled.add(file)
          stats.bundled += batch.length
          return loaders
        },
        (error: unknown) => {
          // A batch that does not build (a syntax error, an import that does not resolve): its
          // modules go to the runner, which reports each one's own error.
          stats.fellBack ??= stripVTControlCharacters((error as Error).message)
          return undefined
        },
      )
      for (const file of batch) batchOf.set(file, ready)
      first ??= ready
    }
    await first
  }

  /** `file` and every app module it imports in the bundle, directly or not. */
  function bundleDependencies(file: string): string[] {
    const files = new Set<string>([file])
    const queue = [file]
    while (queue.length) {
      for (const next of graph.get(queue.pop()!) ?? []) {
        if (files.has(next)) continue
        files.add(next)
        queue.push(next)
      }
    }
    return [...files].sort()
  }

  return {
    stats,
    warm: () => runner.start(),
    prepare(files) {
      if (files.length === 0) return preparing ?? Promise.resolve()
      preparing ??= bundle(files).catch((error: unknown) => {
        // No bundler at all (the app's config does not load): the runner loads every module and
        // reports each one's own failure.
        stats.fellBack = stripVTControlCharacters((error as Error).message)
        batchOf.clear()
      })
      return preparing
    },
    async import(file) {
      const loaders = await batchOf.get(file)
      const load = bundled.has(file) ? loaders?.[file] : undefined
      if (!load) return runner.import(file)
      options.onImport?.(file)
      return withTimeout(file, timeoutMs, load)
    },
    invalidate(files) {
      const changed = new Set(files)
      for (const file of [...bundled]) if (bundleDependencies(file).some((f) => changed.has(f))) bundled.delete(file)
      runner.invalidate(files)
    },
    loadedFiles() {
      const fromBundle = bundled.size ? [...graph.keys()] : []
      return [...new Set([...fromBundle, ...runner.loadedFiles()])].sort()
    },
    dependencies(file) {
      return bundled.has(file) ? bundleDependencies(file) : runner.dependencies(file)
    },
    async close() {
      // A batch still building writes into the scratch folder: let it finish first.
      await builds
      removeScratch()
      await runner.close()
    },
  }
}

/** Bundles of loaders whose process is gone (killed between building and importing): nobody will remove them otherwise. */
function sweepDeadLoaders(scratchDir: string): void {
  if (!existsSync(scratchDir)) return
  for (const name of readdirSync(scratchDir)) {
    const pid = Number(/^load-(\d+)-[0-9a-f]+$/.exec(name)?.[1])
    if (pid && !processAlive(pid)) rmSync(join(scratchDir, name), { recursive: true, force: true })
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The build this loader needs from the app's config: the SSR environment, one entry of lazy
 * module initializers, one chunk, nothing else written (no public dir, manifest or minifying).
 * Set from a plugin, last, for the same reason as the module runner's (`load-modules.ts`).
 */
function bundleBuild(build: BuildEnvironmentOptions | undefined, outDir: string): BuildEnvironmentOptions {
  const options = bundlerOptions(
    { ...(onRolldown ? build?.rolldownOptions : build?.rollupOptions), input: { 'load-all': ENTRY }, output: { format: 'esm', entryFileNames: '[name].mjs' } },
    { single: true },
  )
  return {
    ...build,
    ssr: true,
    lib: false,
    outDir,
    emptyOutDir: true,
    write: true,
    minify: false,
    sourcemap: false,
    copyPublicDir: false,
    manifest: false,
    ssrManifest: false,
    reportCompressedSize: false,
    watch: null,
    ...options,
  }
}

/** What one loader's builds share with its plugin; `entry` changes with each batch. */
interface BundleSetup {
  entry: string
  outDir: string
  graph: Map<string, string[]>
  onConfigResolved: () => void
}

function bundleOnly(setup: BundleSetup): Plugin {
  return {
    name: 'mcp-bridge:bundle-loader',
    enforce: 'post',
    // Top level: the legacy `build()` picks the SSR environment from `build.ssr`; and again on
    // that environment, which an app's own `environments.ssr.build` would otherwise override.
    config(config) {
      config.ssr = { ...config.ssr, external: runtimeExternal(config.ssr?.external) }
      config.build = bundleBuild(config.build, setup.outDir)
    },
    configEnvironment(name, config) {
      if (name === 'ssr') config.build = bundleBuild(config.build, setup.outDir)
    },
    configResolved() {
      setup.onConfigResolved()
    },
    resolveId: {
      filter: { id: new RegExp(`^${ENTRY}$`) },
      handler: () => RESOLVED_ENTRY,
    },
    load: {
      filter: { id: new RegExp(`^\\0${ENTRY}$`) },
      handler: () => setup.entry,
    },
    transform: {
      filter: { code: IMPORT_META_FILE },
      handler(code, id) {
        if (!isAppFile(id)) return null
        const url = pathToFileURL(id)
        const values = { url: url.href, filename: id, dirname: id.slice(0, id.lastIndexOf('/')) }
        return { code: code.replace(new RegExp(IMPORT_META_FILE, 'g'), (_, prop: keyof typeof values) => JSON.stringify(values[prop])), map: null }
      },
    },
    buildEnd() {
      for (const id of this.getModuleIds()) {
        if (!isAppFile(id)) continue
        const info = this.getModuleInfo(id)
        setup.graph.set(id, [...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])].filter(isAppFile))
      }
    },
  }
}

function noop(): void {}
