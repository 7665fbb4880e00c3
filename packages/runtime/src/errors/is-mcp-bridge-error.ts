/**
 * `isMcpBridgeError(error, code?)`: whether something caught is one of this library's errors —
 * by the mark every copy of the library puts on them, so it holds where `instanceof` does not (a
 * Vite dev server that pre-bundled the package once for the browser and loads it again for SSR,
 * two installed versions). Given a code, it narrows to the error class with that code.
 */
import type * as Browser from './browser-errors.ts'
import type * as Call from './call-errors.ts'
import type * as CallLimit from './call-limit-errors.ts'
import type * as Definition from './definition-errors.ts'
import type * as ElicitationSchema from './elicitation-schema-error.ts'
import { MCP_BRIDGE_ERROR, type McpBridgeError } from './mcp-bridge-error.ts'
import type * as Options from './options-error.ts'
import type * as RemovedFromBundle from './removed-from-bundle-error.ts'
import type * as Server from './server-errors.ts'
import type * as Store from './store-errors.ts'
import type * as Testing from './testing-errors.ts'

/** The instances of a module's error classes. */
type ErrorsOf<M> = { [K in keyof M]: M[K] extends abstract new (...args: never[]) => infer E ? (E extends McpBridgeError ? E : never) : never }[keyof M]

/** Every error class of the library, as its instances (each module of `errors/` that holds some). */
export type AnyMcpBridgeError =
  | ErrorsOf<typeof Browser>
  | ErrorsOf<typeof Call>
  | ErrorsOf<typeof CallLimit>
  | ErrorsOf<typeof Definition>
  | ErrorsOf<typeof ElicitationSchema>
  | ErrorsOf<typeof Options>
  | ErrorsOf<typeof RemovedFromBundle>
  | ErrorsOf<typeof Server>
  | ErrorsOf<typeof Store>
  | ErrorsOf<typeof Testing>

/** Every stable `code` an error of the library carries. */
export type McpBridgeErrorCode = AnyMcpBridgeError['code']

/**
 * True when `error` is an error of this library (and, given `code`, one with that code — typed as
 * its class, so its own fields are there without a cast).
 *
 * @example
 * ```ts
 * import { isMcpBridgeError } from '@mcp-bridge/runtime/errors'
 *
 * function explain(error: unknown): string {
 *   if (isMcpBridgeError(error, 'INVALID_OPTIONS')) return `fix ${error.options.join(', ')}`
 *   if (isMcpBridgeError(error)) return `${error.code}: ${error.message}`
 *   return 'not ours'
 * }
 * ```
 */
export function isMcpBridgeError(error: unknown): error is AnyMcpBridgeError
export function isMcpBridgeError<C extends McpBridgeErrorCode>(error: unknown, code: C): error is Extract<AnyMcpBridgeError, { code: C }>
export function isMcpBridgeError(error: unknown, code?: string): boolean {
  if (typeof error !== 'object' || error === null || (error as Record<symbol, unknown>)[MCP_BRIDGE_ERROR] !== true) return false
  return code === undefined || (error as McpBridgeError).code === code
}
