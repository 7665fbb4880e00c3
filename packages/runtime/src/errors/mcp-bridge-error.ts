/** Marks an error of this library in every copy of it (a dev server may load two), for `isMcpBridgeError`. */
export const MCP_BRIDGE_ERROR = Symbol.for('mcp-bridge.error')

/**
 * Every error the library throws on purpose is an `McpBridgeError` with a stable `code`, so
 * hosts can branch on `err.code` (or `isMcpBridgeError(err, code)`) and messages stay free to say
 * what happened and what to do.
 */
export abstract class McpBridgeError extends Error {
  abstract readonly code: string

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    Object.defineProperty(this, MCP_BRIDGE_ERROR, { value: true })
  }
}

/** An error about one tool: the message starts with the tool's name, then the problem. */
export abstract class ToolProblemError extends McpBridgeError {
  constructor(
    readonly toolName: string,
    problem: string,
  ) {
    super(`Tool "${toolName}": ${problem}`)
  }
}
