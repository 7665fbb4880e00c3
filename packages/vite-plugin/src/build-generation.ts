/**
 * A build's generation and how the bundler gets the generated files: one generation per build,
 * shared by the client and server environments, skipped when nothing it depends on changed since
 * the last successful one (`core/build-cache.ts`), and not awaited by `buildStart` — `load` and
 * `buildEnd` wait for it, so the bundler works on everything else meanwhile.
 */
import { existsSync } from 'node:fs'
import { fingerprint, readCached, writeCached } from './core/build-cache.ts'
import { McpBridgeBuildError } from './core/errors.ts'
import type { GeneratedFile } from './core/generator.ts'
import type { BridgePluginContext } from './plugin-context.ts'

/** `buildStart`: start this build's generation, unless it runs already. */
export function startBuildGeneration(ctx: BridgePluginContext): void {
  if (ctx.generation) return
  const { options, config } = ctx
  // The app's imports of the registries are answered as soon as discovery knows them, so the
  // bundler goes on with the app while the tools' modules run and are checked. Not with
  // `failOnError: false`, where a generation with errors leaves the files on disk in use.
  let served: GeneratedFile[] | undefined
  let early: (files: GeneratedFile[] | undefined) => void = () => undefined
  ctx.registries = new Promise((resolve) => (early = resolve))
  const onRegistries = options.failOnError === false ? undefined : (files: GeneratedFile[]) => early((served = files))
  const generation = (async () => {
    const print = await fingerprint(options)
    const cached = readCached(config.cacheDir, print)
    ctx.fromCache = cached !== undefined
    if (cached) return cached
    try {
      const result = await ctx.generate(undefined, { ...(onRegistries && { onRegistries }) })
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
      await ctx.closeLoader()
    }
  })()
  ctx.generation = generation
  // Its failure is reported by `load` / `buildEnd`; this only keeps it from being "unhandled".
  generation.catch(() => undefined).finally(() => early(undefined))
}

/** `watchChange` (`vite build --watch`): a changed source means a new generation next build. */
export function forgetBuildGeneration(ctx: BridgePluginContext): void {
  ctx.generation = undefined
  ctx.registries = undefined
  ctx.reported = false
}

/**
 * `load` of a generated file (`path`, its id without query): its content from the generation
 * this build or dev server is on; null when it is not one (or, with errors, not to be served).
 */
export async function loadGenerated(ctx: BridgePluginContext, path: string): Promise<string | null> {
  if (!ctx.generation) {
    // Dev: the first generation writes it; wait for that instead of failing the import.
    if (!ctx.generatedPaths().includes(path) || existsSync(path)) return null
    await ctx.idle()
    return ctx.lastResult?.files.find((f) => f.path === path)?.content ?? null
  }
  const known = (await ctx.registries)?.find((f) => f.path === path)
  if (known) return known.content
  const result = await ctx.generation
  const file = result.files.find((f) => f.path === path)
  if (!file) return null
  // With errors nothing was written; the build fails in buildEnd (or, with failOnError: false,
  // goes on with the files on disk). With no file on disk either (never generated), the errors
  // are the story: say them here, at file:line.
  if (result.diagnostics.some((d) => d.severity === 'error')) {
    if (!existsSync(path)) {
      ctx.reported = true
      ctx.report(result.diagnostics, true)
    }
    return null
  }
  return file.content
}

/** `buildEnd`: report the generation's diagnostics once; errors fail the build here. */
export async function reportBuildGeneration(ctx: BridgePluginContext): Promise<void> {
  if (!ctx.generation) return
  const result = await ctx.generation
  if (ctx.reported) return
  ctx.reported = true
  ctx.report(result.diagnostics, ctx.options.failOnError ?? true)
}
