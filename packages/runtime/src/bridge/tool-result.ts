/**
 * How a finished call reads as a tool result, for the chat model and for MCP clients alike (one
 * mapper, so both say the same thing). A failure is a result with `isError` that the model reads
 * and can recover from, never an exception that breaks the conversation.
 */
import { ToolParamsError } from '../errors/call-errors.ts'
import { isPlainObject } from '../schema/json-schema.ts'
import type { BridgeOutcome } from './create-bridge-host.ts'

// A type alias, not an interface: it is then assignable to the SDK's CallToolResult (index signature).
export type ToolResultBody = {
  content: Array<{ type: 'text'; text: string }>
  /** Object results also go out structured, for readers that use it. */
  structuredContent?: Record<string, unknown>
  isError?: true
}

export function toolResultOf(outcome: BridgeOutcome<unknown>): ToolResultBody {
  if (outcome.status === 'aborted') return errorResult(`The tool call was aborted: ${outcome.reason}`)
  if (outcome.status === 'failed') {
    const { error } = outcome
    // Bad arguments are the model's to fix: say so plainly, without "the tool failed".
    return errorResult(error instanceof ToolParamsError ? error.message : `The tool failed: ${error.message}`)
  }
  const value = outcome.result
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  return {
    content: [{ type: 'text', text: JSON.stringify(value) ?? 'null' }],
    ...(isPlainObject(value) && { structuredContent: value }),
  }
}

export function errorResult(message: string): ToolResultBody {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/** The text of a result, joined (what a UI shows for a failed call). */
export function resultText(result: ToolResultBody): string {
  return result.content.map((c) => c.text).join('')
}
