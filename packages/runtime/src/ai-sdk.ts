/**
 * @mcp-bridge/runtime/ai-sdk — mcp-bridge tools in an AI SDK app: `createAiSdkBridge` turns the
 * generated `serverTools` into a ToolSet for `streamText` whose questions park durably and are
 * answered from `useChat` (see `@mcp-bridge/runtime/ai-sdk/react`). `ai` itself stays the app's
 * dependency: the shapes it exchanges are written out structurally.
 *
 * @module
 */
export { createAiSdkBridge } from './ai-sdk/create-ai-sdk-bridge.ts'
export type { AiSdkBridge, AiSdkBridgeLimits, AiSdkBridgeOptions, AiSdkTools, PrepareOptions, PreparedTurn } from './ai-sdk/create-ai-sdk-bridge.ts'
export { OUTPUT_MARK, readToolOutput, toolOutputSchema } from './protocol/ai-sdk-output.ts'
export type { AnsweredOutput, DoneOutput, InputRequiredOutput, McpBridgeToolOutput, RunningOutput } from './protocol/ai-sdk-output.ts'
export type { AiSdkInputSchema, AiSdkToolLike, StepsLike, UiChunkLike, UiMessageLike, UiPartLike, UiStreamWriterLike } from './protocol/ai-sdk-shapes.ts'
