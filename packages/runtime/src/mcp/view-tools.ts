/**
 * The two app-only tools a view uses to reach its call (`_meta.ui.visibility: ["app"]`: hosts
 * offer them to views, never to the model; clients without the extension are not shown them):
 *
 *   mcp_bridge_view_next   take the call (first time: by the tools/call's id, or tool and
 *                          arguments; it returns a pass), or wait for its state to change after
 *                          the version the view has — a question, "working", or how it ended.
 *   mcp_bridge_view_answer hand the answer to the question; a refused answer comes back with its
 *                          issues (shown in the component) and changes nothing.
 *
 * Each waits at most `LONG_POLL_MS`, below the usual request timeouts of hosts.
 */
import { until, type Operation } from 'effection'
import { z } from 'zod/v4'
import type { CallToolResult, RequestId } from '@modelcontextprotocol/server'
import { summarizeIssues, formatIssues } from '../errors/issues.ts'
import { elicitResultSchema } from '../protocol/chat-wire.ts'
import { digestArguments } from './call-state.ts'
import type { CallRegistry } from '../calls/call-registry.ts'
import type { McpCall, McpRound } from './mcp-call.ts'
import type { Seat, ViewDesk } from './view-desk.ts'

export const VIEW_NEXT_TOOL = 'mcp_bridge_view_next'
export const VIEW_ANSWER_TOOL = 'mcp_bridge_view_answer'
export const LONG_POLL_MS = 20_000
/** How long a view's first request waits for its call to start (the host may render the view first). */
export const CLAIM_WAIT_MS = 5_000

const nextInput = z
  .object({
    tool: z.string().min(1),
    requestId: z.union([z.string(), z.number()]).optional(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    callId: z.string().optional(),
    pass: z.string().optional(),
    after: z.number().int().min(0).optional(),
  })
  .strict()

const answerInput = z
  .object({
    callId: z.string().min(1),
    pass: z.string().min(1),
    elicitId: z.string().min(1),
    result: elicitResultSchema,
  })
  .strict()

/** What tools/list shows a client that renders views. */
export function viewToolListing(): Array<Record<string, unknown>> {
  const appOnly = { ui: { visibility: ['app'] } }
  return [
    {
      name: VIEW_NEXT_TOOL,
      description: 'For MCP Apps views of this server: the state of the tool call the view shows (its question, or how it ended).',
      inputSchema: z.toJSONSchema(nextInput, { io: 'input' }),
      _meta: appOnly,
    },
    {
      name: VIEW_ANSWER_TOOL,
      description: "For MCP Apps views of this server: answer the question of the view's tool call.",
      inputSchema: z.toJSONSchema(answerInput, { io: 'input' }),
      _meta: appOnly,
    },
  ]
}

export interface ViewToolContext {
  desk: ViewDesk
  calls: CallRegistry<McpRound>
  /** Tool names that have a view. */
  viewed: ReadonlySet<string>
  /** Store the call's question again and let go of it (the same as between rounds). */
  park: (call: McpCall) => Operation<void>
  waitMs?: number
}

export function serveViewTool(name: string, args: unknown, context: ViewToolContext): Operation<CallToolResult> {
  return name === VIEW_NEXT_TOOL ? next(args, context) : answer(args, context)
}

function* next(args: unknown, { desk, viewed, waitMs = LONG_POLL_MS }: ViewToolContext): Operation<CallToolResult> {
  const parsed = nextInput.safeParse(args)
  if (!parsed.success) return refused(`${VIEW_NEXT_TOOL}: ${formatIssues(summarizeIssues(parsed.error.issues))}`)
  const input = parsed.data
  if (input.callId !== undefined || input.pass !== undefined) {
    const seat = input.callId === undefined ? undefined : desk.seat(input.callId, input.pass)
    if (!seat) return refused('This view no longer holds that tool call (another view took it, or the session ended).')
    yield* desk.changedAfter(seat, input.after ?? 0, waitMs)
    return stateOf(seat)
  }
  if (!viewed.has(input.tool)) return refused(`Tool "${input.tool}" has no view on this server.`)
  const claimed = yield* desk.claim(
    { tool: input.tool, argsDigest: digestArguments(input.arguments ?? {}), ...(input.requestId !== undefined && { requestId: input.requestId as RequestId }) },
    Math.min(waitMs, CLAIM_WAIT_MS),
  )
  if (!claimed) return structured({ status: 'not_found', message: `No call of "${input.tool}" with these arguments is running in this session.` })
  return stateOf(claimed.seat, claimed.pass)
}

function* answer(args: unknown, { desk, calls, park }: ViewToolContext): Operation<CallToolResult> {
  const parsed = answerInput.safeParse(args)
  if (!parsed.success) return refused(`${VIEW_ANSWER_TOOL}: ${formatIssues(summarizeIssues(parsed.error.issues))}`)
  const { callId, pass, elicitId, result } = parsed.data
  const seat = desk.seat(callId, pass)
  if (!seat) return refused('This view no longer holds that tool call (another view took it, or the session ended).')
  if (seat.state.status !== 'question' || seat.state.question.id !== elicitId) {
    return structured({ status: 'stale', message: 'That question is no longer open.', version: seat.version })
  }
  // The call is parked here; taking it back holds its lock until it parks again or ends.
  // The seat is this session's (its pass proves it): it answers as the call's own caller.
  const resumed = yield* until(calls.resume(callId, { revision: seat.call.revision, ...(seat.call.auth && { caller: seat.call.auth }), replay: () => undefined }))
  if (!resumed.ok) return structured({ status: 'stale', message: resumed.message, version: seat.version })
  const call: McpCall = resumed.call
  const outcome = call.host.respond({ id: elicitId, result })
  if (!outcome.ok) {
    yield* park(call) // nothing was applied: the call waits for a proper answer
    return structured({ status: 'refused', message: outcome.message, issues: outcome.issues ?? [], version: seat.version })
  }
  desk.answered(seat)
  return structured({ status: 'accepted', version: seat.version })
}

function stateOf(seat: Seat, pass?: string): CallToolResult {
  return structured({ callId: seat.call.callId, version: seat.version, ...(pass !== undefined && { pass }), ...seat.state })
}

function structured(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

function refused(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}
