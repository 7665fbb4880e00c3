/**
 * The plugin's side of MCP Apps views in a build:
 *   - a view build resolves and loads its virtual entry (`view-build.ts` has the rest);
 *   - the server build gets, in place of `@mcp-bridge/vite-plugin/app-views`, a module that reads
 *     the built views from `<outDir>/mcp-apps/` (so the production server needs no Vite);
 *   - `vite build` (with `server`) builds every view into `<outDir>/mcp-apps/<tool>.html`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import type { ResolvedConfig } from 'vite'
import { builtAppViewsModule, VIEWS_DIR_PLACEHOLDER } from './app-views.ts'
import type { Manifest } from './core/codegen.ts'
import type { GenerateResult } from './core/generator.ts'
import type { ResolvedOptions } from './core/options.ts'
import { buildAppView, RESOLVED_VIEW_ENTRY_ID, VIEW_ENTRY_ID, viewEntryCode, viewFileName, type ViewBuildMark } from './view-build.ts'

export const APP_VIEWS_MODULE = '@mcp-bridge/vite-plugin/app-views'
const RESOLVED_BUILT_VIEWS_ID = '\0virtual:mcp-bridge/app-views'

export function resolveViewModules(id: string, context: { view: ViewBuildMark | undefined; building: boolean }): string | undefined {
  if (id === VIEW_ENTRY_ID && context.view) return RESOLVED_VIEW_ENTRY_ID
  if (id === APP_VIEWS_MODULE && context.building) return RESOLVED_BUILT_VIEWS_ID
  return undefined
}

export function loadViewModules(id: string, options: ResolvedOptions, view: ViewBuildMark | undefined): string | undefined {
  if (id === RESOLVED_BUILT_VIEWS_ID) return builtAppViewsModule()
  if (id !== RESOLVED_VIEW_ENTRY_ID || !view) return undefined
  const manifest = JSON.parse(readFileSync(join(options.outDir, options.manifest), 'utf8')) as Manifest
  return viewEntryCode(options.root, manifest, view)
}

/** Where `vite build` writes the views: `<outDir>/mcp-apps/`, beside `client/` and `server/`. */
export function viewsOutDir(serverOutDir: string): string {
  return join(serverOutDir, '..', 'mcp-apps')
}

/** A server chunk holding the built-views module: the path from that chunk to the views, written in. */
export function placeViewsDir(code: string, chunkFile: string, serverOutDir: string): string | undefined {
  if (!code.includes(VIEWS_DIR_PLACEHOLDER)) return undefined
  const path = relative(dirname(join(serverOutDir, chunkFile)), viewsOutDir(serverOutDir)).replace(/\\/g, '/')
  return code.replaceAll(VIEWS_DIR_PLACEHOLDER, `${path.startsWith('.') ? path : `./${path}`}/`)
}

/** `vite build`: every plugin's view, one after another (each is a build of its own). */
export async function buildViewFiles(input: { result: GenerateResult | undefined; options: ResolvedOptions; config: ResolvedConfig; outDir: string }): Promise<void> {
  const { result, options, config, outDir } = input
  if (!result || result.diagnostics.some((d) => d.severity === 'error')) return
  const tools = (JSON.parse(result.manifest) as Manifest).tools.filter((t) => t.plugin).map((t) => t.name)
  mkdirSync(outDir, { recursive: true })
  for (const tool of tools) {
    const built = await buildAppView({
      root: options.root,
      tool,
      include: options.apps?.include ?? [],
      configFile: config.configFile ?? false,
      mode: config.mode,
      logger: config.logger,
    })
    const file = join(outDir, viewFileName(tool))
    writeFileSync(file, built.html)
    const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`
    config.logger.info(`[mcp-bridge] MCP Apps view ${relative(config.root, file)}  ${kb(Buffer.byteLength(built.html))} │ gzip: ${kb(gzipSync(built.html).byteLength)}`)
  }
}
