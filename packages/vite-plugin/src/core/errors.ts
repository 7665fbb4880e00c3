/**
 * The plugin's errors. Each is an `McpBridgeError` (from the runtime) with a stable `code`, so a
 * build script or CI wrapper can branch on `err.code` whichever package threw.
 */
import { McpBridgeError } from '@mcp-bridge/runtime/build'

/** Diagnostics with error severity failed a build (the message lists them at file:line:col). */
export class McpBridgeBuildError extends McpBridgeError {
  readonly code = 'MCP_BRIDGE_DIAGNOSTICS'
  constructor(message: string) {
    super(message)
    // The message is the whole story (each problem at file:line:col): no frames of the plugin's
    // own code under it in the build's output (rolldown prints an error's stack after its message).
    this.stack = `${this.name}: ${this.message}`
  }
}

/** `mcpBridge({...})` / the CLI were given options they cannot use: the runtime's one options error. */
export { OptionsError } from '@mcp-bridge/runtime/build'

/** The app runs a Vite older than the one the plugin is built on. */
export class UnsupportedViteError extends McpBridgeError {
  readonly code = 'VITE_VERSION_UNSUPPORTED'
  constructor(found: string) {
    super(
      `mcp-bridge needs Vite 8, and this app runs Vite ${found}. The plugin parses tool files with the oxc parser Vite 8 ships ` +
        '(through rolldown) and builds the client and the server as Vite 8 environments; Vite 5–7 have neither. Upgrade with ' +
        '`npm install -D vite@^8 @vitejs/plugin-react@latest` (check that your other Vite plugins support Vite 8). ' +
        "Vitest's own Vite may be older: under Vitest the plugin stays inert, so an app's tests are not affected.",
    )
  }
}

/** The app's zod is older than the zod 4 the runtime reads schemas with (installed past the peer range). */
export class UnsupportedZodError extends McpBridgeError {
  readonly code = 'ZOD_VERSION_UNSUPPORTED'
  constructor(found: string) {
    super(
      `mcp-bridge needs zod 4 (^4.6), and this app has zod ${found}. Tool schemas are zod 4 schemas: their types, their ` +
        "JSON Schema and their descriptions come from zod 4, and zod 3.25's `zod/v4` is an early preview of it whose types and " +
        'metadata do not carry over. Upgrade with `npm install zod@^4.6`, and the libraries that read your zod schemas with it ' +
        '(`@hookform/resolvers@^5.1` for react-hook-form: its older versions throw on zod 4 instead of showing field errors). ' +
        'README: "Apps on zod 3".',
    )
  }
}

/** A tool module's top-level code did not settle within the import time limit. */
export class ModuleLoadTimeoutError extends McpBridgeError {
  readonly code = 'MODULE_LOAD_TIMEOUT'
  constructor(file: string, ms: number) {
    super(`Loading ${file} did not finish within ${ms} ms (does its top-level code wait on something that never happens?)`)
  }
}

/** The app's Vite config gives the loader no environment that can run modules. */
export class ModuleLoaderUnavailableError extends McpBridgeError {
  readonly code = 'MODULE_LOADER_UNAVAILABLE'
}

/**
 * The app's `@mcp-bridge/runtime` is not the release this plugin was made with. The two are
 * released together (one version), and the plugin's peer range is wide (`0.x`) so that a release
 * does not force a needless major: this check is what keeps the pair matched.
 */
export class RuntimeVersionMismatchError extends McpBridgeError {
  readonly code = 'RUNTIME_VERSION_MISMATCH'
  constructor(plugin: string, runtime: string) {
    super(
      `@mcp-bridge/vite-plugin ${plugin} needs @mcp-bridge/runtime ${pairOf(plugin)}, and this app has ${runtime}. ` +
        `The two are released together: npm install @mcp-bridge/runtime@${plugin} @mcp-bridge/vite-plugin@${plugin}`,
    )
  }
}

/** The versions that pair with `version`: the same minor while at 0.x, the same major from 1.0. */
export function pairOf(version: string): string {
  const [major, minor] = version.split('.')
  return major === '0' ? `0.${minor}.x` : `${major}.x`
}
