/**
 * Admission of new calls (`admit`), on its own: a memory store and the test clock, no registry.
 */
import { describe, expect, it, vi } from 'vitest'
import { admit, type AdmissionLimits } from '../../src/calls/admission.ts'
import { TooManyCallsError } from '../../src/errors/call-limit-errors.ts'
import { createMemoryStore } from '../../src/calls/stores/memory-store.ts'
import { createTestClock } from '../../src/testing.ts'

const limits = (patch: Partial<AdmissionLimits> = {}): AdmissionLimits => ({
  maxActiveCalls: 4,
  maxCallsPerClient: 3,
  claimMs: 60_000,
  surface: 'chat',
  ...patch,
})

describe('admit', () => {
  it("counts a client's calls up to its limit and refuses the next, naming the option; nothing is evicted for a client's own limit", async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const evict = vi.fn(async () => true)
    const l = limits({ maxActiveCalls: 100 })
    for (const id of ['a1', 'a2', 'a3']) await admit(store, clock, l, { callId: id, client: 'a' }, evict)
    const refused = admit(store, clock, l, { callId: 'a4', client: 'a' }, evict)
    await expect(refused).rejects.toBeInstanceOf(TooManyCallsError)
    await expect(admit(store, clock, l, { callId: 'a4', client: 'a' }, evict)).rejects.toThrow(/You already hold 3 tool calls on this server \(limits.maxCallsPerClient\)/)
    // Admitting one already counted changes nothing.
    await admit(store, clock, l, { callId: 'a1', client: 'a' }, evict)
    expect(evict).not.toHaveBeenCalled()
  })

  it('when full, ends the longest-waiting call of the client holding the most (with why) to admit another client', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const l = limits({ maxActiveCalls: 4, maxCallsPerClient: 4 })
    for (const id of ['a1', 'a2', 'a3']) {
      await admit(store, clock, l, { callId: id, client: 'a' }, async () => false)
      await clock.advance(10)
    }
    await admit(store, clock, l, { callId: 'b1', client: 'b' }, async () => false)
    const evicted: Array<[string, string]> = []
    await admit(store, clock, l, { callId: 'c1', client: 'c' }, async (callId, reason) => {
      evicted.push([callId, reason])
      await store.release({ callId, client: 'a' })
      return true
    })
    expect(evicted).toEqual([['a1', expect.stringMatching(/the server was full \(limits.maxActiveCalls\) and this call's client held the most calls waiting/)]])
  })

  it('refuses when full and the busiest client would not hold more than this one (or the eviction found the call moved on)', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const l = limits({ maxActiveCalls: 2, maxCallsPerClient: 2 })
    await admit(store, clock, l, { callId: 'a1', client: 'a' }, async () => false)
    await admit(store, clock, l, { callId: 'b1', client: 'b' }, async () => false)
    const evict = vi.fn(async () => true)
    await expect(admit(store, clock, l, { callId: 'c1', client: 'c' }, evict)).rejects.toThrow(/already holds 2 tool calls waiting for input \(limits.maxActiveCalls\)/)
    expect(evict).not.toHaveBeenCalled() // each holds one: taking one from another client is not fairer
  })

  it('a claim stops counting after claimMs when the call never wrote a record', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const l = limits({ maxActiveCalls: 100, maxCallsPerClient: 1, claimMs: 1_000 })
    await admit(store, clock, l, { callId: 'a1', client: 'a' }, async () => false)
    await expect(admit(store, clock, l, { callId: 'a2', client: 'a' }, async () => false)).rejects.toBeInstanceOf(TooManyCallsError)
    await clock.advance(1_001)
    await admit(store, clock, l, { callId: 'a2', client: 'a' }, async () => false)
  })
})
