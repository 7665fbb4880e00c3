/**
 * Fair shares of a full server: when `maxActiveCalls` is reached, a new client's call is not
 * refused while another client holds more: the longest-waiting call of the client holding the
 * most is ended (its `finally` runs; its result says why). A client that itself holds the most
 * is refused, as before — so many addresses (or one) cannot fill the server for everyone.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createMcpTool, type McpMessage } from '../../src/index.ts'
import { createChatHandler } from '../../src/server.ts'
import { type ChatStreamEvent, readChatEvents } from '../../src/client.ts'
import { createScriptedModel } from '../../src/testing.ts'

const cleanedUp: string[] = []
const ask = createMcpTool('ask')
  .parameters(z.object({ who: z.string() }))
  .elicits({ ok: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    try {
      return yield* ctx.elicit('ok', { message: `OK, ${params.who}?` })
    } finally {
      cleanedUp.push(params.who)
    }
  })
const model = createScriptedModel({ onUserMessage: [{ match: /ask (\S+)/, reply: (_t, m) => ({ toolCalls: [{ name: 'ask', input: { who: m![1]! } }] }) }], fallback: 'ok' })
const user = (text: string): McpMessage => ({ role: 'user', content: [{ type: 'text', text }] })

describe('a full server', () => {
  it("ends the longest-waiting call of the client holding the most to make room for another client's, and refuses that client itself", async () => {
    const handler = createChatHandler({ tools: [ask], model, limits: { maxActiveCalls: 4, maxCallsPerClient: 10 }, clientKey: (r) => r.headers.get('x-client') ?? '?' })
    const turn = async (client: string, who: string) => {
      const response = await handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client': client },
          body: JSON.stringify({ messages: [user(`ask ${who}`)] }),
        }),
      )
      const events: ChatStreamEvent[] = []
      for await (const e of readChatEvents(response.body!)) events.push(e)
      return events
    }
    const first = await turn('mallory', 'm1')
    const m1 = first.find((e) => e.type === 'tool_call')!.callId
    for (const who of ['m2', 'm3']) expect((await turn('mallory', who)).some((e) => e.type === 'elicit_request')).toBe(true)
    expect((await turn('alice', 'a1')).some((e) => e.type === 'elicit_request')).toBe(true)
    expect(handler.calls.size).toBe(4)
    // Full. Bob holds nothing, Mallory the most: her longest-waiting call makes room.
    expect((await turn('bob', 'b1')).some((e) => e.type === 'elicit_request')).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(cleanedUp).toEqual(['m1'])
    const ended = handler.calls
      .list()
      .map((c) => c.client)
      .sort()
    expect(ended).toEqual(['alice', 'bob', 'mallory', 'mallory'])
    // Mallory asks again: she holds the most, so she is refused, and nobody's call ends.
    const refused = await turn('mallory', 'm4')
    expect(refused.find((e) => e.type === 'tool_result')).toMatchObject({
      isError: true,
      result: expect.stringMatching(/already holds 4 tool calls waiting for input \(limits\.maxActiveCalls\)/),
    })
    expect(cleanedUp).toEqual(['m1'])
    // Alice holds one, Mallory two: Alice may not evict (2 is not more than 1 + 1).
    expect((await turn('alice', 'a2')).find((e) => e.type === 'tool_result')).toMatchObject({ isError: true })
    // The ended call's record says why, for its client's next answer or reload.
    expect((await handler.calls.store.get(m1))?.outcome).toEqual({
      status: 'aborted',
      reason: "the server was full (limits.maxActiveCalls) and this call's network held the most calls waiting; it was ended to make room for another client's",
    })
    await handler.close()
  })

  it('past half full each new client may take less of what is left: twelve clients flooding one by one take shrinking shares, and an ordinary client still gets in', async () => {
    const handler = createChatHandler({ tools: [ask], model, limits: { maxActiveCalls: 40, maxCallsPerClient: 8 }, clientKey: (r) => r.headers.get('x-client') ?? '?' })
    const asks = async (client: string, who: string) => {
      const response = await handler(
        new Request('http://127.0.0.1/api/chat', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client': client },
          body: JSON.stringify({ messages: [user(`ask ${who}`)] }),
        }),
      )
      for await (const e of readChatEvents(response.body!)) if (e.type === 'elicit_request') return true
      return false
    }
    const taken: number[] = []
    for (let c = 0; c < 12; c++) {
      let n = 0
      while (n < 10 && (await asks(`flood-${c}`, `f${c}-${n}`))) n++
      taken.push(n)
    }
    // Up to half full (20 calls) a client takes maxCallsPerClient; then less and less.
    expect(taken.slice(0, 2)).toEqual([8, 8])
    expect(Math.max(...taken)).toBe(8)
    expect(taken.slice(3).every((n) => n < 8)).toBe(true)
    expect(taken.at(-1)).toBeLessThanOrEqual(3)
    expect(handler.calls.size).toBeLessThanOrEqual(40)
    // An ordinary client asking once is admitted (by its share, or by ending a call of the client holding the most).
    expect(await asks('alice', 'a1')).toBe(true)
    await handler.close()
  })
})
