/**
 * The requestState seal (`mcp/sealed-state.ts`): what it mints verifies, and everything else is
 * refused — an altered body or MAC, another key, an expired state, another binding, garbage.
 * (request-state.test.ts checks the same through a server and the official client.)
 */
import type { ServerContext } from '@modelcontextprotocol/server'
import { describe, expect, it } from 'vitest'
import { createSealedStateCodec } from '../../src/mcp/sealed-state.ts'

const KEY = 'k'.repeat(32)
const as = (who: string) => ({ mcpReq: { method: 'tools/call' }, who }) as unknown as ServerContext
const bind = (ctx: ServerContext) => (ctx as unknown as { who: string }).who

describe('sealed requestState', () => {
  it("verifies what it minted, and refuses any change, another key, a late or another caller's state", async () => {
    let now = 1_000_000
    const codec = createSealedStateCodec<{ callId: string }>({ key: KEY, ttlSeconds: 60, bind, now: () => now })
    const state = await codec.mint({ callId: 'c1' }, as('alice'))
    await expect(codec.verify(state, as('alice'))).resolves.toEqual({ callId: 'c1' })

    const dot = state.lastIndexOf('.')
    const body = state.slice(0, dot)
    const forgedBody = `${body.slice(0, -2)}${body.at(-2) === 'A' ? 'B' : 'A'}${body.at(-1)}${state.slice(dot)}`
    await expect(codec.verify(forgedBody, as('alice'))).rejects.toThrow('mac')
    await expect(codec.verify(`${body}.${'A'.repeat(43)}`, as('alice'))).rejects.toThrow('mac')
    await expect(codec.verify(`${body}.short`, as('alice'))).rejects.toThrow('mac')
    const otherKey = createSealedStateCodec<{ callId: string }>({ key: 'x'.repeat(32), ttlSeconds: 60, bind, now: () => now })
    await expect(otherKey.verify(state, as('alice'))).rejects.toThrow('mac')
    await expect(codec.verify(state, as('mallory'))).rejects.toThrow('bind')
    for (const garbage of ['', 'mb1.', 'not a state', 'mb1..x']) await expect(codec.verify(garbage, as('alice'))).rejects.toThrow(/malformed|mac/)

    now += 61_000
    await expect(codec.verify(state, as('alice'))).rejects.toThrow('expired')
  })

  it('an unbound codec refuses a bound state, and a key under 32 bytes is refused up front', async () => {
    const bound = createSealedStateCodec<number>({ key: KEY, ttlSeconds: 60, bind })
    const unbound = createSealedStateCodec<number>({ key: KEY, ttlSeconds: 60 })
    await expect(unbound.verify(await bound.mint(1, as('alice')), as('alice'))).rejects.toThrow('bind')
    await expect(unbound.verify(await unbound.mint(2), as('alice'))).resolves.toBe(2)
    expect(() => createSealedStateCodec({ key: 'short', ttlSeconds: 60 })).toThrow(/secret must be at least 32 bytes \(got 5\)/)
  })
})
