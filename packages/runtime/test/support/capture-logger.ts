/** A logger (`McpBridgeLogger`) that keeps what it is told, for tests to read. */
import type { LogFields, McpBridgeLogger } from '../../src/server.ts'

export interface LoggedEntry {
  level: 'debug' | 'info' | 'warn' | 'error'
  fields: LogFields
  message: string
}

export function captureLogger(): { logger: McpBridgeLogger; entries: LoggedEntry[] } {
  const entries: LoggedEntry[] = []
  const at = (level: LoggedEntry['level']) => (fields: LogFields, message: string) => void entries.push({ level, fields, message })
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, entries }
}
