/**
 * What an mcp-bridge tool's part holds in an AI SDK `UIMessage`: its `output`, one schema for both
 * ends. The server writes `running`, `input-required` and `done`; the browser writes `answered`
 * or `cancel-requested` over an `input-required` output (with `addToolOutput`) and sends the
 * messages again — the AI SDK's own tool-result path — and the server takes it from there.
 *
 * The part is the call's place in the app's stored messages: a reload restores the question from
 * it, and the `token` in it is what lets this chat (and nobody else) answer or cancel the call.
 */
import { z } from 'zod/v4'
import { elicitRequestWireSchema, elicitResultSchema, type ElicitRequestWire, type ElicitResultWire } from './chat-wire.ts'

/** Marks an output as ours (a part of another tool, or an app's own output, is left alone). */
export const OUTPUT_MARK = 'mcp-bridge/ai-sdk@1'

const issueSchema = z.object({ path: z.string(), message: z.string() })

const base = {
  mcpBridge: z.literal(OUTPUT_MARK),
  /** The call in the store (not the model's tool call id, which a model may repeat). */
  callId: z.string().min(1).max(200),
  /** Proves a request comes from the chat the call was shown in. */
  token: z.string().min(1).max(200),
  /** What the tool reported so far (`ctx.log`), newest last, at most 20. */
  logs: z
    .array(z.object({ level: z.string(), message: z.string() }))
    .max(20)
    .optional(),
  /** For people: the answer given to each earlier question, in one line ("Flight: CA-287"). */
  answers: z.array(z.string()).max(100).optional(),
  /** Its latest `ctx.notify`. */
  progress: z.object({ message: z.string(), progress: z.number().optional(), total: z.number().optional() }).optional(),
}

/**
 * The zod schema of `McpBridgeToolOutput`: both ends of the AI SDK wire read outputs with it.
 */
export const toolOutputSchema = z.discriminatedUnion('status', [
  z.object({ ...base, status: z.literal('running') }),
  z.object({
    ...base,
    status: z.literal('input-required'),
    question: elicitRequestWireSchema,
    /** The last answer was not taken; the question stays open. */
    refused: z.object({ code: z.string(), message: z.string(), issues: z.array(issueSchema).optional() }).optional(),
  }),
  z.object({ ...base, status: z.literal('answered'), question: elicitRequestWireSchema, answer: elicitResultSchema }),
  z.object({ ...base, status: z.literal('cancel-requested'), reason: z.string().max(500).optional() }),
  z.object({
    ...base,
    status: z.literal('done'),
    /** The tool's result as the model reads it: its value (a string or an object), or the error in words. */
    result: z.unknown(),
    isError: z.literal(true).optional(),
    /** Someone stopped it: shown as cancelled, not as a failure (`isError` too: it did not finish). */
    cancelled: z.literal(true).optional(),
    /** What a stopped call had already done, which stays done, in words. */
    alreadyDone: z.string().optional(),
  }),
])

/**
 * The output of an mcp-bridge tool in an AI SDK chat, by `status`: running, input-required, answered or done.
 */
export type McpBridgeToolOutput = z.infer<typeof toolOutputSchema>
/**
 * A running call's preliminary output: its logs and progress so far.
 */
export type RunningOutput = Extract<McpBridgeToolOutput, { status: 'running' }>
/**
 * The output of a call waiting for the person: its question, with the token that answers it.
 */
export type InputRequiredOutput = Extract<McpBridgeToolOutput, { status: 'input-required' }>
/**
 * A tool part's output after the browser answered its question (sent back as the part's output).
 */
export type AnsweredOutput = Extract<McpBridgeToolOutput, { status: 'answered' }>
/**
 * A finished call's output: its result, or its error.
 */
export type DoneOutput = Extract<McpBridgeToolOutput, { status: 'done' }>
export type { ElicitRequestWire, ElicitResultWire }

/**
 * Ours, and well formed: a part's output as the server or the browser reads it.
 *
 * @example
 * ```ts
 * import { readToolOutput } from '@mcp-bridge/runtime/ai-sdk'
 *
 * const output = readToolOutput({ status: 'nope' }) // undefined: not an mcp-bridge output
 * ```
 */
export function readToolOutput(output: unknown): McpBridgeToolOutput | undefined {
  if (typeof output !== 'object' || output === null || (output as { mcpBridge?: unknown }).mcpBridge !== OUTPUT_MARK) return undefined
  const parsed = toolOutputSchema.safeParse(output)
  return parsed.success ? parsed.data : undefined
}

/** What the model reads for an output (never the token): the result, or where the call stands. */
export function modelView(output: McpBridgeToolOutput): unknown {
  switch (output.status) {
    case 'done':
      return output.result
    case 'running':
      return 'The tool is still running.'
    case 'cancel-requested':
      return 'The user is cancelling this tool call.'
    default:
      return `The tool is waiting for the user's answer to: ${output.question.message}`
  }
}
