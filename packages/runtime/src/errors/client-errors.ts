/**
 * What a client is told when something fails on the server: a stable code and a sentence for
 * people — never internal or upstream text (a provider's `connect ECONNREFUSED 10.0.0.5:8080`, a
 * store's address, a stack), which would tell an attacker about the network and a person nothing
 * they can act on. The details go to the server's log instead.
 */
import { McpBridgeError } from './mcp-bridge-error.ts'

const SENTENCES: Record<string, string> = {
  STORE_UNAVAILABLE: 'The server could not reach its storage just now. Try again in a moment.',
  STORE_CLOSED: 'The server is shutting down. Try again in a moment.',
  MODEL_ERROR: 'The model could not answer just now. Try again in a moment.',
}
const FALLBACK = 'Something went wrong on the server. Try again in a moment.'
/** Refusals whose own words are for the person and the model (a limit reached, and what to do): said as they are, not logged as failures. */
const SAID_AS_IS = new Set(['TOO_MANY_CALLS', 'DUPLICATE_CALL'])

/** Where the details go: the app's logger (`telemetry/logger.ts`), or the console. */
export interface ErrorLog {
  error(fields: { err: unknown }, message: string): void
}
const consoleLog: ErrorLog = { error: ({ err }, message) => console.error(`[mcp-bridge] ${message}:`, err) }

/**
 * The code and sentence for the client; the error itself is logged with `context` (name the call
 * in it). One mapping for every surface: the chat's events and tool results, MCP tool errors, the
 * AI SDK's outputs.
 */
export function forClient(error: unknown, context: string, log: ErrorLog = consoleLog): { code: string; message: string } {
  if (error instanceof McpBridgeError && SAID_AS_IS.has(error.code)) return { code: error.code, message: error.message }
  log.error({ err: error }, context)
  const code = error instanceof McpBridgeError ? error.code : 'INTERNAL_ERROR'
  return { code, message: SENTENCES[code] ?? FALLBACK }
}
