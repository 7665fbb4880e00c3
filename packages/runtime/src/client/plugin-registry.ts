/**
 * Client-side lookup of plugins by tool name. Registering two plugins for one tool is an error
 * naming both, because silently picking one would make a tool's UI depend on import order.
 */
import type { PluginClientRegistration } from '../plugin/types.ts'
import { DuplicatePluginError } from '../errors/browser-errors.ts'
import { PluginRegistrationError } from '../errors/browser-errors.ts'

/**
 * The plugins a chat client knows, by tool name.
 */
export interface PluginRegistry {
  register(plugin: PluginClientRegistration): void
  get(toolName: string): PluginClientRegistration | undefined
  has(toolName: string): boolean
  list(): PluginClientRegistration[]
}

/**
 * A registry of plugins' client parts; two for one tool are refused (`DuplicatePluginError`).
 *
 * @example
 * ```ts
 * import { createPluginRegistry } from '@mcp-bridge/runtime/client'
 * import { clientPlugins } from './mcp-bridge/client.gen.ts'
 *
 * const registry = createPluginRegistry(clientPlugins)
 * registry.has('book_flight') // true when its plugin file exists
 * ```
 */
export function createPluginRegistry(plugins: readonly PluginClientRegistration[] = []): PluginRegistry {
  const byName = new Map<string, { plugin: PluginClientRegistration; position: number }>()
  let count = 0
  const describe = (plugin: PluginClientRegistration, position: number) => {
    const keys = Object.keys(plugin.handlers)
    return `registration #${position} (handlers: ${keys.length ? keys.join(', ') : 'none'})`
  }
  const registry: PluginRegistry = {
    register(plugin) {
      if (!plugin || plugin.kind !== 'mcp-plugin-client') {
        throw new PluginRegistrationError("register() takes a plugin's client part: createPlugin(tool).onElicit({...}).build().client")
      }
      count += 1
      const existing = byName.get(plugin.toolName)
      if (existing) {
        throw new DuplicatePluginError(plugin.toolName, describe(existing.plugin, existing.position), describe(plugin, count))
      }
      byName.set(plugin.toolName, { plugin, position: count })
    },
    get: (toolName) => byName.get(toolName)?.plugin,
    has: (toolName) => byName.has(toolName),
    list: () => [...byName.values()].map((e) => e.plugin),
  }
  for (const plugin of plugins) registry.register(plugin)
  return registry
}
