/**
 * `runMcpTool(tool, params, client)`: run a tool to the end against a mock client and get its
 * result plus the ordered timeline of everything that happened — the way to unit-test a tool
 * in a few lines, on the same bridge the app uses.
 */
import { createBridgeHost } from '../bridge/create-bridge-host.ts'
import type { BridgeEvent } from '../bridge/events.ts'
import type { JournalEntry } from '../bridge/journal.ts'
import type { AnyMcpTool, ToolResult } from '../tool/mcp-tool.ts'
import type { MockMcpClient } from './mock-client.ts'

/** A host event, or an answer the bridge refused (invalid content, wrong id). */
export type TimelineEntry = BridgeEvent | { type: 'elicit_refused'; id: string; key: string; code: string; message: string }

/**
 * How a `runMcpTool` run ended (`completed`, `failed`, `aborted`), with the result, the error or the reason, the timeline of everything that happened and the journal.
 */
export interface RunMcpToolResult<R> {
  status: 'completed' | 'failed' | 'aborted'
  /** The tool's result when completed. */
  result: R | undefined
  error: Error | undefined
  /** Why the run was aborted (e.g. the mock client ran out of answers). */
  reason: string | undefined
  timeline: TimelineEntry[]
  journal: readonly JournalEntry[]
}

/**
 * Options of `runMcpTool`: the call id to use and a signal that aborts the run.
 */
export interface RunMcpToolOptions {
  callId?: string
  signal?: AbortSignal
}

/**
 * Runs a tool to its end on the same bridge the app uses, with a scripted client answering its questions and
 * sampling requests: the way to test a tool without a browser, a model or an MCP client.
 *
 * @example
 * ```ts
 * import { createMockMcpClient, runMcpTool } from '@mcp-bridge/runtime/testing'
 * import { bookFlight } from './tools.ts'
 *
 * const run = await runMcpTool(bookFlight, { destination: 'LAX' }, createMockMcpClient({
 *   elicitResponses: [{ action: 'accept', content: { row: 12, seat: 'C' } }],
 * }))
 * run.status   // 'completed'
 * run.result   // what the tool returned
 * run.timeline // [elicit, elicit_resolved, notify, completed]
 * ```
 */
export async function runMcpTool<T extends AnyMcpTool>(tool: T, params: unknown, client: MockMcpClient, options: RunMcpToolOptions = {}): Promise<RunMcpToolResult<ToolResult<T>>> {
  const host = createBridgeHost({
    tool,
    params,
    callId: options.callId ?? 'call_test_1',
    sampling: client,
    ...(options.signal && { signal: options.signal }),
  })
  const timeline: TimelineEntry[] = []

  for await (const event of host.subscribe()) {
    timeline.push(event)
    if (event.type !== 'elicit') continue
    // Keep answering until one is accepted: a refused answer leaves the elicitation pending,
    // like a UI showing the errors and letting the user correct them.
    while (host.pending() === event.request) {
      const answer = client.answerElicit(event.request)
      if (!answer) {
        void host.abort(`mock MCP client has no answer left for "${event.request.key}" (${event.request.id}); add one to elicitResponses`)
        break
      }
      const outcome = host.respond({ id: event.request.id, result: answer })
      if (!outcome.ok) timeline.push({ type: 'elicit_refused', id: event.request.id, key: event.request.key, code: outcome.code, message: outcome.message })
    }
  }

  const outcome = await host.outcome
  return {
    status: outcome.status,
    result: outcome.status === 'completed' ? outcome.result : undefined,
    error: outcome.status === 'failed' ? outcome.error : undefined,
    reason: outcome.status === 'aborted' ? outcome.reason : undefined,
    timeline,
    journal: host.journal,
  }
}
