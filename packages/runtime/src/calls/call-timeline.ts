/**
 * What a call did, in order, for people looking at it (the Vite plugin's dev panel): its steps,
 * questions and answers, samples, logs and progress, and what the registry did with it (parked,
 * resumed, replayed, recovered, ended). Kept only while the registry records activity
 * (`CallRegistry.recordActivity()`, which the dev panel turns on); one timeline per call, across
 * the copies of it this process runs (a call replayed here goes on in the same timeline).
 */
import type { BridgeEvent, EventReader } from '../bridge/events.ts'
import type { BridgeHost } from '../bridge/create-bridge-host.ts'
import type { CallObserver } from '../bridge/call-observer.ts'
import type { Clock } from '../time/clock.ts'

export interface TimelineEntry {
  /** When this process saw it (epoch ms). */
  at: number
  kind: 'started' | 'step' | 'question' | 'answer' | 'sample' | 'log' | 'progress' | 'parked' | 'resumed' | 'ended'
  text: string
  /** Replayed from the journal (a step that did not run again). */
  replayed?: boolean
}

/** Entries kept per call; past it the oldest go (a call that logs without end). */
const MAX_ENTRIES = 500

export class CallTimeline {
  readonly #entries: TimelineEntry[] = []
  #reader: EventReader<BridgeEvent> | undefined

  constructor(
    readonly callId: string,
    readonly tool: string,
    private readonly clock: Clock,
  ) {}

  /** Told of each step and sample of the copy it follows. */
  readonly observer: CallObserver = {
    step: ({ name, replayed, idempotencyKey }) => {
      this.#drain()
      const began = this.clock.now()
      return (error) => {
        const ms = this.clock.now() - began
        const how = error === undefined ? (replayed ? 'replayed from the journal' : `ran in ${ms} ms`) : `failed: ${error instanceof Error ? error.message : String(error)}`
        this.#push({ kind: 'step', text: `${name} ${how}${idempotencyKey ? ` (key ${idempotencyKey})` : ''}`, ...(replayed && { replayed }) })
      }
    },
    sample: ({ replayed }) => {
      this.#drain()
      return (error) =>
        this.#push({
          kind: 'sample',
          text: error === undefined ? (replayed ? 'the model answered (replayed)' : 'the model answered') : `the model failed: ${String(error)}`,
          ...(replayed && { replayed }),
        })
    },
  }

  /** Follow a new copy of the call (started, replayed or recovered here). */
  follow(host: BridgeHost<unknown>, how: string): void {
    this.#drain()
    this.#reader = host.reader()
    this.#push({
      kind: how === 'start' ? 'started' : 'resumed',
      text: how === 'start' ? 'started' : how === 'recover' ? 'recovered: its server stopped while it ran; replaying its journal' : `resumed (${how})`,
    })
  }

  /** This copy stops without the call ending (let go of from memory, moved on elsewhere): what it emits from now on is not the call's. */
  unfollow(why: string): void {
    this.#drain()
    this.#reader = undefined
    this.#push({ kind: 'parked', text: why })
  }

  note(kind: TimelineEntry['kind'], text: string): void {
    this.#drain()
    this.#push({ kind, text })
  }

  entries(): readonly TimelineEntry[] {
    this.#drain()
    return this.#entries
  }

  /** Read what the copy emitted since the last look. */
  #drain(): void {
    for (let next = this.#reader?.poll(); next && next !== 'end'; next = this.#reader?.poll()) {
      const entry = entryOf(next.event)
      if (entry) this.#push(entry)
    }
  }

  #push(entry: Omit<TimelineEntry, 'at'>): void {
    this.#entries.push({ at: this.clock.now(), ...entry })
    if (this.#entries.length > MAX_ENTRIES) this.#entries.splice(0, this.#entries.length - MAX_ENTRIES)
  }
}

function entryOf(event: BridgeEvent): Omit<TimelineEntry, 'at'> | undefined {
  switch (event.type) {
    case 'elicit':
      return { kind: 'question', text: `asks ${event.request.key}: ${event.request.message}` }
    case 'elicit_resolved':
      return { kind: 'answer', text: event.result.action === 'accept' ? 'answered' : `answered: ${event.result.action}` }
    case 'elicit_cancelled':
      return { kind: 'answer', text: `question closed: ${event.reason}` }
    case 'sample':
      return { kind: 'sample', text: 'asks the model' }
    case 'sample_result':
      return undefined // the observer says when it answered
    case 'log':
      return event.replayed ? undefined : { kind: 'log', text: `${event.level}: ${event.message}` }
    case 'notify':
      return event.replayed
        ? undefined
        : { kind: 'progress', text: `${event.message}${event.progress !== undefined ? ` (${event.progress}${event.total !== undefined ? `/${event.total}` : ''})` : ''}` }
    case 'completed':
      return { kind: 'ended', text: 'completed' }
    case 'failed':
      return { kind: 'ended', text: `failed: ${event.error.message}` }
    case 'aborted':
      return { kind: 'ended', text: `aborted: ${event.reason}` }
  }
}
