/**
 * @mcp-bridge/runtime/testing — unit-test tools against a scripted client, and a scripted chat
 * model for offline apps and tests.
 *
 * @module
 */
export { createMockMcpClient } from './testing/mock-client.ts'
export type { MockElicitResponse, MockMcpClient, MockMcpClientOptions, MockSampleReply, MockSampleResponse } from './testing/mock-client.ts'
export { runMcpTool } from './testing/run-mcp-tool.ts'
export type { RunMcpToolOptions, RunMcpToolResult, TimelineEntry } from './testing/run-mcp-tool.ts'
export { createScriptedModel } from './testing/scripted-model.ts'
export type { ScriptedModelRules, ScriptedReply } from './testing/scripted-model.ts'
export { createTestClock } from './testing/test-clock.ts'
export type { TestClock } from './testing/test-clock.ts'
