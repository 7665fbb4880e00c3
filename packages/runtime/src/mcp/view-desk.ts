/**
 * Where a tool call held open for its MCP Apps view meets that view. One desk per MCP session
 * (the SDK `Server` of a stdio connection or of a 2025-11-25 HTTP session): the view's requests
 * are proxied by the host through the same session as the tools/call, so a session is the
 * boundary of who may see and answer a call's questions — another client never reaches them.
 *
 * Every wait here (a view polling for a change, a view waiting for its call to start, the call
 * waiting for the view's answer) is an Effection operation on a resolver, raced against the
 * session's clock where it has a time limit: a halted request stops waiting, nothing else to undo.
 *
 * A seat is one call's state as its view sees it: working, a question, or done, with a version
 * that grows on every change so a view can wait for "anything after what I have". A view takes
 * a seat (`claim`) by the tools/call's JSON-RPC id (the host tells the view `toolInfo.id`) or,
 * when the host does not say, by tool and arguments; it gets a pass (a random token, kept as a
 * hash) that every later request of that view must show. Claiming again (the host re-rendered
 * the view) issues a new pass and the old one stops working.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { race, withResolvers, type Operation, type WithResolvers } from 'effection'
import type { RequestId } from '@modelcontextprotocol/server'
import type { ElicitRequestWire } from '../protocol/chat-wire.ts'
import type { Clock } from '../time/clock.ts'
import type { McpCall } from './mcp-call.ts'

export type ViewState =
  | { status: 'working' }
  | { status: 'question'; question: ElicitRequestWire }
  /** No view took the question in time: the host asks it with its own form. */
  | { status: 'elsewhere' }
  | { status: 'done'; isError: boolean; text: string }

export interface Seat {
  readonly call: McpCall
  readonly requestId: RequestId
  readonly argsDigest: string
  state: ViewState
  version: number
  claimed: boolean
  /** The view never came for a question: the call asks the ordinary way from then on. */
  bypassed: boolean
}

interface SeatEntry extends Seat {
  passHash: string | undefined
  changed: WithResolvers<void>
  answered: WithResolvers<void> | undefined
}

/** Finished seats kept per session so a view that polls late still learns how its call ended. */
const KEEP_FINISHED = 50

export class ViewDesk {
  readonly #seats = new Map<string, SeatEntry>()
  #opened = withResolvers<void>()

  constructor(private readonly clock: Clock) {}

  open(call: McpCall, requestId: RequestId, argsDigest: string): Seat {
    const existing = this.#seats.get(call.callId)
    if (existing) return existing
    const seat: SeatEntry = {
      call,
      requestId,
      argsDigest,
      state: { status: 'working' },
      version: 1,
      claimed: false,
      bypassed: false,
      passHash: undefined,
      changed: withResolvers<void>(),
      answered: undefined,
    }
    this.#seats.set(call.callId, seat)
    this.#opened.resolve()
    this.#opened = withResolvers<void>()
    return seat
  }

  /** Publish a new state to the seat's view. */
  show(seat: Seat, state: ViewState): void {
    const entry = seat as SeatEntry
    entry.state = state
    entry.version += 1
    // Replaced before resolving: a woken view runs at once, and must wait on the new one next.
    const changed = entry.changed
    entry.changed = withResolvers<void>()
    changed.resolve()
    if (state.status === 'done') this.#trim()
  }

  /**
   * Take the seat of a call for a view: the call behind `requestId`, or the oldest unfinished
   * call of `tool` with these arguments that no view holds. Waits up to `waitMs` for it to start
   * (a host may render the view before the tools/call reaches us).
   */
  *claim(match: { tool: string; requestId?: RequestId; argsDigest: string }, waitMs: number): Operation<{ seat: Seat; pass: string } | undefined> {
    const deadline = this.clock.now() + waitMs
    for (;;) {
      const seat = this.#find(match)
      if (seat) {
        const pass = randomBytes(24).toString('base64url')
        seat.passHash = hash(pass)
        seat.claimed = true
        return { seat, pass }
      }
      const left = deadline - this.clock.now()
      if (left <= 0) return undefined
      yield* this.#within(this.#opened.operation, left)
    }
  }

  #find(match: { tool: string; requestId?: RequestId; argsDigest: string }): SeatEntry | undefined {
    const seats = [...this.#seats.values()].filter((s) => s.call.toolName === match.tool)
    if (match.requestId !== undefined) return seats.find((s) => s.requestId === match.requestId && s.argsDigest === match.argsDigest)
    return seats.find((s) => !s.claimed && s.state.status !== 'done' && s.argsDigest === match.argsDigest)
  }

  /** The seat a pass was issued for; undefined for a wrong pass or a seat long gone. */
  seat(callId: string, pass: unknown): Seat | undefined {
    const seat = this.#seats.get(callId)
    if (!seat?.passHash || typeof pass !== 'string') return undefined
    const given = Buffer.from(hash(pass))
    const expected = Buffer.from(seat.passHash)
    return given.length === expected.length && timingSafeEqual(given, expected) ? seat : undefined
  }

  /** Returns when the seat's version passes `after`, or after `waitMs`. */
  *changedAfter(seat: Seat, after: number, waitMs: number): Operation<void> {
    if (seat.version > after) return
    yield* this.#within((seat as SeatEntry).changed.operation, waitMs)
  }

  /** What the held tools/call waits on for its view's answer (it may be yielded more than once). */
  whenAnswered(seat: Seat): Operation<void> {
    const entry = seat as SeatEntry
    entry.answered = withResolvers<void>()
    return entry.answered.operation
  }

  /** The view's answer was taken by the call: wake the tools/call that holds it. */
  answered(seat: Seat): void {
    const entry = seat as SeatEntry
    this.show(seat, { status: 'working' })
    const answered = entry.answered
    entry.answered = undefined
    answered?.resolve()
  }

  /** Wait for `operation` at most `ms` on the session's clock; the loser is halted. */
  *#within(operation: Operation<void>, ms: number): Operation<void> {
    yield* race([operation, this.clock.sleep(ms)])
  }

  #trim(): void {
    const finished = [...this.#seats.values()].filter((s) => s.state.status === 'done')
    for (const seat of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.#seats.delete(seat.call.callId)
  }
}

function hash(pass: string): string {
  return createHash('sha256').update(pass).digest('base64url')
}
