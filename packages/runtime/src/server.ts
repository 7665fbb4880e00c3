/**
 * @mcp-bridge/runtime/server — runs tool calls and chats on the server. Never import this from client code.
 *
 * @module
 */
export { createBridgeHost } from './bridge/create-bridge-host.ts'
export type {
  BridgeHost,
  BridgeHostOptions,
  BridgeOutcome,
  ElicitResponse,
  RespondOptions,
  RespondOutcome,
} from './bridge/create-bridge-host.ts'
export { TERMINAL_STATUSES } from './bridge/events.ts'
export type { BridgeEvent, BridgeEventType, BridgeStatus } from './bridge/events.ts'
export type { JournalEntry } from './bridge/journal.ts'
export { toolResultOf } from './bridge/tool-result.ts'
export type { ToolResultBody } from './bridge/tool-result.ts'
export { CallRegistry } from './calls/call-registry.ts'
export { DuplicateCallError, TooManyCallsError } from './errors/call-limit-errors.ts'
export type { CallRegistryOptions, LiveCallInfo, RecoveryPlan, StartCall } from './calls/registry-types.ts'
export { nextEvent } from './calls/live-call.ts'
export type { LiveCall } from './calls/live-call.ts'
export type { CallLease, CallRecord, CallStore, ConversationRecord, StoredCallStatus, StoredOutcome, StoredQuestion } from './calls/stores/call-store.ts'
export { createMemoryStore } from './calls/stores/memory-store.ts'
export type { MemoryStoreOptions } from './calls/stores/memory-store.ts'
export { createSqliteStore } from './calls/stores/sqlite-store.ts'
export type { SqliteStoreOptions } from './calls/stores/sqlite-store.ts'
export { createRedisStore } from './calls/stores/redis-store.ts'
export type { RedisStoreOptions } from './calls/stores/redis-store.ts'
export { StoreClosedError, StoreDriverMissingError, StoreUnavailableError } from './calls/stores/store-errors.ts'
export { buildSamplingRequest, completeSample } from './sampling/sample.ts'

export { createChatHandler } from './chat/handler.ts'
export { OptionsError } from './errors/options-error.ts'
export type { ChatHandler, ChatHandlerOptions } from './chat/handler.ts'
export { DEFAULT_LIMITS } from './chat/engine.ts'
export type { ChatLimits } from './chat/engine.ts'
export { ModelError } from './chat/model.ts'
export type { ChatModel, ModelRequest, ModelStreamPart, ModelTool } from './chat/model.ts'
export { createAiSdkModel } from './chat/ai-sdk-model.ts'
export { modelSampling } from './chat/model-sampling.ts'
export { chatMiddleware, toNodeListener } from './http/node-adapter.ts'
export { AppServerCloseError, closeAppServer, createAppServer, isAppServer } from './http/app-server.ts'
export type { AppServer, AppServerParts, FetchEndpoint } from './http/app-server.ts'
export { appRoutes, DEFAULT_CHAT_PATH, DEFAULT_MCP_PATH, resolveAppRoutes } from './http/app-routes.ts'
export type { AppRouteOptions, NodeMiddleware } from './http/app-routes.ts'
export { serveApp, ServeAppListenError } from './http/serve-app.ts'
export type { ServeAppOptions, ServedApp } from './http/serve-app.ts'
export type { FetchHandler } from './http/node-adapter.ts'
export { createClientKey, defaultClientKey } from './http/client-address.ts'
export type { ClientKey, ClientKeyOptions } from './http/client-address.ts'
export { AuthenticationError } from './tool/caller-auth.ts'
export type { AppCaller, Authenticate, CallerAuth } from './tool/caller-auth.ts'
export type { RateLimit } from './http/rate-limit.ts'
export { ToolListError } from './plugin/collect-tools.ts'
export { systemClock } from './time/clock.ts'
export type { Clock } from './time/clock.ts'
export type { McpBridgeLogger, LogFields } from './telemetry/logger.ts'
