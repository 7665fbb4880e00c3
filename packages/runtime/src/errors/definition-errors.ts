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

export class ResourceDefinitionError extends McpBridgeError {
  readonly code = 'RESOURCE_DEFINITION_INVALID'
  constructor(
    readonly uri: string,
    problem: string,
  ) {
    super(`Resource "${uri}": ${problem}`)
  }
}

/** A prompt defined wrongly (its name, its arguments, a builder step misused). */
export class PromptDefinitionError extends McpBridgeError {
  readonly code = 'PROMPT_DEFINITION_INVALID'
  constructor(
    readonly promptName: string,
    problem: string,
  ) {
    super(`Prompt "${promptName}": ${problem}`)
  }
}

export class PluginDefinitionError extends McpBridgeError {
  readonly code = 'PLUGIN_DEFINITION_INVALID'
  constructor(toolName: string, problem: string) {
    super(`Plugin for tool "${toolName}": ${problem}`)
  }
}

/** Content a tool returned that is not MCP content. */
export class ToolContentError extends McpBridgeError {
  readonly code = 'TOOL_CONTENT_INVALID'
}

export class PlainFormError extends McpBridgeError {
  readonly code = 'PLAIN_FORM_INVALID'
}

export class ModelContextError extends McpBridgeError {
  readonly code = 'MODEL_CONTEXT_INVALID'
  constructor(
    /** Where the value is, e.g. `flights[2].departs`. */
    readonly path: string,
    problem: string,
  ) {
    super(`Context value at ${path || '(root)'} ${problem}. Context data must be plain JSON: strings, finite numbers, booleans, null, arrays and plain objects.`)
  }
}

export class ToolListError extends McpBridgeError {
  readonly code = 'TOOL_LIST_INVALID'
}

/** A schema that is not a zod 4 schema (zod 3, a plain object...) was given where one is needed. */
export class NotZod4Error extends McpBridgeError {
  readonly code = 'NOT_ZOD_4'
}
