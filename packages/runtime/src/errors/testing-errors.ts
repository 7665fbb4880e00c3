/** Errors of the test helpers (`@mcp-bridge/runtime/testing`): a mock client asked more than its script, a test clock misused. */
import { McpBridgeError } from './mcp-bridge-error.ts'

/** The mock client was asked more than its script answers. */
export class MockScriptExhaustedError extends McpBridgeError {
  readonly code = 'MOCK_SCRIPT_EXHAUSTED'
}

export class TestClockError extends McpBridgeError {
  readonly code = 'TEST_CLOCK_MISUSE'
}
