/**
 * Where the runtime says what happened on the server: one `logger` option on the chat handler,
 * the MCP server and `serveApp`, with the signature of pino's methods (`logger.warn(fields,
 * message)`), so `logger: pino()` fits as it is; the default writes one line per entry to the
 * console. Lines written while a traced operation runs carry its `trace_id` and `span_id`, so a
 * log line finds its trace (see `tracing.ts`).
 */
import { z } from 'zod/v4'
import { activeTraceIds } from './otel.ts'

/** Fields of an entry: what a log search filters on (`callId`, `tool`, `err`, …). */
export type LogFields = Record<string, unknown>

/** A logger with pino's method signature (pino, or anything with these four methods). */
export interface McpBridgeLogger {
  debug(fields: LogFields, message: string): void
  info(fields: LogFields, message: string): void
  warn(fields: LogFields, message: string): void
  error(fields: LogFields, message: string): void
}

const LEVELS = ['debug', 'info', 'warn', 'error'] as const

/** An option value that is a logger (checked where options are). */
export const loggerOption = z.custom<McpBridgeLogger>(
  (value) => typeof value === 'object' && value !== null && LEVELS.every((level) => typeof (value as Record<string, unknown>)[level] === 'function'),
  'a logger with debug, info, warn and error methods, e.g. pino() or console-like { debug(fields, message) {…}, … }',
)

/** The default: `[mcp-bridge] message` on the console, the fields after it. */
export const consoleLogger: McpBridgeLogger = {
  debug: (fields, message) => console.debug(`[mcp-bridge] ${message}`, ...shown(fields)),
  info: (fields, message) => console.info(`[mcp-bridge] ${message}`, ...shown(fields)),
  warn: (fields, message) => console.warn(`[mcp-bridge] ${message}`, ...shown(fields)),
  error: (fields, message) => console.error(`[mcp-bridge] ${message}`, ...shown(fields)),
}

/** The console's error stream for every level: for a stdio MCP server, whose stdout is the protocol. */
export const stderrLogger: McpBridgeLogger = {
  debug: (fields, message) => console.error(`[mcp-bridge] ${message}`, ...shown(fields)),
  info: (fields, message) => console.error(`[mcp-bridge] ${message}`, ...shown(fields)),
  warn: (fields, message) => console.error(`[mcp-bridge] ${message}`, ...shown(fields)),
  error: (fields, message) => console.error(`[mcp-bridge] ${message}`, ...shown(fields)),
}

function shown(fields: LogFields): unknown[] {
  const { err, ...rest } = fields
  return [...(Object.keys(rest).length > 0 ? [rest] : []), ...(err !== undefined ? [err] : [])]
}

/** `logger`, each entry with the trace it was written in (when one is active). */
export function withTraceIds(logger: McpBridgeLogger): McpBridgeLogger {
  const entry = (level: (typeof LEVELS)[number]) => (fields: LogFields, message: string) => {
    const ids = activeTraceIds()
    logger[level](ids ? { ...fields, ...ids } : fields, message)
  }
  return { debug: entry('debug'), info: entry('info'), warn: entry('warn'), error: entry('error') }
}
