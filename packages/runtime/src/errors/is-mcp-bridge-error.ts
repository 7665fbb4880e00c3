/**
 * `isMcpBridgeError(error, code?)`: whether something caught is one of this library's errors —
 * by the mark every copy of the library puts on them, so it holds where `instanceof` does not (a
 * Vite dev server that pre-bundled the package once for the browser and loads it again for SSR,
 * two installed versions). Given a code, it narrows to the error class with that code.
 */
import type {
  ChatEndpointError,
  ChatProtocolError,
  DuplicatePluginError,
  McpAppHostError,
  McpAppViewMountError,
  PluginHandlerError,
  PluginRegistrationError,
  QuestionPendingError,
} from './browser-errors.ts'
import type * as Call from './call-errors.ts'
import type { CallSupersededError, DuplicateCallError, TooManyCallsError } from './call-limit-errors.ts'
import type * as Definition from './definition-errors.ts'
import type { ElicitationSchemaError } from './elicitation-schema-error.ts'
import { MCP_BRIDGE_ERROR, type McpBridgeError } from './mcp-bridge-error.ts'
import type { OptionsError } from './options-error.ts'
import type { RemovedFromBundleError } from './removed-from-bundle-error.ts'
import type * as Server from './server-errors.ts'
import type { StoreClosedError, StoreDriverMissingError, StoreUnavailableError } from './store-errors.ts'
import type { MockScriptExhaustedError, TestClockError } from './testing-errors.ts'

type ValuesOf<M> = { [K in keyof M]: M[K] extends abstract new (...args: never[]) => infer E ? (E extends McpBridgeError ? E : never) : never }[keyof M]

/** Every error class of the library, as its instances. */
export type AnyMcpBridgeError =
  | ValuesOf<typeof Call>
  | ValuesOf<typeof Definition>
  | ValuesOf<typeof Server>
  | ChatEndpointError
  | ChatProtocolError
  | DuplicatePluginError
  | McpAppHostError
  | McpAppViewMountError
  | PluginHandlerError
  | PluginRegistrationError
  | QuestionPendingError
  | CallSupersededError
  | DuplicateCallError
  | TooManyCallsError
  | ElicitationSchemaError
  | OptionsError
  | RemovedFromBundleError
  | StoreClosedError
  | StoreDriverMissingError
  | StoreUnavailableError
  | MockScriptExhaustedError
  | TestClockError

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
