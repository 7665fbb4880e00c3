/**
 * The one loop that carries a call to its next stop, for every surface (the chat handler, the MCP
 * server in both protocol generations, the AI SDK bridge) and for recovery: read the call's
 * events in order, hand each log line and progress report to the surface as it comes, and stop
 * at the call's next question — checked against the limits, encoded by the surface, stored
 * (parked) so any instance can take the answer — or at its end, once everything it wrote is
 * stored.
 *
 * It is an Effection `Subscription`: each `next()` yields one report, and its last value is the
 * stop. A surface supplies only what is its own (`StopSurface`): how a question is encoded and,
 * for a surface whose client serves `ctx.sample` (MCP), how a sample becomes a question. Async
 * code at the HTTP edge reads it with `nextReport`.
 *
 * Replaying a journal up to the question the record waits on (`replayingTo`): nothing the tool
 * reports again is repeated (the person saw it the first time), nothing is stored again, and a
 * replay that leads to another question ends the call — its journal no longer fits the tool.
 */
import { until, type Operation, type Subscription } from 'effection'
import type { BridgeOutcome } from '../bridge/create-bridge-host.ts'
import type { BridgeEvent } from '../bridge/events.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { AnswerWait } from './parked-calls.ts'
import type { LiveCall } from './live-call.ts'
import type { StoredQuestion } from './stores/call-store.ts'
import { StoreUnavailableError } from '../errors/store-errors.ts'

/** A log line or progress report of the tool, as it happened. */
export type CallReport = Extract<BridgeEvent, { type: 'log' | 'notify' }>

/** A question as a surface stores and sends it (`wire` is the surface's own encoding). */
export interface SurfaceQuestion<W> extends StoredQuestion {
  wire: W
}

/** What a surface says its own way. */
export interface StopSurface<X, W> {
  /** The question as this surface stores and sends it. */
  question(call: LiveCall<X>, request: ElicitRequest): SurfaceQuestion<W>
  /**
   * For a surface whose client serves `ctx.sample`: the sample the call asks now, as a question —
   * or `undefined` when there is none to ask (refused into the tool, or the call ended) and the
   * call goes on.
   */
  sample?(call: LiveCall<X>): Operation<SurfaceQuestion<W> | undefined>
}

/** Where a call stopped: its next question (stored unless the caller parks it), or its end. */
export type CallStop<W> =
  | { kind: 'question'; question: SurfaceQuestion<W>; request: ElicitRequest | undefined }
  | {
      kind: 'done'
      outcome: BridgeOutcome<unknown>
      /** Its question could not be stored, so it was not asked: the call ended there. */
      unsaved?: StoreUnavailableError
      /** A replay led to another question than the one its record waits on. */
      diverged?: true
    }

/** How the call stops at a question: parked in the registry (how long it may wait, pinned in memory), or not (the caller parks it). */
export interface ParkOptions {
  pinned?: boolean
  wait?: AnswerWait
}

/** The registry's side of a stop: parking a call on its question, and waiting for its writes. */
export interface StopRegistry<X> {
  park(call: LiveCall<X>, question: StoredQuestion, options?: ParkOptions): Promise<void>
  settled(call: LiveCall<X>): Promise<void>
}

export interface DriveOptions<X, W> {
  calls: StopRegistry<X>
  surface: StopSurface<X, W>
  /** The largest context of one question, in bytes of JSON (`limits.maxContextBytes`, named when a call is ended for it). */
  maxContextBytes: number
  /** Replaying the journal up to the question with this id (the one the record waits on). */
  replayingTo?: string
  /** How to park the call at its question (default: the registry's defaults); `false`: the caller parks it. */
  park?: (question: SurfaceQuestion<W>) => ParkOptions | false
}

/** Why a replayed call ends when it does not come back to its recorded question. */
export const DIVERGED = 'replaying its journal led to another question'

/**
 * The reports of `call` up to its next stop, then the stop. Read it to the end: the call waits at
 * its question (or has ended) once `next()` is done.
 */
export function driveToStop<X, W>(call: LiveCall<X>, options: DriveOptions<X, W>): Subscription<CallReport, CallStop<W>> {
  const { calls, surface, replayingTo, maxContextBytes } = options
  const replaying = replayingTo !== undefined
  let diverged = false

  function* done(extra: { unsaved?: StoreUnavailableError } = {}): Operation<IteratorResult<CallReport, CallStop<W>>> {
    const outcome = yield* until(call.host.outcome)
    // Reported only once stored: a quick follow-up request must not find the call still locked.
    yield* until(calls.settled(call))
    return { done: true, value: { kind: 'done', outcome, ...extra, ...(diverged && { diverged: true as const }) } }
  }

  /** The stop at `question`, parked unless replaying (the record asks it already) or the caller parks it. */
  function* stopAt(question: SurfaceQuestion<W>, request: ElicitRequest | undefined): Operation<IteratorResult<CallReport, CallStop<W>> | undefined> {
    if (replaying && question.id !== replayingTo) {
      diverged = true
      yield* until(call.host.abort(DIVERGED))
      return undefined
    }
    const parking = replaying ? false : (options.park?.(question) ?? {})
    if (parking !== false) {
      try {
        yield* until(calls.park(call, question, parking))
      } catch (error) {
        // The registry ended the call: a question nobody could answer after a restart is not asked.
        if (!(error instanceof StoreUnavailableError)) throw error
        return yield* done({ unsaved: error })
      }
    }
    return { done: true, value: { kind: 'question', question, request } }
  }

  return {
    *next() {
      for (let event = yield* call.events.next(); event; event = yield* call.events.next()) {
        switch (event.type) {
          case 'log':
          case 'notify':
            if (replaying || event.replayed) break
            return { done: false, value: event }
          case 'elicit': {
            // A question answered meanwhile (an earlier one, read late) is not a stop.
            if (call.host.pending() !== event.request) break
            const { request } = event
            const size = Buffer.byteLength(JSON.stringify(request.context))
            if (size > maxContextBytes) {
              yield* until(call.host.abort(`context of "${request.key}" is ${size} bytes (limit ${maxContextBytes}: limits.maxContextBytes)`))
              break
            }
            const stop = yield* stopAt(surface.question(call, request), request)
            if (stop) return stop
            break
          }
          case 'sample': {
            if (!surface.sample) break
            const question = yield* surface.sample(call)
            if (!question) break
            const stop = yield* stopAt(question, undefined)
            if (stop) return stop
            break
          }
          case 'completed':
          case 'failed':
          case 'aborted':
            return yield* done()
        }
      }
      return yield* done()
    },
  }
}

/** The next report or the stop, for async code at the edge (the call runs in the registry's scope). */
export function nextReport<X, W>(call: LiveCall<X>, stops: Subscription<CallReport, CallStop<W>>): Promise<IteratorResult<CallReport, CallStop<W>>> {
  return call.scope.run(() => stops.next())
}

/** Read to the stop, handing each report to `report` (async code at the edge). */
export async function runToStop<X, W>(call: LiveCall<X>, stops: Subscription<CallReport, CallStop<W>>, report: (event: CallReport) => void = () => {}): Promise<CallStop<W>> {
  for (;;) {
    const next = await nextReport(call, stops)
    if (next.done) return next.value
    report(next.value)
  }
}
