/**
 * @mcp-bridge/runtime/client — the browser side without a framework: the chat controller, the
 * plugin executor and registry, the emission store, the generated form's model, and the chat wire
 * (schemas and codec) for clients of your own. `./react` is a thin layer over this.
 *
 * @module
 */
export { createChatController } from './client/chat-controller.ts'
export type { AnswerRecord, ChatController, ChatControllerOptions, ChatItem, ChatState, ChatStatus, PendingElicitation, ToolItem } from './client/chat-controller.ts'
export { createPluginExecutor } from './client/plugin-executor.ts'
export type { HandleResult, HandlerOutcome, IncomingQuestion, PluginExecutor, PluginExecutorOptions, SendOutcome } from './client/plugin-executor.ts'
export { createPluginRegistry } from './client/plugin-registry.ts'
export type { PluginRegistry } from './client/plugin-registry.ts'
export { createEmissionStore } from './client/emission-store.ts'
export type { Emission, EmissionSnapshot, EmissionStore, ProgressLine } from './client/emission-store.ts'
export { fieldsFromSchema, initialValues, toContent, validateForm } from './client/form-model.ts'
export type { Choice, FormField, FormValues } from './client/form-model.ts'

export {
  chatRequestBodySchema,
  chatStreamEventSchema,
  conversationKeySchema,
  conversationSnapshotSchema,
  elicitRequestWireSchema,
  elicitResponseSchema,
  elicitResultSchema,
  NDJSON_CONTENT_TYPE,
} from './protocol/chat-wire.ts'
export type {
  ChatRequestBody,
  ChatStreamEvent,
  ChatStreamEventType,
  ConversationKey,
  ConversationSnapshot,
  ElicitRequestWire,
  ElicitResponseWire,
  ElicitResultWire,
  TranscriptEvent,
} from './protocol/chat-wire.ts'
export type { ConversationStorage } from './client/conversation-key.ts'
export { decodeElicitRequest, encodeChatEvent, encodeElicitRequest, readChatEvents } from './protocol/codec.ts'
export { encodeNdjson, readNdjson } from './protocol/ndjson.ts'
