/**
 * The chat's per-client byte budget (`limits.clientBytesPerSecond`): one client sending big turns
 * gets its burst (8 × maxBodyBytes) and then waits, with a 429 that says how long and why, while
 * another client is served; a restore counts the bytes it sent back.
 */
import { describe, expect, it } from 'vitest'
import { createChatHandler } from '../../src/server.ts'
import { createScriptedModel, createTestClock } from '../../src/testing.ts'

const setup = () => {
  const clock = createTestClock()
  const handler = createChatHandler({
    tools: [],
    model: createScriptedModel({ fallback: 'ok' }),
    clock,
    clientKey: (r) => r.headers.get('x-client') ?? '?',
    limits: { maxBodyBytes: 64 << 10, clientBytesPerSecond: 16 << 10 },
  })
  const turn = (client: string, text: string, conversation = { id: `conversation-of-${client}`, secret: 's'.repeat(43) }) =>
    handler(
      new Request('http://127.0.0.1/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-client': client },
        body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text }] }], conversation }),
      }),
    )
  return { clock, handler, turn }
}

describe('the per-client byte budget', () => {
  it('gives a client sending big turns its burst, then 429 RATE_LIMITED with Retry-After; another client is served meanwhile; time refills it', async () => {
    const { clock, handler, turn } = setup()
    const big = 'x'.repeat(60_000)
    const statuses: number[] = []
    let retryAfter = 0
    for (let i = 0; i < 10; i++) {
      const response = await turn('mallory', `${i} ${big}`)
      statuses.push(response.status)
      if (response.status === 200) await response.text()
      else {
        retryAfter = Number(response.headers.get('retry-after'))
        expect(await response.json()).toEqual({
          code: 'RATE_LIMITED',
          message: `This client sent or restored more than the server takes from one client (limits.clientBytesPerSecond: 16384 bytes a second, with bursts); try again in ${retryAfter} s.`,
        })
      }
    }
    // What is left of the burst refills at 16 KiB a second: a 60 kB turn waits a few seconds.
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(4)
    // 8 × 64 KiB of burst: eight turns of 60 kB, then refused.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429])
    const other = await turn('alice', 'hello')
    expect(other.status).toBe(200)
    await other.text()
    await clock.advance(retryAfter * 1000)
    const again = await turn('mallory', `later ${big}`)
    expect(again.status).toBe(200)
    await again.text()
    await handler.close()
  })

  it('counts what a restore sends back: restoring a big conversation over and over is refused once past the budget', async () => {
    const { handler, turn } = setup()
    const conversation = { id: 'big-conversation-0001', secret: 'b'.repeat(43) }
    for (let i = 0; i < 2; i++) await (await turn('bob', `${i} ${'y'.repeat(50_000)}`, conversation)).text()
    const restore = () =>
      handler(
        new Request(`http://127.0.0.1/api/chat?conversation=${conversation.id}`, {
          headers: { authorization: `Bearer ${conversation.secret}`, 'x-client': 'bob' },
        }),
      )
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      const response = await restore()
      statuses.push(response.status)
      await response.text()
    }
    // 512 KiB of burst, 100 kB of it taken by the turns, each restore ~200 kB (its messages and its transcript): a few, then refused.
    expect(statuses.indexOf(429)).toBeGreaterThan(0)
    expect(statuses.slice(statuses.indexOf(429)).every((s) => s === 429)).toBe(true)
    await handler.close()
  })

  it('refuses a budget it cannot use, naming the option', () => {
    expect(() => createChatHandler({ tools: [], model: createScriptedModel({}), limits: { clientBytesPerSecond: 10 } })).toThrow(/clientBytesPerSecond.*at least 1024/)
  })
})
