/** ParkedCalls: parked calls waiting as long as each was parked for, one idle queue per wait. */
import { createScope } from 'effection'
import { afterEach, describe, expect, it } from 'vitest'
import { ParkedCalls } from '../../src/calls/parked-calls.ts'
import { createTestClock } from '../../src/testing.ts'

const scopes: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const destroy of scopes.splice(0)) await destroy()
})

function parked() {
  const clock = createTestClock()
  const [scope, destroy] = createScope()
  scopes.push(() => Promise.resolve(destroy()))
  const expired: string[] = []
  const calls = new ParkedCalls<string>(scope, clock, (key, reason) => expired.push(`${key}: ${reason}`))
  return { calls, clock, expired }
}

const long = { ms: 30 * 60_000, option: 'limits.idleTimeoutMs' }
const short = { ms: 10 * 60_000, option: 'limits.roundHoldMs' }

describe('ParkedCalls', () => {
  it('each call expires after its own wait, with the reason of its option; touching one again restarts it', async () => {
    const { calls, clock, expired } = parked()
    calls.touch('a', long)
    await clock.advance(1_000)
    calls.touch('b', short)
    calls.touch('c', long)
    expect(calls.size).toBe(3)
    await clock.advance(10 * 60_000)
    expect(expired).toEqual(['b: no answer came within 600 s (limits.roundHoldMs)'])
    calls.touch('c', short) // parked again, now for a round: its wait starts over, shorter
    await clock.advance(9 * 60_000)
    expect(expired).toEqual(['b: no answer came within 600 s (limits.roundHoldMs)'])
    await clock.advance(2 * 60_000)
    expect(expired).toEqual(['b: no answer came within 600 s (limits.roundHoldMs)', 'c: no answer came within 600 s (limits.roundHoldMs)'])
    expect(calls.has('a')).toBe(true)
    await clock.advance(10 * 60_000)
    expect(expired.at(-1)).toBe('a: no answer came within 1800 s (limits.idleTimeoutMs)')
    expect(calls.size).toBe(0)
  })

  it('lists the calls parked longest ago first, over every wait; a removed call is gone from both', async () => {
    const { calls, clock } = parked()
    calls.touch('a', long)
    await clock.advance(10)
    calls.touch('b', short)
    await clock.advance(10)
    calls.touch('c', long)
    await clock.advance(10)
    calls.touch('d', short)
    expect([...calls.longestWaiting()]).toEqual(['a', 'b', 'c', 'd'])
    calls.touch('a', short)
    expect([...calls.longestWaiting()]).toEqual(['b', 'c', 'd', 'a'])
    calls.remove('c')
    expect([...calls.longestWaiting()]).toEqual(['b', 'd', 'a'])
    expect(calls.has('c')).toBe(false)
  })
})
