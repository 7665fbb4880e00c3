/**
 * A tool call of a client that renders MCP Apps stays open while its view asks the questions:
 * instead of sending `elicitation/create` (or returning an input-required round), the call
 * parks its question — durably, with its idle timeout, exactly as between rounds — shows it to
 * its view, and waits for the view's answer (`view-tools.ts`) before running on. The model gets
 * the tool's real result when the call ends, as with any other client.
 *
 * A host may declare the extension and still never show this view (a client that lists
 * resources lazily, a view that failed to load): a question no view took within
 * `claimTimeoutMs` (on the session's clock) is asked the ordinary way, and so is every later
 * question of that call. The waits are one `race`: the loser is halted, nothing to clear.
 */
import { race, until, type Operation } from 'effection'
import { resultText, type ToolResultBody } from '../bridge/tool-result.ts'
import { encodeElicitRequest } from '../protocol/codec.ts'
import type { Clock } from '../time/clock.ts'
import type { McpCall } from './mcp-call.ts'
import type { Seat, ViewDesk } from './view-desk.ts'

export type HoldOutcome = 'answered' | 'ended' | 'bypassed'

export function* holdForView(desk: ViewDesk, seat: Seat, call: McpCall, park: () => Operation<void>, claimTimeoutMs: number, clock: Clock): Operation<HoldOutcome> {
  const question = call.host.pending()
  if (!question) return 'ended'
  // Parked before it is shown: an answer may come at once, and must find the call waiting.
  yield* park()
  const answeredOp = desk.whenAnswered(seat)
  const answered = function* (): Operation<HoldOutcome> {
    yield* answeredOp
    return 'answered'
  }
  const ended = function* (): Operation<HoldOutcome> {
    yield* until(call.host.outcome)
    return 'ended'
  }
  desk.show(seat, { status: 'question', question: encodeElicitRequest(question) })
  if (!seat.claimed && Number.isFinite(claimTimeoutMs)) {
    const unclaimed = function* (): Operation<'unclaimed'> {
      yield* clock.sleep(claimTimeoutMs)
      return 'unclaimed'
    }
    const first = yield* race([answered(), ended(), unclaimed()])
    if (first !== 'unclaimed') return first
    if (!seat.claimed) {
      seat.bypassed = true
      desk.show(seat, { status: 'elsewhere' })
      return 'bypassed'
    }
  }
  return yield* race([answered(), ended()])
}

/** The call ended: its view shows how (the host also hands it the result). */
export function showResult(desk: ViewDesk, seat: Seat, result: ToolResultBody): void {
  desk.show(seat, { status: 'done', isError: result.isError === true, text: resultText(result) })
}
