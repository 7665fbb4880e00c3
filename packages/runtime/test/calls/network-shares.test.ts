/**
 * Who makes room when the server is full (`roomFor`), over random populations of holders drawn
 * from a few networks (fast-check): a client holding nothing is admitted whenever anything could be
 * evicted, a client holding some only at the expense of a network holding clearly more, and never
 * at its own expense. Keys are made by `createClientKey`, as the server makes them.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { roomFor, type Holding } from '../../src/calls/network-shares.ts'
import { defaultClientKey, networksOf, recordClientAddress } from '../../src/http/client-address.ts'

const keyOf = (address: string) => {
  const request = new Request('http://127.0.0.1/')
  recordClientAddress(request, address)
  return defaultClientKey(request)
}

/** Addresses from few networks, so that they share /48s, /56s, /64s and /24s often. */
const address = fc.oneof(
  fc
    .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 9 }))
    .map(([site, subnet, lan, host]) => `2001:db8:${site}:${subnet}${lan.toString(16)}::${host}`),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 6 })).map(([net, host]) => `198.51.${net}.${host}`),
)

const holding = fc.record({ address, held: fc.integer({ min: 1, max: 6 }), evictable: fc.boolean(), since: fc.integer({ min: 0, max: 1_000 }) })

/** One holding per client (as the stores report them), the first drawn for a client winning. */
const population = fc.array(holding, { maxLength: 40 }).map((drawn) => {
  const byClient = new Map<string, Holding<string>>()
  for (const [i, h] of drawn.entries()) {
    const client = keyOf(h.address)
    if (!byClient.has(client)) byClient.set(client, { client, held: h.held, oldest: h.evictable ? `call-${i}` : undefined, since: h.since })
  }
  return [...byClient.values()]
})

/** How many `holdings` hold in the network `path` names at `level`. */
const heldIn = (holdings: Holding<string>[], path: string[], level: number) => holdings.filter((h) => networksOf(h.client)[level] === path[level]).reduce((n, h) => n + h.held, 0)

describe('roomFor', () => {
  it('admits a client holding nothing whenever anything can be evicted, and only by evicting something evictable', () => {
    fc.assert(
      fc.property(population, address, (holdings, from) => {
        const newcomer = keyOf(from)
        const others = holdings.filter((h) => h.client !== newcomer)
        const victim = roomFor(newcomer, others)
        expect(victim !== undefined).toBe(others.some((h) => h.oldest !== undefined))
        if (victim) expect(victim.oldest).toBeDefined()
      }),
      { numRuns: 2_000 },
    )
  })

  it('makes room for a client holding some only in a network holding at least two more than its own where they part, never its own', () => {
    fc.assert(
      fc.property(population, (holdings) => {
        for (const own of holdings) {
          const victim = roomFor(own.client, holdings)
          if (!victim) continue
          expect(victim.client).not.toBe(own.client)
          const mine = networksOf(own.client)
          const theirs = networksOf(victim.client)
          const parted = theirs.findIndex((network, level) => network !== mine[level])
          expect(heldIn(holdings, theirs, parted)).toBeGreaterThan(heldIn(holdings, mine, parted) + 1)
        }
      }),
      { numRuns: 1_000 },
    )
  })

  it('takes the oldest entry of the busiest network, followed down to one client', () => {
    const key = (net: number, host: number) => keyOf(`2001:db8:${net}:${host}::1`)
    const holdings: Holding<string>[] = [
      // /48 number 1: forty addresses holding one each. /48 number 2: one address holding five.
      ...Array.from({ length: 40 }, (_, host) => ({ client: key(1, host), held: 1, oldest: `m${host}`, since: 100 + host })),
      { client: key(2, 0), held: 5, oldest: 'big', since: 0 },
    ]
    expect(roomFor(key(3, 0), holdings)?.oldest).toBe('m0')
    // /48 number 2 holds the most (5 against 3): the contest is inside it, where the newcomer's neighbour makes room.
    expect(roomFor(key(2, 1), holdings.slice(0, 3).concat(holdings[40]!))?.oldest).toBe('big')
    // Keys of your own with levels weigh the same way; a key without levels is one client.
    expect(
      roomFor('org-2 > u1', [
        { client: 'org-1 > u1', held: 1, oldest: 'a', since: 1 },
        { client: 'org-1 > u2', held: 1, oldest: 'b', since: 0 },
        { client: 'org-2 > u2', held: 1, oldest: 'c', since: 2 },
      ])?.oldest,
    ).toBe('b')
    expect(roomFor('solo', [{ client: 'solo', held: 3, oldest: 'x', since: 0 }])).toBeUndefined()
  })
})
