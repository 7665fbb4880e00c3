/** A tool declared elicitation schemas MCP clients cannot render; thrown at definition time. */
import { McpBridgeError } from './mcp-bridge-error.ts'
import { formatViolation, type ElicitViolation } from './violation.ts'

export class ElicitationSchemaError extends McpBridgeError {
  readonly code = 'ELICITATION_SCHEMA_INVALID'
  constructor(
    readonly toolName: string,
    /** Every error-severity violation across all keys of the tool. */
    readonly violations: readonly ElicitViolation[],
    /** The warnings of the same schemas, so a report of the errors does not hide them. */
    readonly warnings: readonly ElicitViolation[] = [],
  ) {
    const lines = violations.map((v) => `  - ${formatViolation(v)}`)
    super(
      `Tool "${toolName}" declares elicitation schemas that MCP clients cannot render ` +
        `(${violations.length} problem${violations.length === 1 ? '' : 's'}):\n${lines.join('\n')}\n` +
        `Elicitation schemas are flat z.object({...}) of strings, numbers, booleans and enums (MCP 2025-11-25, form mode).`,
    )
  }
}
