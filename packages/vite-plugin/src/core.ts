/**
 * `@mcp-bridge/vite-plugin/core`: the generator the plugin and the CLI share, for scripts and
 * other bundlers. A separate entry because it loads the module loader (a Vite server of its
 * own); `import { mcpBridge } from '@mcp-bridge/vite-plugin'` stays light.
 *
 * @module
 */
export { McpBridgeGenerator, SERVER_REGISTRY, CLIENT_REGISTRY } from './core/generator.ts'
export type { GenerateResult, GeneratedFile } from './core/generator.ts'
export { createViteModuleLoader, ModuleLoadTimeoutError } from './core/load-modules.ts'
export type { ModuleLoader, ModuleLoaderOptions } from './core/load-modules.ts'
export { createBundledModuleLoader } from './core/bundle-loader.ts'
export { splitModule } from './core/split.ts'
export type { SplitResult, SplitTarget } from './core/split.ts'
export { GenerationSession } from './core/generation-session.ts'
export type { GenerationSessionOptions } from './core/generation-session.ts'
export type { BundledModuleLoader, BundledModuleLoaderOptions, BundleStats } from './core/bundle-loader.ts'
export { resolveOptions, OptionsError } from './core/options.ts'
export type { McpBridgeOptions, ResolvedOptions } from './core/options.ts'
export { formatDiagnostic, sortDiagnostics } from './core/diagnostics.ts'
export type { Diagnostic } from './core/diagnostics.ts'
export { projectOptions, optionsFromViteConfig } from './core/project-options.ts'
