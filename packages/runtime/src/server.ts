/**
 * @mcp-bridge/runtime/server — runs tool calls on the server. Never import this from client code.
 */
export { createBridgeHost } from './bridge/create-bridge-host.ts'
export type {
  BridgeHost,
  BridgeHostOptions,
  BridgeOutcome,
  ElicitResponse,
  RespondOutcome,
} from './bridge/create-bridge-host.ts'
export { EventLog, TERMINAL_STATUSES } from './bridge/events.ts'
export type { BridgeEvent, BridgeEventType, BridgeStatus } from './bridge/events.ts'
export { Journal } from './bridge/journal.ts'
export type { JournalEntry } from './bridge/journal.ts'
export { createToolContext } from './bridge/tool-context.ts'
export type { ToolPrimitives } from './bridge/tool-context.ts'
export { buildSamplingRequest, completeSample } from './sampling/sample.ts'
