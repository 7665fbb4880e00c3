/**
 * How a finished call reads as an MCP tool result. A failure is a result with `isError` (the
 * model reads it and can recover), never a JSON-RPC error that breaks the client's call.
 */
import type { CallToolResult } from '@modelcontextprotocol/server'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { isPlainObject } from '../schema/json-schema.ts'

export function toCallToolResult(outcome: BridgeOutcome<unknown>): CallToolResult {
  if (outcome.status === 'failed') return errorResult(outcome.error.message)
  if (outcome.status === 'aborted') return errorResult(`The tool call was aborted: ${outcome.reason}`)
  const value = outcome.result
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  const text = JSON.stringify(value) ?? 'null'
  return {
    content: [{ type: 'text', text }],
    // Objects also go out as structured content, for clients that read it.
    ...(isPlainObject(value) && { structuredContent: value as Record<string, unknown> }),
  }
}

export function errorResult(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] }
}
