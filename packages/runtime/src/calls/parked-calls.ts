/**
 * The parked calls of a registry, each waiting for its answer as long as it was parked for: one
 * `IdleQueue` per wait (a 2025-11-25 MCP request or a chat question waits `inputTimeoutMs`; a
 * 2026-07-28 round, whose client may never come back, a shorter `roundHoldMs`). Within a queue,
 * touch order is deadline order, so each stays a Map and one sleeping operation.
 */
import type { Scope } from 'effection'
import { IdleQueue } from './idle-queue.ts'
import type { Clock } from '../time/clock.ts'

/** How long a parked call may wait for its answer, and the option that says so (for the reason it ends with). */
export interface AnswerWait {
  ms: number
  option: string
}

/** Why a call nobody answered in time was aborted. */
export function unansweredReason(wait: AnswerWait): string {
  return `no answer came within ${Math.round(wait.ms / 1000)} s (${wait.option})`
}

export class ParkedCalls<K> {
  readonly #queues = new Map<string, IdleQueue<K>>()
  readonly #queueOf = new Map<K, IdleQueue<K>>()

  constructor(
    private readonly scope: Scope,
    private readonly clock: Clock,
    /** Called for a key whose wait ran out, with why. */
    private readonly onExpire: (key: K, reason: string) => void,
  ) {}

  /** Start (or restart) `key`'s wait. */
  touch(key: K, wait: AnswerWait): void {
    const queue = this.#queue(wait)
    const before = this.#queueOf.get(key)
    if (before && before !== queue) before.remove(key)
    this.#queueOf.set(key, queue)
    queue.touch(key)
  }

  remove(key: K): void {
    this.#queueOf.get(key)?.remove(key)
    this.#queueOf.delete(key)
  }

  has(key: K): boolean {
    return this.#queueOf.has(key)
  }

  get size(): number {
    return this.#queueOf.size
  }

  /** The parked keys, the one parked longest ago first (merged over the waits). */
  *longestWaiting(): Generator<K> {
    const cursors = [...this.#queues.values()].map((queue) => ({ queue, entries: queue.entries(), next: undefined as [K, number] | undefined }))
    for (const c of cursors) c.next = c.entries.next().value
    for (;;) {
      let first: (typeof cursors)[number] | undefined
      for (const c of cursors) {
        if (c.next && (!first || c.next[1] - c.queue.idleMs < first.next![1] - first.queue.idleMs)) first = c
      }
      if (!first) return
      const [key] = first.next!
      first.next = first.entries.next().value
      yield key
    }
  }

  #queue(wait: AnswerWait): IdleQueue<K> {
    const id = `${wait.ms} ${wait.option}`
    let queue = this.#queues.get(id)
    if (!queue) {
      const reason = unansweredReason(wait)
      queue = new IdleQueue<K>(
        this.scope,
        wait.ms,
        (key) => {
          this.#queueOf.delete(key)
          this.onExpire(key, reason)
        },
        this.clock,
      )
      this.#queues.set(id, queue)
    }
    return queue
  }
}
