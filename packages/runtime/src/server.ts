/**
 * @mcp-bridge/runtime/server — runs tool calls and chats on the server. Never import this from client code.
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
export { EventLog, TERMINAL_STATUSES } from './bridge/events.ts'
export type { BridgeEvent, BridgeEventType, BridgeStatus } from './bridge/events.ts'
export { Journal } from './bridge/journal.ts'
export type { JournalEntry } from './bridge/journal.ts'
export { createToolContext } from './bridge/tool-context.ts'
export type { ToolPrimitives } from './bridge/tool-context.ts'
export { buildSamplingRequest, completeSample } from './sampling/sample.ts'

export { createChatHandler } from './chat/handler.ts'
export type { ChatHandler, ChatHandlerOptions } from './chat/handler.ts'
export { DEFAULT_LIMITS } from './chat/engine.ts'
export type { ChatLimits } from './chat/engine.ts'
export type { ChatModel, ModelRequest, ModelStreamPart, ModelTool } from './chat/model.ts'
export { fromAiSdk } from './chat/ai-sdk-model.ts'
export { createScriptedModel } from './chat/demo-model.ts'
export type { ScriptedModelRules, ScriptedReply } from './chat/demo-model.ts'
export { modelSampling } from './chat/model-sampling.ts'
export { chatMiddleware, toNodeListener } from './http/node-adapter.ts'
export type { FetchHandler } from './http/node-adapter.ts'
export { PluginSessionManager, SessionLimitError } from './session/plugin-session-manager.ts'
export type { CreatePluginSessionConfig, PluginSession, PluginSessionInfo, PluginSessionManagerOptions } from './session/plugin-session-manager.ts'
export { createMemorySessionStore } from './session/tool-session-store.ts'
export type { ToolSessionEntry, ToolSessionStatus, ToolSessionStore } from './session/tool-session-store.ts'
