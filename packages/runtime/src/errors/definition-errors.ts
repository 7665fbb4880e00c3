/** Errors raised while a tool is being defined (builder misuse, invalid names). */
import { McpBridgeError, ToolProblemError } from './mcp-bridge-error.ts'

export class InvalidToolNameError extends McpBridgeError {
  readonly code = 'INVALID_TOOL_NAME'
  constructor(
    readonly toolName: string,
    reason: string,
  ) {
    super(
      `Invalid tool name ${JSON.stringify(toolName)}: ${reason}. MCP (2025-11-25) tool names are 1–128 characters of ` +
        `A–Z, a–z, 0–9, "_", "-" and "."; for example "book_flight" or "calendar.create-event".`,
    )
  }
}

/** A builder step called with something it cannot use (caught by the types in TypeScript). */
export class ToolDefinitionError extends ToolProblemError {
  readonly code = 'TOOL_DEFINITION_INVALID'
}
