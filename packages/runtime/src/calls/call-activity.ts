/**
 * The calls a registry has seen, for people looking at them (the Vite plugin's dev panel): one
 * `CallTimeline` per call from the moment activity is recorded, the origin it reports to (its
 * chat conversation), and the last `keep` calls that ended here. A copy of a call that stops
 * without the call ending (let go of from memory, advanced elsewhere) is not an end: its timeline
 * stays among the live ones.
 */
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { Clock } from '../time/clock.ts'
import { CallTimeline, type TimelineEntry } from './call-timeline.ts'

/** A call as the dev panel shows it: where it is and what it did (`recordActivity`). */
export interface CallActivity {
  callId: string
  tool: string
  /** Held in this process now (running, or parked in memory), or only known from what it did here. */
  live: boolean
  status: string
  /** The question it waits on, when this process holds it. */
  pending: ElicitRequest | undefined
  /** `CallRecord.origin` of the call (the chat conversation it belongs to). */
  origin: unknown
  timeline: readonly TimelineEntry[]
}

/** What the registry says of a call this process holds now: whether it waits, its status, its question. */
export interface HeldCall {
  status: string
  pending: ElicitRequest | undefined
}

export class ActivityLog {
  readonly #timelines = new Map<string, CallTimeline>()
  readonly #origins = new Map<string, unknown>()
  /** Ids of the calls that ended here, by end order. */
  readonly #ended: string[] = []

  constructor(
    private readonly keep: number,
    private readonly clock: Clock,
  ) {}

  /** The timeline a new copy of the call writes to (started, replayed or recovered here). */
  timelineOf(callId: string, tool: string, origin: unknown): CallTimeline {
    let timeline = this.#timelines.get(callId)
    if (!timeline) this.#timelines.set(callId, (timeline = new CallTimeline(callId, tool, this.clock)))
    if (origin !== undefined) this.#origins.set(callId, origin)
    const at = this.#ended.indexOf(callId)
    if (at >= 0) this.#ended.splice(at, 1) // ended here before, going on again (another instance moved it)
    return timeline
  }

  /** The call's timeline, if it is followed. */
  get(callId: string): CallTimeline | undefined {
    return this.#timelines.get(callId)
  }

  /** The call ended here: its timeline joins the last `keep` that ended. */
  ended(callId: string): void {
    if (!this.#timelines.has(callId)) return
    this.#ended.push(callId)
    while (this.#ended.length > this.keep) {
      const old = this.#ended.shift()!
      this.#timelines.delete(old)
      this.#origins.delete(old)
    }
  }

  /** The live calls first, then those that ended, the latest first. `held` says how this process holds a call, if it does. */
  list(held: (callId: string) => HeldCall | undefined): CallActivity[] {
    const one = (callId: string): CallActivity => {
      const timeline = this.#timelines.get(callId)!
      const live = held(callId)
      const last = timeline.entries().findLast((e) => e.kind === 'ended' || e.kind === 'parked')
      const status = live ? live.status : last?.kind === 'ended' ? last.text.split(':')[0]! : 'waiting (in the store)'
      return { callId, tool: timeline.tool, live: live !== undefined, status, pending: live?.pending, origin: this.#origins.get(callId), timeline: [...timeline.entries()] }
    }
    const endedIds = new Set(this.#ended)
    return [...[...this.#timelines.keys()].filter((id) => !endedIds.has(id)).map(one), ...[...this.#ended].reverse().map(one)]
  }
}
