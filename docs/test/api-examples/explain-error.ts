import { isMcpBridgeError } from '@mcp-bridge/runtime/errors'

export function explain(error: unknown): string {
  if (isMcpBridgeError(error, 'INVALID_OPTIONS')) return `fix ${error.options.join(', ')}: ${error.message}`
  if (isMcpBridgeError(error, 'TOO_MANY_CALLS')) return 'too many calls held; answer or cancel some'
  if (isMcpBridgeError(error)) return `${error.code}: ${error.message}`
  return String(error)
}
