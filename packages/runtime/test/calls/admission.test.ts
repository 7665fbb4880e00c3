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
    expect(evicted).toEqual([['a1', expect.stringMatching(/the server was full \(limits.maxActiveCalls\) and this call's network held the most calls waiting/)]])
  })

  it('when every holder holds one, admits a client holding nothing (the longest-waiting makes room) and refuses one that holds as many as any', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const l = limits({ maxActiveCalls: 2, maxCallsPerClient: 8 })
    await admit(store, clock, l, { callId: 'a1', client: 'a' }, async () => false)
    await clock.advance(10)
    await admit(store, clock, l, { callId: 'b1', client: 'b' }, async () => false)
    const evict = vi.fn(async (callId: string) => (await store.release({ callId, client: callId === 'a1' ? 'a' : 'b' }), true))
    // b holds one, as a does: taking a's place is not fairer, so b's second call is refused.
    await expect(admit(store, clock, l, { callId: 'b2', client: 'b' }, evict)).rejects.toThrow(/already holds 2 tool calls waiting for input \(limits.maxActiveCalls\)/)
    expect(evict).not.toHaveBeenCalled()
    // c holds nothing: it is admitted, a's call (waiting longest) making room.
    await admit(store, clock, l, { callId: 'c1', client: 'c' }, evict)
    expect(evict.mock.calls.map(([id]) => id)).toEqual(['a1'])
  })

  it('passes over a call that stopped waiting (answered meanwhile) and takes the next, refusing once none is left', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const l = limits({ maxActiveCalls: 2, maxCallsPerClient: 2 })
    await admit(store, clock, l, { callId: 'a1', client: 'a' }, async () => false)
    await clock.advance(10)
    await admit(store, clock, l, { callId: 'b1', client: 'b' }, async () => false)
    const tried: string[] = []
    await expect(admit(store, clock, l, { callId: 'c1', client: 'c' }, async (id) => (tried.push(id), false))).rejects.toBeInstanceOf(TooManyCallsError)
    expect(tried).toEqual(['a1', 'b1'])
  })

  it('weighs networks, not addresses: 40 addresses of one /48 give way to a newcomer from another /48 that already holds more than any one of them', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const l = limits({ maxActiveCalls: 44, maxCallsPerClient: 20 })
    const key = (net: number, host: number) => `2001:db8:${net}::/48 > 2001:db8:${net}::/56 > 2001:db8:${net}:${host}::/64`
    for (let host = 0; host < 40; host++) await admit(store, clock, l, { callId: `m${host}`, client: key(1, host) }, async () => false)
    for (let i = 0; i < 3; i++) await admit(store, clock, l, { callId: `o${i}`, client: key(2, 0) }, async () => false)
    await admit(store, clock, l, { callId: 'n0', client: key(3, 0) }, async () => false)
    // Full. The newcomer's /64 (in /48 number 2) holds 3 — more than any one address of /48 number 1 —
    // but its /48 holds 3 against 40: /48 number 1 makes room.
    const evicted: string[] = []
    await admit(
      store,
      clock,
      l,
      { callId: 'o3', client: key(2, 0) },
      async (id) => (evicted.push(id), await store.release({ callId: id, client: key(1, Number(id.slice(1))) }), true),
    )
    expect(evicted).toEqual(['m0'])
    // Inside one network the contest is among neighbours: a second address of /48 number 1 is refused (its network holds the most).
    await expect(admit(store, clock, l, { callId: 'm-new', client: key(1, 99) }, async () => true)).rejects.toBeInstanceOf(TooManyCallsError)
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
