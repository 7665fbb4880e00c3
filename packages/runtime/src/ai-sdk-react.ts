/**
 * @mcp-bridge/runtime/ai-sdk/react — the browser half of the AI SDK bridge: `useMcpBridge(useChat(), { plugins })`
 * and `<McpBridgeToolPart />`, which renders an mcp-bridge call's part with the app's generated
 * `clientPlugins` (or the generated form) and answers through `addToolOutput` + `sendMessage()`.
 *
 * @module
 */
export { useMcpBridge } from './react/use-mcp-bridge.ts'
export type { AiSdkChatLike, McpBridgeChat, McpBridgePart, UseMcpBridgeOptions } from './react/use-mcp-bridge.ts'
export { McpBridgeToolPart } from './react/mcp-bridge-tool-part.tsx'
export type { McpBridgeToolPartProps } from './react/mcp-bridge-tool-part.tsx'
export { readToolOutput } from './protocol/ai-sdk-output.ts'
export type { DoneOutput, InputRequiredOutput, McpBridgeToolOutput, RunningOutput } from './protocol/ai-sdk-output.ts'
