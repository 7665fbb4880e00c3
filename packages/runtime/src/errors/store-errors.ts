/** What can go wrong with a call store itself (not with a call): a missing driver, a bad option, a closed store. */
import { McpBridgeError } from './mcp-bridge-error.ts'

export class StoreDriverMissingError extends McpBridgeError {
  readonly code = 'STORE_DRIVER_MISSING'
  constructor(factory: string, driver: string, cause: unknown) {
    super(`${factory} needs the "${driver}" package, which is not installed. Run: npm install ${driver}`, { cause })
  }
}

export class StoreClosedError extends McpBridgeError {
  readonly code = 'STORE_CLOSED'
  constructor(kind: string) {
    super(`This ${kind} call store was closed; create a new one.`)
  }
}

export class StoreUnavailableError extends McpBridgeError {
  readonly code = 'STORE_UNAVAILABLE'
  constructor(kind: string, where: string, cause: unknown) {
    super(`The ${kind} call store at ${where.replace(/\/\/[^@/]*@/, '//***@')} did not answer: ${(cause as Error)?.message ?? String(cause)}`, { cause })
  }
}

/** The store's tables were written by a newer version of mcp-bridge (or are not what it expects): it will not guess at them. */
export class StoreSchemaError extends McpBridgeError {
  readonly code = 'STORE_SCHEMA'
}
