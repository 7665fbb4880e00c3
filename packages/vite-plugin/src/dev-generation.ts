/**
 * Generation in `vite dev`: a `GenerationSession` fed by the dev server's watcher, each result's
 * new diagnostics printed to the terminal (and how many went), errors shown in the browser's
 * overlay (also to a page that connects while they stand), and the dev panel's link printed with
 * the server's URLs.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ViteDevServer } from 'vite'
import { CLIENT_REGISTRY } from './core/codegen.ts'
import { formatDiagnostic, type Diagnostic } from './core/diagnostics.ts'
import { GenerationSession } from './core/generation-session.ts'
import { listSources } from './core/source-files.ts'
import { PANEL_PATH } from './dev-panel/panel-routes.ts'
import type { BridgePluginContext } from './plugin-context.ts'
import { watcherReady } from './watcher-ready.ts'

/**
 * Start generating for the dev server. Resolves (for `configureServer` to wait on) only on a clone
 * without the registries: they are written before the server starts, so Vite's dependency scan
 * follows them (else the first page loads, finds new dependencies, and reloads with "Outdated
 * Optimize Dep" errors in its console).
 */
export function generateInDev(ctx: BridgePluginContext, server: ViteDevServer): Promise<void> | undefined {
  const { options } = ctx
  const logger = server.config.logger
  const printUrls = server.printUrls.bind(server)
  server.printUrls = () => {
    printUrls()
    const url = server.resolvedUrls?.local[0]
    if (url) logger.info(`  \u279c  mcp-bridge: ${url.replace(/\/$/, '')}${PANEL_PATH}  (tools, diagnostics, calls)`)
  }
  const failOnError = options.failOnError ?? false
  // The first generation usually ends before any page is open: a page that connects while errors
  // stand gets them too (not only after the next edit).
  let overlay: { message: string; stack: string; plugin: string } | undefined
  const printChanges = diagnosticPrinter(server)
  const dev = new GenerationSession({
    list: () => listSources(options),
    generate: ({ files, changed, incremental }) => ctx.generate(changed, { incremental, ...(files && { files }) }),
    onResult(result, first) {
      // Edits are re-run by the module runner: have it ready before the first one.
      if (first) ctx.loader?.warm().catch((error: unknown) => logger.warn(`[mcp-bridge] the module loader could not start: ${(error as Error).message}`))
      const errors = result.diagnostics.filter((d) => d.severity === 'error')
      printChanges(result.diagnostics)
      overlay = errors.length
        ? { message: `mcp-bridge: ${errors.map(formatDiagnostic).join('\n')}\n\nEvery tool and diagnostic: ${PANEL_PATH} on this server.`, stack: '', plugin: 'mcp-bridge' }
        : undefined
      if (overlay) {
        server.ws.send({ type: 'error', err: overlay })
        if (failOnError) logger.error('[mcp-bridge] failOnError is set; fix the errors above')
      }
    },
    onError: (error) => logger.error(`[mcp-bridge] generation failed: ${error.message}`),
  })
  ctx.session = dev
  server.ws.on('connection', () => overlay && server.ws.send({ type: 'error', err: overlay }))
  for (const event of ['add', 'change', 'unlink'] as const) server.watcher.on(event, (file: string) => void (ctx.relevant(file) && dev.run([file])))
  const first = dev.run()
  // No change may be lost before the watcher's first scan ends: the session compares the files
  // with the listing its first generation used, once the watcher reports everything.
  ctx.watching = watcherReady(server.watcher).then(() => dev.catchUp())
  ctx.watching.catch((error: unknown) => logger.error(`[mcp-bridge] watching failed: ${(error as Error).message}`))
  if (!existsSync(join(options.outDir, CLIENT_REGISTRY))) return first.catch(() => undefined)
  return undefined
}

/** Each edit regenerates: the terminal gets what changed (new problems, and how many went), not every standing diagnostic again. */
function diagnosticPrinter(server: ViteDevServer): (diagnostics: readonly Diagnostic[]) => void {
  let printed = new Set<string>()
  return (diagnostics) => {
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
}
