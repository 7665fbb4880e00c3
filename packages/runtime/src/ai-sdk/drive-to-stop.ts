/**
 * Carry a call to its next stop and say where it stands as a part's output: `running` after each
 * log or progress line (the AI SDK streams these as preliminary outputs), then `input-required`
 * once its question is stored (any instance can take the answer), or `done` with its result.
 */
import type { CallRegistry } from '../calls/call-registry.ts'
import { nextEvent, type LiveCall } from '../calls/live-call.ts'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { resultText, toolResultOf } from '../bridge/tool-result.ts'
import { forClient, type ErrorLog } from '../errors/client-errors.ts'
import { encodeElicitRequest } from '../protocol/codec.ts'
import { OUTPUT_MARK, type DoneOutput, type InputRequiredOutput, type McpBridgeToolOutput, type RunningOutput } from '../protocol/ai-sdk-output.ts'

export interface DriveContext {
  calls: CallRegistry<undefined>
  maxContextBytes: number
  logger?: ErrorLog
}

/** What every output of one call carries. */
export interface CallCard {
  callId: string
  token: string
  answers?: string[]
}

const MAX_LOGS = 20

/**
 * Yields `running` outputs; returns the stop. While replaying a journal up to the question the
 * record waits on (`replaying`), what the tool reports again is not repeated (the person saw it
 * the first time) and the question is not stored again: it is the one the answer is for.
 */
export async function* driveToStop(ctx: DriveContext, call: LiveCall<undefined>, card: CallCard, replaying = false): AsyncGenerator<RunningOutput, InputRequiredOutput | DoneOutput> {
  const base = { mcpBridge: OUTPUT_MARK, callId: card.callId, token: card.token, ...(card.answers?.length && { answers: card.answers }) } as const
  const logs: Array<{ level: string; message: string }> = []
  let progress: RunningOutput['progress']
  const running = (): RunningOutput => ({ ...base, status: 'running', ...(logs.length > 0 && { logs: [...logs] }), ...(progress && { progress }) })
  const shown = () => ({ ...(logs.length > 0 && { logs: [...logs] }), ...(progress && { progress }) })
  for (let event = await nextEvent(call); event; event = await nextEvent(call)) {
    if ((replaying || 'replayed' in event) && (event.type === 'log' || event.type === 'notify')) continue
    if (event.type === 'log') {
      logs.push({ level: event.level, message: event.message })
      if (logs.length > MAX_LOGS) logs.shift()
      yield running()
    } else if (event.type === 'notify') {
      progress = { message: event.message, ...(event.progress !== undefined && { progress: event.progress }), ...(event.total !== undefined && { total: event.total }) }
      yield running()
    } else if (event.type === 'elicit' && call.host.pending() === event.request) {
      const { request } = event
      const size = Buffer.byteLength(JSON.stringify(request.context))
      if (size > ctx.maxContextBytes) {
        await call.host.abort(`context of "${request.key}" is ${size} bytes (limit ${ctx.maxContextBytes}: limits.maxContextBytes)`)
        continue
      }
      const wire = encodeElicitRequest(request)
      if (replaying) return { ...base, status: 'input-required', question: wire }
      try {
        // Stored before it is shown: the answer may reach another instance, or come after a restart.
        await ctx.calls.park(call, { id: request.id, key: request.key, wire })
      } catch (error) {
        const said = forClient(error, `the question of ${call.toolName} (${call.callId}) could not be saved`, ctx.logger)
        await call.host.abort(`its question could not be saved: ${said.message}`)
        continue
      }
      return { ...base, ...shown(), status: 'input-required', question: wire }
    }
  }
  const outcome = await call.host.outcome
  await ctx.calls.settled(call)
  return { ...doneOutput(card, outcome), ...shown() }
}

export function doneOutput(card: CallCard, outcome: BridgeOutcome<unknown>): DoneOutput {
  const result = toolResultOf(outcome)
  return {
    mcpBridge: OUTPUT_MARK,
    callId: card.callId,
    token: card.token,
    ...(card.answers?.length && { answers: card.answers }),
    status: 'done',
    ...(result.isError
      ? { result: resultText(result), isError: true as const }
      : { result: outcome.status === 'completed' && (typeof outcome.result === 'string' || result.structuredContent) ? (result.structuredContent ?? outcome.result) : resultText(result) }),
  }
}

/** A call that cannot go on (it ended elsewhere, expired, or its store forgot it). */
export function endedOutput(card: CallCard, message: string): DoneOutput {
  return { mcpBridge: OUTPUT_MARK, callId: card.callId, token: card.token, ...(card.answers?.length && { answers: card.answers }), status: 'done', result: message, isError: true }
}

/** Every output, for code that takes any of them. */
export type { McpBridgeToolOutput }
