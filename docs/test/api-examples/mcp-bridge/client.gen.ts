// Stands for the registry `mcp-bridge generate` writes.
import type { PluginClientRegistration } from '@mcp-bridge/runtime'
import plugin from '../tools/book-flight/plugin.tsx'

export const clientPlugins: readonly PluginClientRegistration[] = [plugin.client]
