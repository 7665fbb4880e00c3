/**
 * @mcp-bridge/runtime/react — the client side of plugins: registry, executor, render emissions.
 * (useChat and the fallback form arrive with the chat protocol.)
 */
export { createPluginRegistry, DuplicatePluginError } from './react/plugin-registry.ts'
export type { PluginRegistry } from './react/plugin-registry.ts'
export { createEmissionStore } from './react/emission-store.ts'
export type { Emission, EmissionSnapshot, EmissionStore, ProgressLine } from './react/emission-store.ts'
export { createPluginExecutor, PluginHandlerError } from './react/plugin-executor.ts'
export type {
  HandleResult,
  HandlerOutcome,
  PluginExecutor,
  PluginExecutorOptions,
  SendOutcome,
  WireElicitRequest,
} from './react/plugin-executor.ts'
export { PluginEmission, ToolCallEmissions, useEmissions } from './react/emission-view.tsx'
export { FallbackForm } from './react/fallback-form.tsx'
export type { FallbackFormProps } from './react/fallback-form.tsx'
export { fieldsFromSchema, initialValues, toContent, validateForm } from './react/form-model.ts'
export type { Choice, FormField, FormValues } from './react/form-model.ts'
export { createChatController } from './react/chat-controller.ts'
export type { ChatController, ChatControllerOptions, ChatItem, ChatState, ChatStatus, PendingElicitation, ToolItem } from './react/chat-controller.ts'
export { useChat } from './react/use-chat.ts'
export type { UseChatResult } from './react/use-chat.ts'
