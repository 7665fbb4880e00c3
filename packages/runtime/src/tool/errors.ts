/** Errors raised while a tool is being defined (builder misuse, invalid names or schemas). */
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'
import { formatViolation, type ElicitViolation } from '../schema/violation.ts'

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

export class ElicitationSchemaError extends McpBridgeError {
  readonly code = 'ELICITATION_SCHEMA_INVALID'
  constructor(
    readonly toolName: string,
    /** Every error-severity violation across all keys of the tool. */
    readonly violations: readonly ElicitViolation[],
  ) {
    const lines = violations.map((v) => `  - ${formatViolation(v)}`)
    super(
      `Tool "${toolName}" declares elicitation schemas that MCP clients cannot render ` +
        `(${violations.length} problem${violations.length === 1 ? '' : 's'}):\n${lines.join('\n')}\n` +
        `Elicitation schemas are flat z.object({...}) of strings, numbers, booleans and enums (MCP 2025-11-25, form mode).`,
    )
  }
}

/** A builder step called with something it cannot use (caught by the types in TypeScript). */
export class ToolDefinitionError extends McpBridgeError {
  readonly code = 'TOOL_DEFINITION_INVALID'
  constructor(
    readonly toolName: string,
    problem: string,
  ) {
    super(`Tool "${toolName}": ${problem}`)
  }
}
