/**
 * A clock for tests: time stands still until the test moves it. `advance(ms)` wakes every
 * sleeper whose time has come, earliest first, and lets the code it woke run (its promises
 * settle) before moving on to the next, so what happens at 30 s happens after what happens at
 * 10 s, exactly as it would in wall time — without waiting for either.
 *
 * For example:
 *
 * ```ts
 * const clock = createTestClock()
 * const store = createMemoryStore({ clock })
 * const handler = createChatHandler({ tools, model, store, clock, limits: { idleTimeoutMs: 60_000 } })
 * // … park a call, then:
 * await clock.advance(59_999) // nothing expires
 * await clock.advance(1) // the call is aborted: "no answer came within 60 s"
 * ```
 */
import { action, type Operation } from 'effection'
import type { Clock } from '../time/clock.ts'
import { TestClockError } from '../errors/testing-errors.ts'

/**
 * A clock that stands still until a test moves it (`advance`), for leases, idle times and expiry tested in milliseconds.
 */
export interface TestClock extends Clock {
  /**
   * Moves time on by `ms`, waking sleepers in deadline order; resolves once the woken code has
   * run to its next wait (or, for code waiting on I/O, a little longer: `settle`).
   */
  advance(ms: number): Promise<void>
  /** Lets pending promises and woken tasks run, without moving time. */
  settle(): Promise<void>
  /** How many sleeps are waiting (a test can wait until code has started waiting). */
  readonly sleepers: number
}

interface Sleeper {
  readonly at: number
  readonly order: number
  readonly wake: () => void
}

/**
 * A clock for tests: give it as `clock` to the chat handler, the MCP server or a store, then move time with
 * `await clock.advance(ms)`, which wakes what was due, earliest first.
 *
 * @example
 * ```ts
 * import { createChatHandler } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel, createTestClock } from '@mcp-bridge/runtime/testing'
 * import { bookFlight } from './tools.ts'
 *
 * const clock = createTestClock()
 * const chat = createChatHandler({ tools: [bookFlight], model: createScriptedModel({}), clock, limits: { idleTimeoutMs: 60_000 } })
 * // … start a call that asks a question, then:
 * await clock.advance(60_000) // the unanswered call ends now, not a minute from now
 * await chat.close()
 * ```
 */
export function createTestClock(options: { start?: number } = {}): TestClock {
  let now = options.start ?? Date.UTC(2026, 0, 1)
  let made = 0
  const sleepers = new Set<Sleeper>()

  const earliestDue = (until: number): Sleeper | undefined => {
    let first: Sleeper | undefined
    for (const s of sleepers) if (s.at <= until && (!first || s.at < first.at || (s.at === first.at && s.order < first.order))) first = s
    return first
  }

  const clock: TestClock = {
    now: () => now,
    sleep(ms: number): Operation<void> {
      return action((resolve) => {
        const sleeper: Sleeper = { at: now + Math.max(0, ms), order: made++, wake: resolve }
        sleepers.add(sleeper)
        return () => sleepers.delete(sleeper)
      })
    },
    async advance(ms: number) {
      if (!(ms >= 0) || !Number.isFinite(ms)) throw new TestClockError(`clock.advance(${ms}): give a finite number of milliseconds, 0 or more (time only moves forward).`)
      const target = now + ms
      await clock.settle()
      for (let due = earliestDue(target); due; due = earliestDue(target)) {
        now = Math.max(now, due.at)
        sleepers.delete(due)
        due.wake()
        await clock.settle()
      }
      now = target
      await clock.settle()
    },
    async settle() {
      // Microtasks drain before a macrotask runs; a few rounds let chains that pass through an
      // immediate (stream reads, synchronous store drivers) finish too.
      for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve))
    },
    get sleepers() {
      return sleepers.size
    },
  }
  return clock
}
