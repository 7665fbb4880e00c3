/**
 * What must never reach a browser, in one table: the split removes it from tool files, and the
 * build fails if any of it still reaches a client chunk from a tool or plugin file.
 *
 *   - Node's built-in modules (`node:fs`, `fs`, `node:async_hooks`, …): in a browser they are
 *     empty stubs, and code that uses them crashes when the chunk loads;
 *   - modules the app marks server-only, by the conventions people already use: a `.server`
 *     file or folder (`db.server.ts`, `app/.server/db.ts` — React Router's), or a module that
 *     imports the `server-only` marker package (`import 'server-only'`, as in Next.js);
 *   - `process.env` reads other than `NODE_ENV` (Vite replaces that one): the names of an app's
 *     secrets, and a `process is not defined` crash.
 */
import { builtinModules } from 'node:module'

/** The marker package a module imports to say it is server-only. */
export const SERVER_ONLY_MARKER = 'server-only'

const BUILTINS: ReadonlySet<string> = new Set(builtinModules)

/** Why an import specifier names server-only code, or undefined if it does not (by its text alone). */
export function serverOnlySpecifier(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier) || BUILTINS.has(specifier.split('/')[0]!)) return 'a Node built-in module'
  if (specifier === SERVER_ONLY_MARKER) return 'the server-only marker'
  if (isServerPath(specifier)) return 'a .server module'
  return undefined
}

/**
 * Why a module id of a client build is server-only, or undefined. Vite gives a built-in module
 * a browser stub whose id names it (`__vite-browser-external:node:fs`).
 */
export function serverOnlyModuleId(id: string): string | undefined {
  const external = /__vite-browser-external:?(.*)$/.exec(id)
  if (external) return 'a Node built-in module'
  const path = id.replace(/[?#].*$/, '')
  if (/[\\/]node_modules[\\/]server-only[\\/]/.test(path)) return 'the server-only marker'
  if (/[\\/]node_modules[\\/]/.test(path)) return undefined
  if (isServerPath(path)) return 'a .server module'
  return undefined
}

/** The builtin a Vite browser stub stands for (`node:fs`), or undefined. */
export function builtinOfStub(id: string): string | undefined {
  const m = /__vite-browser-external:(.+)$/.exec(id)
  return m?.[1]
}

/** `db.server.ts`, `db.server.js`, `app/.server/db.ts` (not `server.ts`, not `observer.ts`). */
function isServerPath(path: string): boolean {
  return /\.server(?:\.[cm]?[jt]sx?)?$/.test(path) || /(?:^|[\\/])\.server[\\/]/.test(path)
}
