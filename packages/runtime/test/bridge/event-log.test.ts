/**
 * The call's event log: any number of readers at their own cursors, a late reader loses nothing,
 * a waiting reader wakes on the next event (or the close), a halted one just stops waiting, and
 * the async adapter reads what is logged without a scope once the log is closed.
 */
import { createScope, race, sleep, spawn } from 'effection'
import { describe, expect, it } from 'vitest'
import { EventLog, nextAsync, readAsync } from '../../src/bridge/events.ts'

describe('EventLog', () => {
  it('gives every reader every event, in order, from its own cursor; readers end after close', async () => {
    const log = new EventLog<number>()
    const [scope, destroy] = createScope()
    const early = log.reader()
    const seen: number[] = []
    const reading = scope.run(function* () {
      for (let e = yield* early.next(); e !== undefined; e = yield* early.next()) seen.push(e)
      return 'ended'
    })
    log.push(1)
    log.push(2)
    await scope.run(() => sleep(0))
    expect(seen).toEqual([1, 2])
    const late = log.reader()
    log.push(3)
    log.close()
    log.push(4) // after close: dropped
    expect(await reading).toBe('ended')
    expect(seen).toEqual([1, 2, 3])
    const lateSeen: number[] = []
    for await (const e of readAsync(scope, late)) lateSeen.push(e)
    expect(lateSeen).toEqual([1, 2, 3])
    expect(log.reader(2).poll()).toEqual({ event: 3 })
    await destroy()
    // A closed log is read without any scope at all: nothing has to wait.
    expect(await nextAsync(undefined as never, log.reader(1))).toBe(2)
    expect(await nextAsync(undefined as never, log.reader(3))).toBeUndefined()
  })

  it('a reader that loses a race stops waiting; the log and other readers go on', async () => {
    const log = new EventLog<string>()
    const [scope, destroy] = createScope()
    const reader = log.reader()
    const first = await scope.run(() =>
      race([
        reader.next(),
        (function* () {
          yield* sleep(5)
          return 'timeout' as const
        })(),
      ]),
    )
    expect(first).toBe('timeout')
    const other = scope.run(function* () {
      const r = log.reader()
      yield* spawn(function* () {
        log.push('a')
      })
      return yield* r.next()
    })
    expect(await other).toBe('a')
    expect(await scope.run(() => reader.next())).toBe('a') // the raced reader's cursor did not move
    expect(reader.cursor).toBe(1)
    await destroy()
  })
})
