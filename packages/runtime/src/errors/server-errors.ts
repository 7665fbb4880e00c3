/** Errors of the server side: serving an app, signing callers in, conversations, models, the MCP endpoint and its sessions. */
import { McpBridgeError } from './mcp-bridge-error.ts'

/** Something failed while the app server closed; `cause` holds every failure (the rest still closed). */
export class AppServerCloseError extends McpBridgeError {
  readonly code = 'APP_SERVER_CLOSE_FAILED'
}

export class ServeAppListenError extends McpBridgeError {
  readonly code = 'SERVE_APP_LISTEN_FAILED'
}

/** `authenticate` threw, or returned what is not a caller: the request is refused (401), nothing runs. */
export class AuthenticationError extends McpBridgeError {
  readonly code = 'UNAUTHENTICATED'
}

export class ConversationWriteError extends McpBridgeError {
  readonly code = 'CONVERSATION_WRITE_FAILED'
}

/** A model adapter was misconfigured, or the model sent something unusable. */
export class ModelError extends McpBridgeError {
  readonly code = 'MODEL_ERROR'
}

export class McpServerClosedError extends McpBridgeError {
  readonly code = 'MCP_SERVER_CLOSED'
  constructor(name: string) {
    super(`MCP server "${name}" is closed; create a new one with createMcpServer().`)
  }
}

export class UnknownEventIdError extends McpBridgeError {
  readonly code = 'UNKNOWN_EVENT_ID'
}

export class McpAppViewError extends McpBridgeError {
  readonly code = 'MCP_APP_VIEW_UNAVAILABLE'
}

export class ClientRefusedError extends McpBridgeError {
  readonly code = 'CLIENT_REFUSED'
}

/**
 * A state refused, and why (`malformed`, `mac`, `expired`, `bind`, `no-context`). The SDK answers
 * the client with its frozen "Invalid or expired requestState"; the reason goes to `onError`.
 */
export class RequestStateRefusedError extends McpBridgeError {
  readonly code = 'REQUEST_STATE_REFUSED'
  constructor(readonly reason: 'malformed' | 'mac' | 'expired' | 'bind' | 'no-context') {
    super(`requestState refused: ${reason}`)
  }
}
