/**
 * `@mcp-bridge/vite-plugin/app-views` — the MCP Apps views of the app's plugins, for
 * `createMcpServer({ apps: { views } })`. The generated `server.gen.ts` exports them as
 * `appViews` when `mcpBridge({ apps })` is on; you do not call `appViewsOf` yourself.
 *
 * Where the HTML comes from depends on where the server runs:
 *   - built by `vite build` (`server` option): the mcp-bridge plugin replaces this module in the
 *     server bundle with one that reads `<outDir>/mcp-apps/<tool>.html` — no Vite at run time;
 *   - anywhere else (`vite dev`, a stdio script under tsx): each view is built with Vite on its
 *     first request and again when a file it was built from changed.
 *
 * @module
 */
import { fileURLToPath } from 'node:url'
import type { McpAppViewSource } from '@mcp-bridge/runtime/mcp'
import type { BuiltView } from './view-build.ts'

/**
 * Where the app is and which tools have MCP Apps views, as the generated `server.gen.ts` passes it to `appViewsOf`.
 */
export interface AppViewsSpec {
  /** The app's root, relative to the generated file. */
  root: string
  /** Tools with a view. */
  tools: readonly string[]
  /** `apps.include` of the plugin's options, relative to the root. */
  include?: readonly string[]
}

/**
 * Each tool's view, built on first request from the app at `spec.root` (relative to `generatedFile`).
 *
 * @example
 * ```ts
 * // what the generated server.gen.ts holds with `mcpBridge({ apps: true })`
 * import { appViewsOf } from '@mcp-bridge/vite-plugin/app-views'
 *
 * export const appViews = appViewsOf(import.meta.url, { root: '../..', tools: ['book_flight'] })
 * ```
 */
export function appViewsOf(generatedFile: string, spec: AppViewsSpec): Record<string, McpAppViewSource> {
  const root = fileURLToPath(new URL(spec.root.endsWith('/') ? spec.root : `${spec.root}/`, generatedFile))
  const built = new Map<string, BuiltView>()
  const building = new Map<string, Promise<BuiltView>>()
  const view = (tool: string) => async () => {
    const { buildAppView, isStale } = await import('./view-build.ts')
    const ready = built.get(tool)
    if (ready && !isStale(ready)) return ready.html
    // Concurrent requests share one build; a failed build is not kept, so the next request
    // tries again (after the fix).
    let pending = building.get(tool)
    if (!pending) {
      pending = buildAppView({ root, tool, ...(spec.include && { include: spec.include }) })
      building.set(tool, pending)
      pending
        .then(
          (done) => built.set(tool, done),
          () => undefined,
        )
        .finally(() => building.delete(tool))
    }
    return (await pending).html
  }
  return Object.fromEntries(spec.tools.map((tool) => [tool, view(tool)]))
}

/**
 * Stands for the path from the chunk that ends up holding the module below to the built views;
 * the plugin writes the real one in when the server chunk is rendered (its place is known only then).
 */
export const VIEWS_DIR_PLACEHOLDER = '__MCP_BRIDGE_APP_VIEWS_DIR__/'

/**
 * The module that replaces this one in a server built by `vite build`: it reads the built views.
 *
 * @example
 * ```ts
 * import { builtAppViewsModule } from '@mcp-bridge/vite-plugin/app-views'
 *
 * const source = builtAppViewsModule() // the module a server build uses in place of app-views
 * ```
 */
export function builtAppViewsModule(): string {
  return [
    `import { readFile } from 'node:fs/promises'`,
    `export function appViewsOf(_generatedFile, spec) {`,
    `  const dir = new URL(${JSON.stringify(VIEWS_DIR_PLACEHOLDER)}, import.meta.url)`,
    `  return Object.fromEntries(spec.tools.map((tool) => [tool, () => readFile(new URL(encodeURIComponent(tool) + '.html', dir), 'utf8')]))`,
    `}`,
    '',
  ].join('\n')
}
