/**
 * The options for a project run outside Vite (the CLI, scripts, tests): what `mcpBridge({...})`
 * was given in the app's Vite config, overridden by flags. Reading the config is what keeps the
 * CLI and the plugin generating the same files for the same app.
 */
import { resolveConfig } from 'vite'
import { LOADER_ENV_FLAG } from './load-modules.ts'
import { resolveOptions, type McpBridgeOptions, type ResolvedOptions } from './options.ts'

/** The options given to `mcpBridge({...})` in the app's Vite config; undefined with no config or no plugin in it. */
export async function optionsFromViteConfig(root: string): Promise<Record<string, unknown> | undefined> {
  const previous = process.env[LOADER_ENV_FLAG]
  // The plugin instance in the config stays inert while we only read its options.
  process.env[LOADER_ENV_FLAG] = '1'
  try {
    const config = await resolveConfig({ root, logLevel: 'silent', configLoader: 'runner' }, 'build')
    const plugin = config.plugins.find((p) => p.name === 'mcp-bridge')
    const user = (plugin?.api as { userOptions?: unknown } | undefined)?.userOptions
    return user && typeof user === 'object' ? (user as Record<string, unknown>) : undefined
  } finally {
    if (previous === undefined) delete process.env[LOADER_ENV_FLAG]
    else process.env[LOADER_ENV_FLAG] = previous
  }
}

/** Options from the app's Vite config with `overrides` on top, validated (throws `McpBridgeOptionsError`). */
export async function projectOptions(root: string, overrides: McpBridgeOptions = {}): Promise<ResolvedOptions> {
  const fromConfig = await optionsFromViteConfig(root)
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined))
  return resolveOptions({ ...fromConfig, ...defined }, root)
}
