/**
 * Every error the library throws on purpose is an `McpBridgeError` with a stable `code`, so
 * hosts can branch on `err.code` and messages stay free to say what happened and what to do.
 */
export abstract class McpBridgeError extends Error {
  abstract readonly code: string

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}
