/**
 * @mcp-bridge/runtime — the isomorphic core: safe to import from client and server bundles.
 * Server-only parts live in `./server` and `./mcp`, React parts in `./react`.
 */
export { createMcpTool } from './tool/create-mcp-tool.ts'
export type { EmptyParameters, McpToolBuilder, McpToolBuilderWithElicits } from './tool/create-mcp-tool.ts'
export type {
  AnyMcpTool,
  ExecuteBody,
  HandoffBody,
  HandoffPhases,
  McpTool,
  McpToolJsonSchemas,
  ToolElicits,
  ToolParams,
  ToolRequirements,
  ToolResult,
} from './tool/mcp-tool.ts'
export { isMcpTool } from './tool/mcp-tool.ts'
export type {
  ElicitAction,
  ElicitContent,
  ElicitContentInput,
  ElicitContextInputOf,
  ElicitContextOf,
  ElicitDefinition,
  ElicitId,
  ElicitKey,
  ElicitOptions,
  ElicitResponseSchema,
  ElicitResult,
  ElicitRetryOptions,
  ElicitsMap,
  ElicitWithContext,
  ResponseSchemaOf,
  UntypedContext,
} from './tool/elicits.ts'
export { LOG_LEVELS } from './tool/context.ts'
export type {
  BranchContext,
  ElicitFunction,
  LogLevel,
  McpToolContext,
  ReportingContext,
  SamplingContext,
  ServerPhaseContext,
  ToolCallInfo,
} from './tool/context.ts'
export { ElicitationSchemaError, InvalidToolNameError, ToolDefinitionError } from './tool/errors.ts'
export { MAX_TOOL_NAME_LENGTH, assertToolName, toolNameProblem } from './tool/tool-name.ts'
export { McpBridgeError } from './errors/mcp-bridge-error.ts'

export { checkElicitationSchema, analyzeElicitationJsonSchema } from './schema/check-elicitation-schema.ts'
export type { ElicitationAnalysis } from './schema/check-elicitation-schema.ts'
export { analyzeContextSchema, analyzeResponseSchema, RESERVED_CONTEXT_KEYS } from './schema/analyze-elicit-schema.ts'
export type { ElicitSchemaAnalysis } from './schema/analyze-elicit-schema.ts'
export { isZod4Schema, isZodObject, toJsonSchema } from './schema/zod-to-json-schema.ts'
export type { JsonSchemaConversion, UnrepresentableNode } from './schema/zod-to-json-schema.ts'
export { ALLOWED_FORMATS } from './schema/elicitation-rules.ts'
export { formatViolation } from './schema/violation.ts'
export type { ElicitViolation, Violation, ViolationRule, ViolationSeverity } from './schema/violation.ts'
export type { ElicitationWireSchema, JsonObject, JsonSchema, JsonValue } from './schema/json-schema.ts'

export {
  encodeModelContext,
  extractModelContext,
  MODEL_CONTEXT_BOUNDARY,
  MODEL_CONTEXT_KEY,
} from './context/model-context.ts'
export type { ExtractedModelContext, ModelContext } from './context/model-context.ts'
export { assertJsonSafe, ModelContextError } from './context/json-safe.ts'

export * from './sampling/content.ts'
export { SCHEMA_TOOL_NAME } from './sampling/types.ts'
export type {
  ModelPreferences,
  SampleExchange,
  SampleInput,
  SampleOptions,
  SampleResult,
  StructuredSampleOptions,
} from './sampling/types.ts'

export type { ElicitRequest } from './tool/elicit-request.ts'
export { formatElicitId, sameElicitId } from './tool/elicit-request.ts'
export {
  ConcurrentElicitationError,
  ElicitContextError,
  ElicitationCancelledError,
  ElicitationDeclinedError,
  ElicitationInvalidResponseError,
  ElicitInBranchError,
  JournalMismatchError,
  McpCapabilityError,
  SamplingResponseError,
  SamplingSchemaError,
  ToolAbortedError,
  ToolParamsError,
  UnknownElicitKeyError,
  UnsupportedElicitationModeError,
} from './bridge/errors.ts'
export type { ClientCapabilityName, IssueSummary } from './bridge/errors.ts'
export { DEFAULT_MAX_TOKENS } from './sampling/provider.ts'
export type { SamplingProvider, SamplingRequest, SamplingResponse, SamplingTool } from './sampling/provider.ts'

export { isMcpPlugin, makePlugin, PluginDefinitionError } from './plugin/make-plugin.ts'
export type { BuildablePlugin, PluginBuilder } from './plugin/make-plugin.ts'
export type {
  ElicitHandler,
  ElicitHandlers,
  McpPlugin,
  OwnProps,
  PluginClientContext,
  PluginClientRegistration,
  PluginElicitRequest,
  RenderedProps,
  ResponseOf,
  UiComponent,
} from './plugin/types.ts'

export {
  chatRequestBodySchema,
  chatStreamEventSchema,
  elicitResultSchema,
  NDJSON_CONTENT_TYPE,
  pluginElicitResponseSchema,
} from './chat/protocol.ts'
export type {
  ChatRequestBody,
  ChatStreamEvent,
  ChatStreamEventType,
  ElicitResultWire,
  PluginElicitResponse,
} from './chat/protocol.ts'
export { encodeNdjson, readNdjson } from './chat/ndjson.ts'
