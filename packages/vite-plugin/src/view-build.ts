/**
 * MCP Apps views (`mcpBridge({ apps: true })`): one self-contained HTML document per plugin — its
 * `onElicit` handlers and components, React, and `mountMcpAppView` from the runtime — that a host
 * renders in a sandboxed iframe with no network. Each view is its own Vite build of the app's own
 * config (so the app's plugins, JSX settings and aliases apply), marked as a view build: the
 * mcp-bridge plugin in it then builds nothing but that view (`viewBuildConfig`), from a virtual
 * entry, into one script; `assembleViewHtml` inlines the script and the styles into the page.
 *
 * We write the page ourselves instead of rewriting an HTML entry (vite-plugin-singlefile's
 * approach): there is no HTML to start from, and the document is five lines.
 */
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import type { InlineConfig, Logger, Rolldown, UserConfig } from 'vite'
import { McpBridgeBuildError } from './core/errors.ts'
import { bundlerOptions } from './core/bundler.ts'
import type { Manifest } from './core/codegen.ts'

/** Where the marker sits in the inline config of a view build. */
export const VIEW_BUILD_KEY = '__mcpBridgeView'
export const VIEW_ENTRY_ID = 'virtual:mcp-bridge/app-view-entry'
export const RESOLVED_VIEW_ENTRY_ID = `\0${VIEW_ENTRY_ID}`

export interface ViewBuildMark {
  tool: string
  /** Modules every view imports first (`apps.include`: the app's stylesheet, say), absolute. */
  include: readonly string[]
}

export interface BuiltView {
  tool: string
  html: string
  /** Files the view was built from, with their modification times (to know when it is stale). */
  inputs: ReadonlyMap<string, number>
}

export function viewMarkOf(config: UserConfig): ViewBuildMark | undefined {
  return (config as Record<string, unknown>)[VIEW_BUILD_KEY] as ViewBuildMark | undefined
}

/** What the mcp-bridge plugin in a view build lays out: one client build, one script, nothing written. */
export function viewBuildConfig(): UserConfig {
  return {
    publicDir: false,
    build: {
      write: false,
      emptyOutDir: false,
      copyPublicDir: false,
      cssCodeSplit: false,
      modulePreload: false,
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      assetsInlineLimit: () => true,
      ...bundlerOptions({ input: VIEW_ENTRY_ID, output: { format: 'es' } }, { single: true }),
    },
  }
}

/** The view's entry: the app's includes, the plugin, and the mount. */
export function viewEntryCode(root: string, manifest: Manifest, mark: ViewBuildMark): string {
  const tool = manifest.tools.find((t) => t.name === mark.tool)
  if (!tool?.plugin) {
    throw new McpBridgeBuildError(
      `mcp-bridge: no view can be built for "${mark.tool}": ${tool ? 'it has no plugin (createPlugin(tool).onElicit({...}))' : 'no such tool in the manifest'}.`,
    )
  }
  const plugin = JSON.stringify(resolve(root, tool.plugin.file))
  return [
    ...mark.include.map((file) => `import ${JSON.stringify(file)}`),
    `import { mountMcpAppView } from '@mcp-bridge/runtime/app-view'`,
    tool.plugin.export === 'default' ? `import plugin from ${plugin}` : `import { ${tool.plugin.export} as plugin } from ${plugin}`,
    `mountMcpAppView(plugin.client)`,
    '',
  ].join('\n')
}

/** The page: the styles and the script inlined (a `</script` inside the script must not end it). */
export function assembleViewHtml(tool: string, bundle: Rolldown.OutputBundle): string {
  const chunks = Object.values(bundle).filter((o): o is Rolldown.OutputChunk => o.type === 'chunk')
  const entry = chunks.find((c) => c.isEntry)
  if (!entry || chunks.length !== 1) throw new McpBridgeBuildError(`mcp-bridge: the view of "${tool}" must build to one script; got ${chunks.length}.`)
  const css = Object.values(bundle)
    .filter((o): o is Rolldown.OutputAsset => o.type === 'asset' && o.fileName.endsWith('.css'))
    .map((a) => String(a.source))
    .join('\n')
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${tool.replace(/[<>&]/g, '')}</title>`,
    `<style>${BASE_STYLE}${css.replace(/<\/style/gi, '<\\/style')}</style>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    `<script type="module">${entry.code.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--')}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

/** The view's own frame: transparent, the host's font, no margin (hosts draw the border). */
const BASE_STYLE = 'html,body{margin:0;background:transparent}.mcp-app-view{padding:8px;font:inherit}.mcp-app-title{font-size:1rem;margin:0 0 8px}.mcp-app-error{color:#b3261e}'

export interface BuildViewOptions {
  root: string
  tool: string
  include?: readonly string[]
  /** The app's Vite config file; default: found in `root` as Vite does. */
  configFile?: string | false
  mode?: string
  /** Vite's logs; default: warnings and errors to stderr (stdout may be an MCP stdio stream). */
  logger?: Logger
}

/** Build one view: a Vite build of the app's config, marked as a view build. */
export async function buildAppView(options: BuildViewOptions): Promise<BuiltView> {
  const vite = await import('vite')
  const mark: ViewBuildMark = { tool: options.tool, include: (options.include ?? []).map((f) => resolve(options.root, f)) }
  const inline: InlineConfig & Record<string, unknown> = {
    root: options.root,
    mode: options.mode ?? 'production',
    configFile: options.configFile,
    logLevel: 'warn',
    customLogger: options.logger ?? stderrLogger(vite.createLogger('warn')),
    [VIEW_BUILD_KEY]: mark,
  }
  const output = (await vite.build(inline)) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[]
  const outputs = Array.isArray(output) ? output : [output]
  const html = outputs.flatMap((o) => o.output).find((o) => o.type === 'asset' && o.fileName === viewFileName(options.tool))
  if (!html || html.type !== 'asset') throw new McpBridgeBuildError(`mcp-bridge: the build of the view of "${options.tool}" produced no page.`)
  const inputs = new Map<string, number>()
  for (const o of outputs.flatMap((x) => x.output)) {
    if (o.type !== 'chunk') continue
    for (const id of o.moduleIds) {
      if (id.startsWith('\0') || id.includes('/node_modules/')) continue
      const file = id.replace(/[?#].*$/, '')
      try {
        inputs.set(file, statSync(file).mtimeMs)
      } catch {
        // virtual or gone: not a file to watch
      }
    }
  }
  return { tool: options.tool, html: String(html.source), inputs }
}

export function viewFileName(tool: string): string {
  return `${tool}.html`
}

/** Whether any file a view was built from changed since. */
export function isStale(view: BuiltView): boolean {
  for (const [file, mtime] of view.inputs) {
    try {
      if (statSync(file).mtimeMs !== mtime) return true
    } catch {
      return true
    }
  }
  return false
}

function stderrLogger(base: Logger): Logger {
  const toStderr = (msg: string) => process.stderr.write(`${msg}\n`)
  return { ...base, info: () => {}, warn: toStderr, warnOnce: toStderr, error: toStderr }
}
