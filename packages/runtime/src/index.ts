/**
 * @mcp-bridge/runtime — what a tool author needs, isomorphic (safe in client and server bundles):
 * the tool builder and its types, plugins, and the context helpers. The errors a tool may catch
 * or throw live in `./errors`; hosts in `./server` and `./mcp`, the browser client in `./client`
 * and `./react`, test helpers in `./testing`; `./build` is for the Vite plugin only.
 *
 * @module
 */
export { createMcpTool } from './tool/create-mcp-tool.ts'
export { withContent, isToolContent } from './tool/with-content.ts'
export type { ToolContent } from './tool/with-content.ts'
export type { RichContent } from './sampling/content.ts'
export { createMcpPrompt, isMcpPrompt } from './prompt/create-mcp-prompt.ts'
export { createMcpResource, isMcpResource } from './resource/create-mcp-resource.ts'
export type { McpResource, McpResourceBuilder, ResourceBody, ResourceContents } from './resource/create-mcp-resource.ts'
export type { McpPrompt, McpPromptBuilder, PromptArgument, PromptBody } from './prompt/create-mcp-prompt.ts'
export type { PromptContent, PromptMessage } from './prompt/prompt-content.ts'
export type { EmptyParameters, McpToolBuilder, McpToolBuilderWithElicits, ReturnInput, ReturnOutput } from './tool/create-mcp-tool.ts'
export type {
  AnyMcpTool,
  ExecuteBody,
  HandoffBody,
  HandoffPhases,
  McpTool,
  McpToolJsonSchemas,
  ToolElicits,
  ToolParams,
  TaskSupport,
  ToolRequirements,
  ToolResult,
} from './tool/mcp-tool.ts'
export { isMcpTool } from './tool/mcp-tool.ts'
export type { ToolAnnotations, ToolIcon } from './tool/tool-metadata.ts'
export type { CompiledElicit, CompiledElicits } from './tool/compile-elicits.ts'
export type {
  ElicitAction,
  ElicitContent,
  ElicitContentInput,
  ElicitContextInputOf,
  ElicitContextOf,
  ElicitDefinition,
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
export type { ElicitRequest } from './tool/elicit-request.ts'
export { LOG_LEVELS } from './tool/context.ts'
export type {
  BranchContext,
  ElicitFunction,
  LogLevel,
  McpToolContext,
  ReportingContext,
  SamplingContext,
  ServerPhaseContext,
  AfterPhaseContext,
  StepFunction,
  PatchedFunction,
  StepInfo,
  ToolCallInfo,
} from './tool/context.ts'
export type { AppCaller, Authenticate, CallerAuth, McpAuth } from './tool/caller-auth.ts'

export type { ElicitViolation, Violation, ViolationRule, ViolationSeverity } from './errors/violation.ts'
export type { ElicitationWireSchema, JsonObject, JsonSchema, JsonValue } from './schema/json-schema.ts'

export { encodeModelContext, extractModelContext, MODEL_CONTEXT_BOUNDARY, MODEL_CONTEXT_EXTENSION, MODEL_CONTEXT_KEY } from './model-context/model-context.ts'
export type { PlainChoice, PlainForms, PlainFormSpec } from './tool/plain-form.ts'
export type { ExtractedModelContext, ModelContext } from './model-context/model-context.ts'
export { assertJsonSafe } from './model-context/json-safe.ts'

export { messageText } from './sampling/content.ts'
export type { AudioContent, ImageContent, McpContentBlock, McpMessage, TextContent, ToolResultContent, ToolUseContent } from './sampling/content.ts'
export { SCHEMA_TOOL_NAME } from './sampling/types.ts'
export type { ModelPreferences, SampleExchange, SampleInput, SampleOptions, SampleResult, StructuredSampleOptions } from './sampling/types.ts'
export { DEFAULT_MAX_TOKENS } from './sampling/provider.ts'
export type { SamplingProvider, SamplingRequest, SamplingResponse, SamplingTool } from './sampling/provider.ts'

export { isMcpPlugin, createPlugin } from './plugin/create-plugin.ts'
export type { BuildablePlugin, PluginBuilder } from './plugin/create-plugin.ts'
export { generatedForm } from './plugin/generated-form.ts'
export type { FormContentOf } from './plugin/generated-form.ts'
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
