/**
 * What a running tool call reports. The HTTP layer turns these into stream events, the MCP
 * server into protocol messages, `runMcpTool` into a timeline.
 */
import type { SamplingRequest } from '../sampling/provider.ts'
import type { LogLevel } from '../tool/context.ts'
import type { ElicitRequest } from '../tool/elicit-request.ts'
import type { ElicitResult } from '../tool/elicits.ts'

export type BridgeStatus = 'running' | 'awaiting_elicit' | 'awaiting_sample' | 'completed' | 'failed' | 'aborted'

export const TERMINAL_STATUSES: ReadonlySet<BridgeStatus> = new Set(['completed', 'failed', 'aborted'])

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

export type BridgeEventType = BridgeEvent['type']

/**
 * An append-only log with any number of readers, each at its own cursor, so a consumer that
 * subscribes late still sees everything (signals would drop what came before it subscribed).
 * The log closes after the terminal event; readers then finish.
 */
export class EventLog<E> {
  readonly #events: E[] = []
  #waiters: Array<() => void> = []
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
    this.#closed = true
    this.#wake()
  }

  /** Read from `from` onwards; ends when the log closes. */
  async *subscribe(from = 0): AsyncGenerator<E, void, undefined> {
    let cursor = from
    while (true) {
      while (cursor < this.#events.length) yield this.#events[cursor++]!
      if (this.#closed) return
      await new Promise<void>((resolve) => this.#waiters.push(resolve))
    }
  }

  #wake(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const wake of waiters) wake()
  }
}
