/** Errors of the browser side: the chat client and its wire format, plugins and their handlers, MCP Apps views and their host. */
import { McpBridgeError } from './mcp-bridge-error.ts'

/** The other end broke the wire format (a line that is not JSON, an event of no known type). */
export class ChatProtocolError extends McpBridgeError {
  readonly code = 'CHAT_PROTOCOL'
}

/** `send` while a tool call waits for an answer: the message is not sent (answer or cancel first). */
export class QuestionPendingError extends McpBridgeError {
  readonly code = 'QUESTION_PENDING'
}

/** The chat endpoint answered with an error status, or reported an error in the stream. */
export class ChatEndpointError extends McpBridgeError {
  readonly code = 'CHAT_ENDPOINT_ERROR'
}

export class DuplicatePluginError extends McpBridgeError {
  readonly code = 'DUPLICATE_PLUGIN'
  constructor(toolName: string, first: string, second: string) {
    super(
      `Two plugins are registered for tool "${toolName}": ${first} and ${second}. ` +
        "Register each tool's plugin once (the generated clientPlugins list already holds every plugin).",
    )
  }
}

export class PluginRegistrationError extends McpBridgeError {
  readonly code = 'PLUGIN_REGISTRATION_INVALID'
}

export class McpAppHostError extends McpBridgeError {
  readonly code = 'MCP_APP_HOST_ERROR'
}

export class PluginHandlerError extends McpBridgeError {
  readonly code = 'PLUGIN_HANDLER_FAILED'
  constructor(toolName: string, key: string, problem: string) {
    super(`The onElicit handler for "${key}" of tool "${toolName}" ${problem}`)
  }
}

export class McpAppViewMountError extends McpBridgeError {
  readonly code = 'MCP_APP_VIEW_MOUNT_FAILED'
}
