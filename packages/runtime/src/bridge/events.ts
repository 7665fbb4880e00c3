/**
 * What a running tool call reports. The HTTP layer turns these into stream events, the MCP
 * server into protocol messages, `runMcpTool` into a timeline.
 */
import { withResolvers, type Operation, type Scope } from 'effection'
import type { SamplingRequest } from '../sampling/provider.ts'
import type { LogLevel } from '../tool/context.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitResult } from '../tool/elicits.ts'

/**
 * Where a running call is: running, waiting for an answer or a model, or ended (completed, failed, aborted).
 */
export type BridgeStatus = 'running' | 'awaiting_elicit' | 'awaiting_sample' | 'completed' | 'failed' | 'aborted'

/**
 * The statuses a call ends in: `completed`, `failed`, `aborted`.
 */
export const TERMINAL_STATUSES: ReadonlySet<BridgeStatus> = new Set(['completed', 'failed', 'aborted'])

/**
 * One event of a running call, in order: a question asked, answered or withdrawn, a sampling request and its result, a log line, progress, and the end.
 */
export type BridgeEvent =
  | { type: 'elicit'; request: ElicitRequest }
  /** An answer was accepted and the tool resumed with it. */
  | { type: 'elicit_resolved'; id: string; result: ElicitResult<unknown> }
  /** The call was aborted while this elicitation was pending: the UI should close it. */
  | { type: 'elicit_cancelled'; id: string; reason: string }
  | { type: 'sample'; request: SamplingRequest }
  | { type: 'sample_result'; text: string; parsed?: unknown }
  /** `replayed`: emitted again while a journal was replayed (a resumed call); already reported once. */
  | { type: 'log'; level: LogLevel; message: string; data?: unknown; replayed?: true }
  | { type: 'notify'; message: string; progress?: number; total?: number; replayed?: true }
  | { type: 'completed'; result: unknown }
  | { type: 'failed'; error: Error }
  | { type: 'aborted'; reason: string }

/**
 * The `type` of a `BridgeEvent`.
 */
export type BridgeEventType = BridgeEvent['type']

/** One reader of an `EventLog`, at its own cursor. */
export interface EventReader<E> {
  /** The next event; `undefined` once the log closed and every event was read. */
  next(): Operation<E | undefined>
  /** Without waiting: the next event (taken), `'end'`, or `undefined` when it must wait for one. */
  poll(): { event: E } | 'end' | undefined
  /** Waits until `poll()` has something to say. */
  ready(): Operation<void>
  /** How many events this reader has read. */
  readonly cursor: number
}

/**
 * An append-only log with any number of readers, each at its own cursor, so a consumer that
 * subscribes late still sees everything (signals would drop what came before it subscribed).
 * The log closes after the terminal event; readers then finish.
 *
 * Readers wait as Effection operations on one `withResolvers` replaced on every change, so a
 * halted reader simply stops waiting. Code at an async edge reads through `readAsync`, the one
 * adapter, in a scope it names.
 *
 * For example:
 *
 * ```ts
 * const reader = log.reader()
 * for (let e = yield* reader.next(); e; e = yield* reader.next()) handle(e)
 * ```
 */
export class EventLog<E> {
  readonly #events: E[] = []
  #changed = withResolvers<void>()
  #closed = false

  get events(): readonly E[] {
    return this.#events
  }

  get closed(): boolean {
    return this.#closed
  }

  push(event: E): void {
    if (this.#closed) return
    this.#events.push(event)
    this.#wake()
  }

  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#wake()
  }

  /** A reader from `from` onwards (default: the first event). */
  reader(from = 0): EventReader<E> {
    let cursor = from
    const log = this
    const reader: EventReader<E> = {
      poll() {
        if (cursor < log.#events.length) return { event: log.#events[cursor++]! }
        return log.#closed ? 'end' : undefined
      },
      *ready() {
        while (cursor >= log.#events.length && !log.#closed) yield* log.#changed.operation
      },
      *next() {
        yield* reader.ready()
        const polled = reader.poll()
        return polled === 'end' || polled === undefined ? undefined : polled.event
      },
      get cursor() {
        return cursor
      },
    }
    return reader
  }

  #wake(): void {
    const changed = this.#changed
    this.#changed = withResolvers<void>()
    changed.resolve()
  }
}

/**
 * The async face of a reader, for code at the edge (HTTP handlers, `runMcpTool`): what is
 * already logged is read at once; a wait for more is a task of `scope`, so it ends with it.
 */
export async function nextAsync<E>(scope: Scope, reader: EventReader<E>): Promise<E | undefined> {
  for (;;) {
    const polled = reader.poll()
    if (polled === 'end') return undefined
    if (polled) return polled.event
    await scope.run(() => reader.ready())
  }
}

/** `nextAsync` as an async iterator: `for await (const event of readAsync(scope, reader))`. */
export async function* readAsync<E>(scope: Scope, reader: EventReader<E>): AsyncGenerator<E, void, undefined> {
  for (let event = await nextAsync(scope, reader); event !== undefined; event = await nextAsync(scope, reader)) yield event
}
