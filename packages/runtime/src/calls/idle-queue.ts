/**
 * Things that expire when left idle for a fixed time: parked tool calls, MCP HTTP sessions. One
 * operation in the owner's Effection scope does the expiring. Every entry waits equally long,
 * so touch order is deadline order: the loop sleeps until the oldest deadline, and touching or
 * removing an entry is a Map update, not a task or a timer of its own.
 */
import { withResolvers, type Operation, type Scope, type WithResolvers } from 'effection'
import type { Clock } from '../time/clock.ts'

export class IdleQueue<K> {
  /** Entries and their deadlines, oldest first (Map order is insertion order). */
  readonly #deadlines = new Map<K, number>()
  #wake: WithResolvers<void> | undefined

  constructor(
    scope: Scope,
    readonly idleMs: number,
    onExpire: (key: K) => void,
    private readonly clock: Clock,
  ) {
    void scope.run(() => this.#expire(onExpire))
  }

  /** Start (or restart) `key`'s idle time. */
  touch(key: K): void {
    this.#deadlines.delete(key) // touching again moves it to the end: its deadline is now the latest
    this.#deadlines.set(key, this.clock.now() + this.idleMs)
    if (this.#deadlines.size === 1) this.#wake?.resolve()
  }

  remove(key: K): void {
    this.#deadlines.delete(key)
  }

  has(key: K): boolean {
    return this.#deadlines.has(key)
  }

  get size(): number {
    return this.#deadlines.size
  }

  /** The entries, the longest idle first. */
  keys(): IterableIterator<K> {
    return this.#deadlines.keys()
  }

  /** The entries with their deadlines, the longest idle first. */
  entries(): IterableIterator<[K, number]> {
    return this.#deadlines.entries()
  }

  *#expire(onExpire: (key: K) => void): Operation<never> {
    for (;;) {
      const oldest = this.#deadlines.entries().next()
      if (oldest.done) {
        this.#wake = withResolvers<void>()
        yield* this.#wake.operation
        continue
      }
      const [key, deadline] = oldest.value
      const wait = deadline - this.clock.now()
      // Deadlines only grow, so none earlier can appear while this sleeps; an entry removed
      // meanwhile is simply gone when it wakes.
      if (wait > 0) {
        yield* this.clock.sleep(wait)
        continue
      }
      this.#deadlines.delete(key)
      onExpire(key)
    }
  }
}
