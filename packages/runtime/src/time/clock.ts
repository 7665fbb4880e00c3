/**
 * The one clock of the runtime: what time it is (`now`) and how to wait (`sleep`). Every lease,
 * expiry, idle time and hold reads and waits on a clock it was given, never on `Date.now()` or
 * `setTimeout` directly, so a test can hand in `createTestClock()` and move time on at will: a
 * 30 s lease then lapses in a millisecond, and "nothing happens before" is proven, not waited for.
 *
 * For example:
 *
 * ```ts
 * import { race } from 'effection'
 * const answer = yield* race([waitForAnswer(call), clock.sleep(idleMs)])
 * ```
 */
import { action, type Operation } from 'effection'
import { z } from 'zod/v4'

/**
 * The one clock of the runtime (`now`, `sleep`): the chat handler, the MCP server and the stores take one as `clock`; tests give `createTestClock()`.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /**
   * Waits `ms` in the caller's scope; halting the caller cancels the wait. The system clock's
   * timer does not keep the process alive: a call waiting for a person must not keep a stdio
   * server (or a test run) from exiting once everything else is done.
   */
  sleep(ms: number): Operation<void>
}

/** The longest delay `setTimeout` takes; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Wall time: `Date.now()` and unref'd timers (`Infinity` sleeps until halted). */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  *sleep(ms: number): Operation<void> {
    let left = Math.max(0, ms)
    for (; left > MAX_TIMER_MS; left -= MAX_TIMER_MS) yield* timer(MAX_TIMER_MS)
    yield* timer(left)
  },
})

function timer(ms: number): Operation<void> {
  return action((resolve) => {
    const handle = setTimeout(resolve, ms)
    handle.unref?.()
    return () => clearTimeout(handle)
  })
}

/** The `clock` option wherever one is taken: anything with `now()` and `sleep(ms)`. */
export const clockOption = z.custom<Clock>(
  (value) => typeof value === 'object' && value !== null && typeof (value as Clock).now === 'function' && typeof (value as Clock).sleep === 'function',
  { message: 'takes a clock: an object with now() and sleep(ms), such as createTestClock() from @mcp-bridge/runtime/testing' },
)
