/** What the chat client reports to the person: each an `McpBridgeError` with a stable code. */
import { McpBridgeError } from '../errors/mcp-bridge-error.ts'

/** `send` while a tool call waits for an answer: the message is not sent (answer or cancel first). */
export class QuestionPendingError extends McpBridgeError {
  readonly code = 'QUESTION_PENDING'
}

/** The chat endpoint answered with an error status, or reported an error in the stream. */
export class ChatEndpointError extends McpBridgeError {
  readonly code = 'CHAT_ENDPOINT_ERROR'
}
