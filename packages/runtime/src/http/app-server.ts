/**
 * An app's server side in one value: the chat handler, optionally an MCP endpoint, and what
 * else to release on shutdown. `export default createAppServer({...})` from the module the Vite
 * plugin's `server` option names; the plugin serves it in `vite dev` and `vite preview`, and
 * `vite build` emits `dist/server/index.js`, which serves it with the built client under Node.
 */
import type { FetchHandler } from './node-adapter.ts'
import type { ClientKey } from './client-address.ts'
import { OptionsError } from '../errors/options-error.ts'
import type { IssueSummary } from '../errors/issues.ts'
import { AppServerCloseError } from '../errors/server-errors.ts'

/** Something with a `fetch` face: `createMcpServer(...).createHandler()`. */
export interface FetchEndpoint {
  fetch(request: Request): Promise<Response>
  close?(): Promise<void>
  /** How it tells clients apart (`createMcpServer`'s `clientKey`): `serveApp`'s rate limit counts them the same way. */
  readonly clientKey?: ClientKey
}

/**
 * What `createAppServer` takes: the chat handler, an MCP endpoint, and anything else to close on shutdown.
 */
export interface AppServerParts {
  /** The chat handler (`createChatHandler(...)`), served at the chat path (`/api/chat`). */
  chat: FetchHandler & { close?(): Promise<void>; readonly clientKey?: ClientKey }
  /** An MCP endpoint (`createMcpServer(...).createHandler()`), served at the MCP path (`/mcp`). */
  mcp?: FetchEndpoint
  /** Anything else to release on shutdown (a call store, a connection pool); runs after chat and mcp close. */
  close?(): Promise<void> | void
}

/**
 * An app's server side, as `createAppServer` makes it: what the Vite plugin serves in dev and preview and builds into `dist/server/`.
 */
export interface AppServer extends Readonly<AppServerParts> {
  readonly kind: 'mcp-bridge-app-server'
}

/**
 * An app's server side: its chat handler, optionally an MCP endpoint, and what to close on shutdown. The module
 * the Vite plugin's `server` option names default-exports one.
 *
 * @example
 * ```ts
 * // src/server/app.ts (the registries are in src/mcp-bridge/)
 * import { createAppServer, createChatHandler } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * export default createAppServer({ chat: createChatHandler({ tools: serverTools, model: createScriptedModel({ fallback: 'Hi!' }) }) })
 * ```
 */
export function createAppServer(parts: AppServerParts): AppServer {
  const problems: IssueSummary[] = []
  const given = parts as unknown as Record<string, unknown> | undefined
  if (typeof given !== 'object' || given === null) {
    throw new OptionsError('createAppServer', { problem: 'takes { chat, mcp?, close? }, e.g. createAppServer({ chat: createChatHandler({ tools, model }) })' })
  }
  if (typeof given.chat !== 'function')
    problems.push({ path: 'chat', message: `a chat handler, (request: Request) => Promise<Response> from createChatHandler() (got ${describe(given.chat)})` })
  if (given.mcp !== undefined && typeof (given.mcp as { fetch?: unknown } | null)?.fetch !== 'function') {
    problems.push({ path: 'mcp', message: `an MCP HTTP handler, createMcpServer(...).createHandler() (got ${describe(given.mcp)})` })
  }
  if (given.close !== undefined && typeof given.close !== 'function') problems.push({ path: 'close', message: `a function (got ${describe(given.close)})` })
  for (const key of Object.keys(given).filter((k) => !['chat', 'mcp', 'close'].includes(k))) problems.push({ path: key, message: 'unknown key (known: chat, mcp, close)' })
  if (problems.length) throw new OptionsError('createAppServer', problems)
  return Object.freeze({ kind: 'mcp-bridge-app-server', ...parts })
}

/**
 * Whether a value was made with `createAppServer(...)`.
 *
 * @example
 * ```ts
 * import { isAppServer } from '@mcp-bridge/runtime/server'
 *
 * const module = (await import('./server/app.ts')) as { default?: unknown }
 * if (!isAppServer(module.default)) console.error('src/server/app.ts must export default createAppServer({ chat })')
 * ```
 */
export function isAppServer(value: unknown): value is AppServer {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'mcp-bridge-app-server'
}

/**
 * Close the chat (its calls abort, their `finally` blocks run), the MCP endpoint, then the rest.
 *
 * @example
 * ```ts
 * import { closeAppServer } from '@mcp-bridge/runtime/server'
 * import app from './server/app.ts'
 *
 * process.once('SIGTERM', () => void closeAppServer(app).then(() => process.exit(0)))
 * ```
 */
export async function closeAppServer(app: AppServer): Promise<void> {
  const errors: unknown[] = []
  const steps = [() => app.chat.close?.(), () => app.mcp?.close?.(), () => app.close?.()]
  for (const step of steps) {
    try {
      await step()
    } catch (error) {
      errors.push(error)
    }
  }
  if (errors.length) {
    throw new AppServerCloseError(`Closing the app server failed: ${errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ')}`, { cause: errors })
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}
