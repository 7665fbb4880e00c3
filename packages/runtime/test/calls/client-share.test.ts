/** `clientShare`: what one client may hold as the store fills (issue 28 item 2). */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clientShare } from '../../src/calls/stores/call-store.ts'

const limitsArb = fc.record({ perClient: fc.integer({ min: 1, max: 1_000 }), total: fc.integer({ min: 1, max: 1_000_000 }) })

describe('clientShare', () => {
  it('is maxCallsPerClient up to half full, never grows as the store fills, and is at least a quarter of it (≥ 1) when full', () => {
    fc.assert(
      fc.property(limitsArb, fc.double({ min: 0, max: 1.2, noNaN: true }), fc.double({ min: 0, max: 1.2, noNaN: true }), (limits, a, b) => {
        const [less, more] = [Math.floor(Math.min(a, b) * limits.total), Math.floor(Math.max(a, b) * limits.total)]
        expect(clientShare(more, limits)).toBeLessThanOrEqual(clientShare(less, limits))
        const floor = Math.max(1, Math.ceil(limits.perClient / 4))
        expect(clientShare(more, limits)).toBeGreaterThanOrEqual(Math.min(floor, limits.perClient))
        expect(clientShare(more, limits)).toBeLessThanOrEqual(limits.perClient)
        if (less <= limits.total / 2) expect(clientShare(less, limits)).toBe(limits.perClient)
        expect(clientShare(limits.total, limits)).toBe(floor)
      }),
    )
  })

  it('at the defaults (20 per client, 10,000 in all): 20 to half full, then 14 at 70 %, 10 at 85 %, 5 when full', () => {
    const limits = { perClient: 20, total: 10_000 }
    expect([0, 5_000, 7_000, 8_500, 9_999, 10_000, 12_000].map((all) => clientShare(all, limits))).toEqual([20, 20, 14, 10, 6, 5, 5])
  })
})
