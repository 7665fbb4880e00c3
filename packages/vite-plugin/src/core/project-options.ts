/**
 * The options for a project run outside Vite (the CLI, scripts, tests): what `mcpBridge({...})`
 * was given in the app's Vite config, overridden by flags. Reading the config is what keeps the
 * CLI and the plugin generating the same files for the same app.
 */
import * as vite from 'vite'
import { LOADER_ENV_FLAG } from './load-modules.ts'
import { resolveOptions, type McpBridgeOptions, type ResolvedOptions } from './options.ts'

/**
 * What the app's Vite config says: the options given to `mcpBridge({...})` (undefined with no
 * config or no plugin in it) and Vite's cache directory (where the plugin keeps its cache).
 */
export async function readViteConfig(root: string): Promise<{ userOptions: Record<string, unknown> | undefined; cacheDir: string }> {
  const previous = process.env[LOADER_ENV_FLAG]
  // The plugin instance in the config stays inert while we only read its options.
  process.env[LOADER_ENV_FLAG] = '1'
  try {
    const config = await vite.resolveConfig({ root, logLevel: 'silent', configLoader: 'runner' }, 'build')
    const plugin = config.plugins.find((p) => p.name === 'mcp-bridge')
    const user = (plugin?.api as { userOptions?: unknown } | undefined)?.userOptions
    return { userOptions: user && typeof user === 'object' ? (user as Record<string, unknown>) : undefined, cacheDir: config.cacheDir }
  } finally {
    if (previous === undefined) delete process.env[LOADER_ENV_FLAG]
    else process.env[LOADER_ENV_FLAG] = previous
  }
}

/**
 * The options given to `mcpBridge({...})` in the app's Vite config; undefined with no config or no plugin in it.
 *
 * @example
 * ```ts
 * import { optionsFromViteConfig } from '@mcp-bridge/vite-plugin/core'
 *
 * const given = await optionsFromViteConfig(process.cwd()) // what vite.config.ts passes to mcpBridge(), or undefined
 * ```
 */
export async function optionsFromViteConfig(root: string): Promise<Record<string, unknown> | undefined> {
  return (await readViteConfig(root)).userOptions
}

/**
 * Options from the app's Vite config with `overrides` on top, validated (throws `OptionsError`).
 *
 * @example
 * ```ts
 * import { McpBridgeGenerator, createBundledModuleLoader, projectOptions } from '@mcp-bridge/vite-plugin/core'
 *
 * const root = process.cwd()
 * const loader = createBundledModuleLoader(root)
 * try {
 *   const result = await new McpBridgeGenerator(await projectOptions(root, { failOnError: false }), loader).generate()
 *   console.log(`${result.toolCount} tools`)
 * } finally {
 *   await loader.close()
 * }
 * ```
 */
export async function projectOptions(root: string, overrides: McpBridgeOptions = {}): Promise<ResolvedOptions> {
  return (await projectSetup(root, overrides)).options
}

/** `projectOptions`, and the Vite cache directory the CLI shares with the plugin. */
export async function projectSetup(root: string, overrides: McpBridgeOptions = {}): Promise<{ options: ResolvedOptions; cacheDir: string }> {
  const { userOptions, cacheDir } = await readViteConfig(root)
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined))
  return { options: resolveOptions({ ...userOptions, ...defined }, root), cacheDir }
}
