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

/** The app runs a Vite older than 6, which has no environments API. */
export class UnsupportedViteError extends McpBridgeError {
  readonly code = 'VITE_VERSION_UNSUPPORTED'
  constructor(found: string) {
    super(
      `mcp-bridge needs Vite 6, 7 or 8, and this app runs Vite ${found}. The plugin builds the client and the server as Vite ` +
        'environments (the API Vite 6 introduced); Vite 5 and older have none. Upgrade with `npm install -D vite@^6` (or newer) ' +
        'and a matching `@vitejs/plugin-react` (check that your other Vite plugins support it). Tools that load your config with ' +
        'a Vite of their own (Vitest, vite-node, Storybook) are not affected: there the plugin stays inert.',
    )
  }
}

/** The app's zod is older than the zod 4 the runtime reads schemas with (installed past the peer range). */
export class UnsupportedZodError extends McpBridgeError {
  readonly code = 'ZOD_VERSION_UNSUPPORTED'
  constructor(found: string) {
    super(
      `mcp-bridge needs zod 4 schemas — zod 4.x, or zod 3.25.76+ through \`import { z } from 'zod/v4'\` — and this app has zod ${found}, ` +
        'which has neither. Tool schemas give the tools their types, JSON Schema and form labels. Upgrade with ' +
        '`npm install zod@^3.25.76` (your zod 3 code keeps working; write tools with `zod/v4`) or `npm install zod@^4`. ' +
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

/** A source file has a syntax error (discovery reports it at its place as a diagnostic). */
export class SourceParseError extends McpBridgeError {
  readonly code = 'SOURCE_PARSE_FAILED'
  constructor(
    readonly reason: string,
    /** Offset in the source where the parser stopped. */
    readonly pos: number,
  ) {
    super(`This file does not parse: ${reason}`)
  }
}

/** oxc's native parser did not load (an install that skipped its platform package). */
export class ParserUnavailableError extends McpBridgeError {
  readonly code = 'PARSER_UNAVAILABLE'
  constructor(cause: unknown) {
    super(
      `mcp-bridge could not load its parser, oxc-parser: ${(cause as Error)?.message ?? String(cause)}. It ships a native binding per platform ` +
        'as an optional dependency; reinstall with optional dependencies (`npm install --include=optional`, and no `--omit=optional`).',
    )
  }
}
