/**
 * How a finished call reads as a tool result, for the chat model and for MCP clients alike (one
 * mapper, so both say the same thing). A failure is a result with `isError` that the model reads
 * and can recover from, never an exception that breaks the conversation.
 */
import type { CompletedStep } from './journal.ts'
import { JournalDivergenceError, ToolParamsError } from '../errors/call-errors.ts'
import { isPlainObject } from '../schema/json-schema.ts'
import type { RichContent } from '../sampling/content.ts'
import { contentText, isToolContent } from '../tool/with-content.ts'
import type { BridgeOutcome } from './create-bridge-host.ts'

// A type alias, not an interface: it is then assignable to the SDK's CallToolResult (index signature).
/**
 * A call's end as a tool result: the value or the error text, flagged `isError`, as a model and an MCP client get it.
 */
export type ToolResultBody = {
  /** Text, or what `withContent` gave: images, audio, resources. */
  content: RichContent[]
  /** Object results also go out structured, for readers that use it. */
  structuredContent?: Record<string, unknown>
  isError?: true
}

/**
 * A call's end as the tool result a model or an MCP client reads: the value as text (or content blocks and
 * structured content), or an error result that says why.
 *
 * @example
 * ```ts
 * import { toolResultOf } from '@mcp-bridge/runtime/server'
 *
 * toolResultOf({ status: 'completed', result: 'Booked' }) // { content: [{ type: 'text', text: 'Booked' }] }
 * toolResultOf({ status: 'aborted', reason: 'the user left' })
 * // { content: [{ type: 'text', text: 'The tool call was aborted: the user left' }], isError: true }
 * ```
 */
export function toolResultOf(outcome: BridgeOutcome<unknown>): ToolResultBody {
  if (outcome.status === 'aborted') {
    return errorResult(`The tool call was ${outcome.cancelled ? 'cancelled' : 'aborted'}: ${outcome.reason}${alreadyDone(outcome.completed) || (outcome.cancelled ? '.' : '')}`)
  }
  if (outcome.status === 'failed') {
    const { error } = outcome
    // Bad arguments are the model's to fix: say so plainly, without "the tool failed".
    if (error instanceof ToolParamsError) return errorResult(error.message)
    // Said for the person (the details, for developers, go to the server's log).
    if (error instanceof JournalDivergenceError) return errorResult(UPDATED_UNDER_IT)
    return errorResult(`The tool failed: ${error.message}`)
  }
  const value = outcome.result
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] }
  if (isToolContent(value)) return { content: [...value.content], ...(isPlainObject(value.structured) && { structuredContent: value.structured }) }
  return {
    content: [{ type: 'text', text: JSON.stringify(value) ?? 'null' }],
    ...(isPlainObject(value) && { structuredContent: value }),
  }
}

/** What a call that cannot go on after a change of its tool's code tells the person. */
export const UPDATED_UNDER_IT = "This request was started before the app was updated and can't continue. Please start it again."

export function errorResult(message: string): ToolResultBody {
  return { content: [{ type: 'text', text: message }], isError: true }
}

/** A step's result as a stopped call's result quotes it: its JSON, cut at this many characters. */
const RESULT_CHARS = 200

/**
 * What a stopped call had done, and did not undo, in words, with what each step returned:
 * `. Already done before it stopped (not undone): "issue ticket" (its result: "TK-OSL").`
 */
export function alreadyDone(completed: readonly CompletedStep[] | undefined): string {
  const done = doneBeforeStop(completed)
  return done ? `. ${done}` : ''
}

/** The same sentence on its own, for a page to show under a stopped call: `Already done before it stopped (not undone): …`. */
export function doneBeforeStop(completed: readonly CompletedStep[] | undefined): string | undefined {
  if (!completed?.length) return undefined
  const said = completed.map(({ name, result }) => {
    if (result === undefined) return `"${name}"`
    const json = JSON.stringify(result) ?? String(result)
    return `"${name}" (its result: ${json.length > RESULT_CHARS ? `${json.slice(0, RESULT_CHARS)}…` : json})`
  })
  return `Already done before it stopped (not undone): ${said.join(', ')}.`
}

/** The text of a result, joined (what a UI shows for a failed call). */
export function resultText(result: ToolResultBody): string {
  return result.content.map(contentText).join('')
}
