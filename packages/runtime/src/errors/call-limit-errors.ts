/**
 * Why a registry would not start or go on with a call: the server or its client holds too many
 * (`TooManyCallsError`), the id is in use (`DuplicateCallError`), or another instance advanced the
 * call meanwhile (`CallSupersededError`).
 */
import { McpBridgeError } from './mcp-bridge-error.ts'

export class TooManyCallsError extends McpBridgeError {
  readonly code = 'TOO_MANY_CALLS'
  constructor(limit: number, option: string, perClient = false, shrunk?: { held: number; share: number; all: number; total: number }) {
    super(
      !perClient
        ? `This server already holds ${limit} tool calls waiting for input (${option}); finish or cancel some, or try again later.`
        : shrunk && shrunk.share < limit
          ? `You hold ${shrunk.held} tool calls on this server; while it is ${Math.min(100, Math.floor((100 * shrunk.all) / shrunk.total))} % full each client may hold ${shrunk.share} (${option} is ${limit} while it is at most half full). Answer or cancel some first.`
          : `You already hold ${limit} tool calls on this server (${option}); answer or cancel some first.`,
    )
  }
}

export class DuplicateCallError extends McpBridgeError {
  readonly code = 'DUPLICATE_CALL'
  constructor(callId: string) {
    super(`A tool call with id "${callId}" is already running; each tool call needs its own id.`)
  }
}

/** The store refused a write because another instance advanced the call meanwhile. */
export class CallSupersededError extends McpBridgeError {
  readonly code = 'CALL_SUPERSEDED'
  constructor(callId: string) {
    super(`Tool call "${callId}" was advanced by another request or instance; this copy of it stopped.`)
  }
}
