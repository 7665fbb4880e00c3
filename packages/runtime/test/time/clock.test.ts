/**
 * The clock every lease, expiry and hold waits on, and the test clock that moves time on
 * without waiting: sleepers wake in deadline order, each woken task runs before the next wakes,
 * a halted sleep is forgotten, and the system clock's timer never keeps the process alive.
 */
import { createScope, race, spawn, type Operation } from 'effection'
import { describe, expect, it } from 'vitest'
import { createTestClock } from '../../src/testing.ts'
import { TestClockError } from '../../src/errors.ts'
import { systemClock } from '../../src/server.ts'

describe('createTestClock', () => {
  it('wakes sleepers in deadline order at their own time, each before the next wakes', async () => {
    const clock = createTestClock({ start: 1_000 })
    const woke: string[] = []
    const [scope, destroy] = createScope()
    const sleeper = (name: string, ms: number): Operation<void> =>
      (function* () {
        yield* clock.sleep(ms)
        woke.push(`${name}@${clock.now()}`)
        // What a woken task does at once happens before a later sleeper wakes.
        if (name === 'b') woke.push('b-again')
      })()
    void scope.run(function* () {
      yield* spawn(() => sleeper('c', 30_000))
      yield* spawn(() => sleeper('a', 10_000))
      yield* spawn(() => sleeper('b', 20_000))
      yield* spawn(() => sleeper('a2', 10_000))
      yield* clock.sleep(Infinity)
    })
    await clock.settle()
    expect(clock.sleepers).toBe(5)
    await clock.advance(9_999)
    expect(woke).toEqual([])
    await clock.advance(20_001)
    expect(woke).toEqual(['a@11000', 'a2@11000', 'b@21000', 'b-again', 'c@31000'])
    expect(clock.now()).toBe(31_000)
    await destroy()
    expect(clock.sleepers).toBe(0) // the halted sleep was forgotten
  })

  it('a sleep that loses a race is removed; the winner goes on', async () => {
    const clock = createTestClock()
    const [scope, destroy] = createScope()
    const result = scope.run(() =>
      race([
        clock.sleep(5_000),
        (function* () {
          yield* clock.sleep(1_000)
          return 'fast'
        })(),
      ]),
    )
    await clock.settle()
    await clock.advance(1_000)
    expect(await result).toBe('fast')
    expect(clock.sleepers).toBe(0)
    await destroy()
  })

  it('refuses to go back or to jump to infinity, with a code', async () => {
    const clock = createTestClock()
    await expect(clock.advance(-1)).rejects.toBeInstanceOf(TestClockError)
    await expect(clock.advance(Number.POSITIVE_INFINITY)).rejects.toMatchObject({ code: 'TEST_CLOCK_MISUSE', message: expect.stringMatching(/finite number of milliseconds/) })
  })
})

describe('systemClock', () => {
  it('sleeps in wall time on a timer that does not hold the process open', async () => {
    const [scope, destroy] = createScope()
    const start = Date.now()
    await scope.run(() => systemClock.sleep(20))
    expect(Date.now() - start).toBeGreaterThanOrEqual(15)
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(50)
    await destroy()
  })

  it('a sleep longer than a timer can take (or Infinity) does not fire early', async () => {
    const [scope, destroy] = createScope()
    const long = scope.run(() =>
      race([
        systemClock.sleep(2 ** 31 + 5),
        systemClock.sleep(Infinity),
        (function* () {
          yield* systemClock.sleep(50)
          return 'short'
        })(),
      ]),
    )
    expect(await long).toBe('short')
    await destroy()
  })
})
