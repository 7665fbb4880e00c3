/**
 * @mcp-bridge/runtime/react — React hooks and components over `./client`: `useChat`, the
 * plugin UI at a tool call's place, and the generated form. The client types a React app reads
 * (chat items, emissions) are re-exported for convenience.
 *
 * @module
 */
export { useChat } from './react/use-chat.ts'
export type { UseChatResult } from './react/use-chat.ts'
export { PluginEmission, SendingAnswer, ToolCallEmissions, useEmissions } from './react/emission-view.tsx'
export { GeneratedForm } from './react/generated-form.tsx'
export { ToolContentView } from './react/tool-content-view.tsx'
export { useFieldErrors } from './react/use-field-errors.ts'
export { useFollowLatest } from './react/use-follow-latest.ts'
export type { FollowLatest } from './react/use-follow-latest.ts'
export type { FieldErrors } from './react/use-field-errors.ts'
export type { GeneratedFormProps } from './react/generated-form.tsx'
export type { AnswerRecord, ChatController, ChatControllerOptions, ChatItem, ChatState, ChatStatus, PendingElicitation, ToolItem } from './client/chat-controller.ts'
export type { Emission, EmissionSnapshot, EmissionStore } from './client/emission-store.ts'
