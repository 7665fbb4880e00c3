/**
 * @mcp-bridge/runtime/errors — every error the library throws on purpose, each an `McpBridgeError`
 * with a stable `code`, and `isMcpBridgeError(error, code?)` to tell them apart. Isomorphic: the
 * classes carry no server code, so a browser bundle may import them.
 *
 * @example
 * ```ts
 * import { ElicitationDeclinedError, isMcpBridgeError } from '@mcp-bridge/runtime/errors'
 *
 * function said(error: unknown): string {
 *   if (error instanceof ElicitationDeclinedError) return 'the person said no'
 *   if (isMcpBridgeError(error, 'TOO_MANY_CALLS')) return 'too many calls; try later'
 *   return 'something else'
 * }
 * ```
 *
 * @module
 */
export { McpBridgeError, ToolProblemError } from './errors/mcp-bridge-error.ts'
export { isMcpBridgeError } from './errors/is-mcp-bridge-error.ts'
export type { AnyMcpBridgeError, McpBridgeErrorCode } from './errors/is-mcp-bridge-error.ts'
export type { IssueSummary } from './errors/issues.ts'
export { OptionsError } from './errors/options-error.ts'
export {
  InvalidToolNameError,
  ModelContextError,
  NotZod4Error,
  PlainFormError,
  PluginDefinitionError,
  PromptDefinitionError,
  ResourceDefinitionError,
  ToolContentError,
  ToolDefinitionError,
  ToolListError,
} from './errors/definition-errors.ts'
export { ElicitationSchemaError } from './errors/elicitation-schema-error.ts'
export { RemovedFromBundleError } from './errors/removed-from-bundle-error.ts'
export {
  ConcurrentElicitationError,
  ElicitContextError,
  ElicitationCancelledError,
  ElicitationDeclinedError,
  ElicitationInvalidResponseError,
  ElicitInBranchError,
  JournalDivergenceError,
  McpCapabilityError,
  SamplingResponseError,
  SamplingSchemaError,
  SamplingUnavailableError,
  StepFailedError,
  ToolAbortedError,
  ToolContextUsageError,
  ToolParamsError,
  ToolResultInvalidError,
  UnknownElicitKeyError,
  UnsupportedElicitationModeError,
} from './errors/call-errors.ts'
export type { ClientCapabilityName } from './errors/call-errors.ts'
export { CallSupersededError, DuplicateCallError, TooManyCallsError } from './errors/call-limit-errors.ts'
export { StoreClosedError, StoreDriverMissingError, StoreSchemaError, StoreUnavailableError } from './errors/store-errors.ts'
export {
  AppServerCloseError,
  AuthenticationError,
  ClientRefusedError,
  ConversationWriteError,
  McpAppViewError,
  McpServerClosedError,
  ModelError,
  RequestStateRefusedError,
  ServeAppListenError,
  UnknownEventIdError,
} from './errors/server-errors.ts'
export {
  ChatEndpointError,
  ChatProtocolError,
  DuplicatePluginError,
  McpAppHostError,
  McpAppViewMountError,
  PluginHandlerError,
  PluginRegistrationError,
  QuestionPendingError,
} from './errors/browser-errors.ts'
export { MockScriptExhaustedError, TestClockError } from './errors/testing-errors.ts'
