/**
 * What the user wrote (`mcpBridge({...})`, CLI flags) versus what the code uses: validated,
 * defaulted, with paths made absolute against Vite's root. Unknown keys are errors that list
 * the known ones, because a misspelt option silently ignored is worse than a failed start.
 */
import { isAbsolute, resolve } from 'node:path'
import { ROUTE_PATH_HINT, ROUTE_PATH_PATTERN, routePaths } from '@mcp-bridge/runtime/build'
import { OptionsError } from './errors.ts'

type Globs = string | string[]

/**
 * What `mcpBridge({...})` takes (each checked; `OptionsError` names a wrong one): which files to scan, where the generated files go, the app server module and its paths, MCP Apps, the type-aware pass, and more.
 */
export interface McpBridgeOptions {
  /** Source files that may hold tools and plugins (default `src/**\/*.{ts,tsx}`). */
  include?: Globs
  /** Files never read, besides the test files that are never read (`DEFAULT_EXCLUDE`). */
  exclude?: Globs
  /** Where the generated files go (default `src/mcp-bridge`). */
  outDir?: string
  /** The manifest's file name, in `outDir` (default `mcp-tools.json`). */
  manifest?: string
  /**
   * Also put the manifest into the client build output, where the app's server serves it to
   * anyone: every tool's name, description and schemas, and the source file paths. Default false.
   */
  publicManifest?: boolean
  failOnError?: boolean
  /**
   * The app's server module (`export default createAppServer({ chat, mcp? })`): served in
   * `vite dev` and `vite preview`, and built by `vite build` into `<build.outDir>/server/`
   * (`node dist/server/index.js` serves it with the client from `<build.outDir>/client/`).
   */
  server?: string | { entry: string; chatPath?: string; mcpPath?: string }
  /**
   * MCP Apps: build each plugin's UI as a self-contained HTML view for hosts that render them
   * (Claude, ChatGPT, VS Code…), and export them from `server.gen.ts` as `appViews` for
   * `createMcpServer({ apps: { views: appViews } })`. `include`: modules every view imports
   * first (e.g. the stylesheet your components use).
   */
  apps?: boolean | { include?: Globs }
}

/** Each option's keys, for the message about a key that is not one of them. */
const KNOWN = {
  '': ['include', 'exclude', 'outDir', 'manifest', 'publicManifest', 'failOnError', 'server', 'apps'],
  server: ['entry', 'chatPath', 'mcpPath'],
  apps: ['include'],
} as const

/**
 * Checked by hand, not with a schema library: this runs at the start of every build and dev
 * server, and a build whose tools did not change should load nothing it does not need.
 */
function problemsOf(user: unknown): string[] {
  const problems: string[] = []
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
  const unknownKeys = (value: Record<string, unknown>, where: keyof typeof KNOWN) => {
    const extra = Object.keys(value).filter((k) => !(KNOWN[where] as readonly string[]).includes(k))
    if (extra.length) {
      problems.push(`unknown option${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${where ? `${where}.` : ''}${k}"`).join(', ')} (known: ${KNOWN[where].join(', ')})`)
    }
  }
  const string = (v: unknown) => typeof v === 'string' && v.length > 0
  const globs = (name: string, v: unknown) => {
    if (v !== undefined && !string(v) && !(Array.isArray(v) && v.every(string))) problems.push(`${name}: a glob or a list of globs (non-empty strings)`)
  }
  if (!isObject(user)) return ['options must be an object, e.g. mcpBridge({ server: "src/server/app.ts" })']
  unknownKeys(user, '')
  globs('include', user.include)
  globs('exclude', user.exclude)
  if (user.outDir !== undefined && !string(user.outDir)) problems.push('outDir: a folder path (a non-empty string)')
  if (user.manifest !== undefined && !(typeof user.manifest === 'string' && /^[\w.-]+\.json$/.test(user.manifest))) {
    problems.push('manifest: a file name ending in .json, without folders (it goes into outDir)')
  }
  if (user.publicManifest !== undefined && typeof user.publicManifest !== 'boolean') problems.push('publicManifest: true or false')
  if (user.failOnError !== undefined && typeof user.failOnError !== 'boolean') problems.push('failOnError: true or false')
  const server = user.server
  if (server !== undefined && !string(server)) {
    if (!isObject(server)) problems.push("server: the server module's path, or { entry, chatPath?, mcpPath? }")
    else {
      unknownKeys(server, 'server')
      if (!string(server.entry)) problems.push("server.entry: the server module's path (a non-empty string)")
      for (const key of ['chatPath', 'mcpPath'] as const) {
        if (server[key] !== undefined && !(typeof server[key] === 'string' && ROUTE_PATH_PATTERN.test(server[key]))) problems.push(`server.${key}: ${ROUTE_PATH_HINT}`)
      }
    }
  }
  const apps = user.apps
  if (apps !== undefined && typeof apps !== 'boolean') {
    if (!isObject(apps)) problems.push('apps: true, false, or { include: [...] }')
    else {
      unknownKeys(apps, 'apps')
      globs('apps.include', apps.include)
    }
  }
  return problems
}

/**
 * The plugin's options checked and completed: absolute paths, every default filled in.
 */
export interface ResolvedOptions {
  root: string
  include: string[]
  exclude: string[]
  /** Absolute. */
  outDir: string
  manifest: string
  publicManifest: boolean
  failOnError: boolean | undefined
  /** The app server, when `server` is given: its module (absolute) and where its handlers answer. */
  server: { entry: string; chatPath: string; mcpPath: string } | undefined
  /** MCP Apps views, when `apps` is on: the modules every view imports first (absolute). */
  apps: { include: string[] } | undefined
}

export { OptionsError } from './errors.ts'

export const DEFAULT_INCLUDE = ['src/**/*.{ts,tsx}']
/**
 * Test files are never discovered, checked or run: a test may define a stub tool (and need not
 * export it), and running a test module at build time would run the test.
 */
export const DEFAULT_EXCLUDE = ['**/*.test.*', '**/*.spec.*', '**/__tests__/**', '**/__mocks__/**']
export const DEFAULT_OUT_DIR = 'src/mcp-bridge'
export const DEFAULT_MANIFEST = 'mcp-tools.json'

/**
 * The plugin's options checked and completed with their defaults against an app root (`OptionsError` names
 * every wrong one).
 *
 * @example
 * ```ts
 * import { resolveOptions } from '@mcp-bridge/vite-plugin/core'
 *
 * const options = resolveOptions({ server: 'src/server/app.ts' }, process.cwd())
 * console.log(options.outDir) // <root>/src/mcp-bridge
 * ```
 */
export function resolveOptions(user: unknown, root: string): ResolvedOptions {
  const problems = problemsOf(user ?? {})
  if (problems.length) throw new OptionsError('mcpBridge()', { option: /^([\w.]+):/.exec(problems[0]!)?.[1] ?? /"([\w.]+)"/.exec(problems[0]!)?.[1], problem: problems.join('; ') })
  const o = (user ?? {}) as McpBridgeOptions
  const list = (v: string | string[] | undefined, fallback: string[]) => (v === undefined ? fallback : Array.isArray(v) ? v : [v])
  const outDir = o.outDir ?? DEFAULT_OUT_DIR
  return {
    root,
    include: list(o.include, DEFAULT_INCLUDE),
    exclude: [...DEFAULT_EXCLUDE, ...list(o.exclude, [])],
    outDir: isAbsolute(outDir) ? outDir : resolve(root, outDir),
    manifest: o.manifest ?? DEFAULT_MANIFEST,
    publicManifest: o.publicManifest ?? false,
    failOnError: o.failOnError,
    server: resolveServer(o.server, root),
    apps:
      o.apps === undefined || o.apps === false ? undefined : { include: list(o.apps === true ? undefined : o.apps.include, []).map((f) => (isAbsolute(f) ? f : resolve(root, f))) },
  }
}

function resolveServer(server: McpBridgeOptions['server'], root: string): ResolvedOptions['server'] {
  if (server === undefined) return undefined
  const { entry, chatPath, mcpPath } = typeof server === 'string' ? { entry: server, chatPath: undefined, mcpPath: undefined } : server
  const paths = routePaths(chatPath, mcpPath)
  if ('problem' in paths) throw new OptionsError('mcpBridge()', { option: 'server', problem: `server.${paths.problem}` })
  return { entry: isAbsolute(entry) ? entry : resolve(root, entry), ...paths }
}
