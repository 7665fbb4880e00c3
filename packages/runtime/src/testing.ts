/**
 * @mcp-bridge/runtime/testing — unit-test tools against a scripted client.
 */
export { createMockMcpClient } from './testing/mock-client.ts'
export type {
  MockElicitResponse,
  MockMcpClient,
  MockMcpClientOptions,
  MockSampleReply,
  MockSampleResponse,
} from './testing/mock-client.ts'
export { runMcpTool } from './testing/run-mcp-tool.ts'
export type { RunMcpToolOptions, RunMcpToolResult, TimelineEntry } from './testing/run-mcp-tool.ts'
