/**
 * A call's parts as the AI SDK streams them: `running` after each log or progress line
 * (preliminary outputs), then `input-required` once its question is stored (any instance can take
 * the answer), or `done` with its result. The call is carried to its stop by the one driver
 * (`calls/drive-to-stop.ts`); this only says where it stands as a part's output.
 */
import type { CallRegistry } from '../calls/call-registry.ts'
import { driveToStop, nextReport } from '../calls/drive-to-stop.ts'
import { stopped } from '../chat/call-end.ts'
import type { LiveCall } from '../calls/live-call.ts'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import { resultText, toolResultOf } from '../bridge/tool-result.ts'
import { forClient, type ErrorLog } from '../errors/client-errors.ts'
import { browserQuestions } from '../chat/chat-question.ts'
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
 * Yields `running` outputs; returns the stop. `replayingTo`: the journal is replayed up to the
 * question with this id (the one the record waits on; see `driveToStop`).
 */
export async function* outputsToStop(
  ctx: DriveContext,
  call: LiveCall<undefined>,
  card: CallCard,
  replayingTo?: string,
): AsyncGenerator<RunningOutput, InputRequiredOutput | DoneOutput> {
  const base = { mcpBridge: OUTPUT_MARK, callId: card.callId, token: card.token, ...(card.answers?.length && { answers: card.answers }) } as const
  const logs: Array<{ level: string; message: string }> = []
  let progress: RunningOutput['progress']
  const shown = () => ({ ...(logs.length > 0 && { logs: [...logs] }), ...(progress && { progress }) })
  const stops = driveToStop(call, {
    calls: ctx.calls,
    surface: browserQuestions,
    maxContextBytes: ctx.maxContextBytes,
    ...(replayingTo !== undefined && { replayingTo }),
  })
  for (let next = await nextReport(call, stops); ; next = await nextReport(call, stops)) {
    if (next.done) {
      const stop = next.value
      if (stop.kind === 'question') return { ...base, ...shown(), status: 'input-required', question: stop.question.wire }
      // Its question could not be stored, so the call ended: the store's own words go to the log.
      if (stop.unsaved) forClient(stop.unsaved, `the question of ${call.toolName} (${call.callId}) could not be saved`, ctx.logger)
      return { ...doneOutput(card, stop.outcome), ...shown() }
    }
    const event = next.value
    if (event.type === 'log') {
      logs.push({ level: event.level, message: event.message })
      if (logs.length > MAX_LOGS) logs.shift()
    } else {
      progress = { message: event.message, ...(event.progress !== undefined && { progress: event.progress }), ...(event.total !== undefined && { total: event.total }) }
    }
    yield { ...base, status: 'running', ...shown() }
  }
}

export function doneOutput(card: CallCard, outcome: BridgeOutcome<unknown>): DoneOutput {
  const result = toolResultOf(outcome)
  return {
    mcpBridge: OUTPUT_MARK,
    callId: card.callId,
    token: card.token,
    ...(card.answers?.length && { answers: card.answers }),
    status: 'done',
    ...(outcome.status === 'aborted' && stopped(outcome)),
    ...(result.isError
      ? { result: resultText(result), isError: true as const }
      : {
          result:
            outcome.status === 'completed' && (typeof outcome.result === 'string' || result.structuredContent) ? (result.structuredContent ?? outcome.result) : resultText(result),
        }),
  }
}

/** A call that cannot go on (it ended elsewhere, expired, or its store forgot it). */
export function endedOutput(card: CallCard, message: string): DoneOutput {
  return { mcpBridge: OUTPUT_MARK, callId: card.callId, token: card.token, ...(card.answers?.length && { answers: card.answers }), status: 'done', result: message, isError: true }
}

/** Every output, for code that takes any of them. */
export type { McpBridgeToolOutput }
