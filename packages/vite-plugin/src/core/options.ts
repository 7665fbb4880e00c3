/**
 * What the user wrote (`mcpBridge({...})`, CLI flags) versus what the code uses: validated,
 * defaulted, with paths made absolute against Vite's root. Unknown keys are errors that list
 * the known ones, because a misspelt option silently ignored is worse than a failed start.
 */
import { isAbsolute, resolve } from 'node:path'
import { z } from 'zod'
import { formatIssues, routePaths, routePathSchema } from '@mcp-bridge/runtime/internal'
import { McpBridgeOptionsError } from './errors.ts'

const globs = z.union([z.string().min(1), z.array(z.string().min(1))])

export const optionsSchema = z.strictObject({
  include: globs.optional(),
  exclude: globs.optional(),
  outDir: z.string().min(1).optional(),
  manifest: z
    .string()
    .regex(/^[\w.-]+\.json$/, 'a file name ending in .json, without folders (it goes into outDir and the build output)')
    .optional(),
  failOnError: z.boolean().optional(),
  /**
   * The app's server module (`export default defineAppServer({ chat, mcp? })`): served in
   * `vite dev` and `vite preview`, and built by `vite build` into `<build.outDir>/server/`
   * (`node dist/server/index.js` serves it with the client from `<build.outDir>/client/`).
   */
  server: z
    .union([
      z.string().min(1),
      z.strictObject({ entry: z.string().min(1), chatPath: routePathSchema.optional(), mcpPath: routePathSchema.optional() }),
    ])
    .optional(),
  /**
   * MCP Apps: build each plugin's UI as a self-contained HTML view for hosts that render them
   * (Claude, ChatGPT, VS Code…), and export them from `server.gen.ts` as `appViews` for
   * `createMcpServer({ apps: { views: appViews } })`. `include`: modules every view imports
   * first (e.g. the stylesheet your components use).
   */
  apps: z.union([z.boolean(), z.strictObject({ include: globs.optional() })]).optional(),
})

export type McpBridgeOptions = z.input<typeof optionsSchema>

/** The keys of the options that take an object, for the message about a key they do not have. */
const NESTED_KEYS = { server: 'entry, chatPath, mcpPath', apps: 'include' } as const

export interface ResolvedOptions {
  root: string
  include: string[]
  exclude: string[]
  /** Absolute. */
  outDir: string
  manifest: string
  failOnError: boolean | undefined
  /** The app server, when `server` is given: its module (absolute) and where its handlers answer. */
  server: { entry: string; chatPath: string; mcpPath: string } | undefined
  /** MCP Apps views, when `apps` is on: the modules every view imports first (absolute). */
  apps: { include: string[] } | undefined
}

export { McpBridgeOptionsError } from './errors.ts'

export const DEFAULT_INCLUDE = ['src/**/*.{ts,tsx}']
export const DEFAULT_OUT_DIR = 'src/mcp-bridge'
export const DEFAULT_MANIFEST = 'mcp-tools.json'

export function resolveOptions(user: unknown, root: string): ResolvedOptions {
  const parsed = optionsSchema.safeParse(user ?? {})
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      if (i.code !== 'unrecognized_keys') return formatIssues([{ path: i.path.join('.'), message: i.message }], 'inline', 'options')
      // A key inside an object option is named with its option ("apps.styles"), next to that option's keys.
      const where = i.path.join('.')
      const known = where ? NESTED_KEYS[where as keyof typeof NESTED_KEYS] : Object.keys(optionsSchema.shape).join(', ')
      const keys = i.keys.map((k) => `"${where ? `${where}.` : ''}${k}"`).join(', ')
      return `unknown option${i.keys.length > 1 ? 's' : ''} ${keys} (known: ${known})`
    })
    throw new McpBridgeOptionsError(`mcpBridge(): ${problems.join('; ')}`)
  }
  const o = parsed.data
  const list = (v: string | string[] | undefined, fallback: string[]) => (v === undefined ? fallback : Array.isArray(v) ? v : [v])
  const outDir = o.outDir ?? DEFAULT_OUT_DIR
  return {
    root,
    include: list(o.include, DEFAULT_INCLUDE),
    exclude: list(o.exclude, []),
    outDir: isAbsolute(outDir) ? outDir : resolve(root, outDir),
    manifest: o.manifest ?? DEFAULT_MANIFEST,
    failOnError: o.failOnError,
    server: resolveServer(o.server, root),
    apps: o.apps === undefined || o.apps === false ? undefined : { include: list(o.apps === true ? undefined : o.apps.include, []).map((f) => (isAbsolute(f) ? f : resolve(root, f))) },
  }
}

function resolveServer(server: z.output<typeof optionsSchema>['server'], root: string): ResolvedOptions['server'] {
  if (server === undefined) return undefined
  const { entry, chatPath, mcpPath } = typeof server === 'string' ? { entry: server, chatPath: undefined, mcpPath: undefined } : server
  const paths = routePaths(chatPath, mcpPath)
  if ('problem' in paths) throw new McpBridgeOptionsError(`mcpBridge(): server.${paths.problem}`)
  return { entry: isAbsolute(entry) ? entry : resolve(root, entry), ...paths }
}
