/**
 * One abusive client against one ordinary client (issue 14): over loopback HTTP, the abuser
 * opens tool calls that wait for an answer as fast as it can (bounded: 2,000 requests), while
 * the ordinary client starts a booking (one request to its first question) every few ms. The
 * figure is the ordinary client's success rate and latency, measured in the same run without
 * the abuser (baseline) and with it. Clients are told apart by a header (`clientKey`), since
 * both run on this machine's one address.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createMcpTool } from '@mcp-bridge/runtime'
import { readChatEvents, type ChatStreamEvent } from '@mcp-bridge/runtime/client'
import { createChatHandler, toNodeListener } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { z } from 'zod'

const hold = createMcpTool('hold')
  .elicits({ go: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    return yield* ctx.elicit('go', { message: 'Go?' })
  })
const model = createScriptedModel({ onUserMessage: [{ match: /hold/, reply: { toolCalls: [{ name: 'hold', input: {} }] } }] })

async function scenario(withAbuser: boolean) {
  const handler = createChatHandler({ tools: [hold], model, clientKey: (r) => r.headers.get('x-client') ?? 'anonymous' })
  const server = createServer(toNodeListener(handler))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`
  const ask = async (client: string): Promise<{ ok: boolean; ms: number }> => {
    const t0 = performance.now()
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client': client },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hold' }] }] }),
    })
    const events: ChatStreamEvent[] = []
    for await (const e of readChatEvents(res.body!)) events.push(e)
    return { ok: events.some((e) => e.type === 'elicit_request'), ms: performance.now() - t0 }
  }

  let abuserRefused = 0
  let abuserHeld = 0
  const abuser = withAbuser
    ? (async () => {
        for (let batch = 0; batch < 20; batch++) {
          const results = await Promise.all(Array.from({ length: 100 }, () => ask('mallory')))
          for (const r of results) {
            if (r.ok) abuserHeld++
            else abuserRefused++
          }
        }
      })()
    : Promise.resolve()
  const ordinary: Array<{ ok: boolean; ms: number }> = []
  for (let i = 0; i < 100; i++) {
    ordinary.push(await ask(`alice-${i % 5}`))
    // Alice answers nothing either: free her places as a person finishing would.
    if (i % 5 === 4) for (const c of handler.calls.list()) if (c.client.startsWith('alice')) await handler.calls.get(c.callId)?.host.abort()
  }
  await abuser
  await handler.close()
  server.close()
  const ms = ordinary.map((o) => o.ms).sort((a, b) => a - b)
  return {
    okRate: ordinary.filter((o) => o.ok).length / ordinary.length,
    p50: ms[Math.floor(ms.length / 2)]!,
    p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]!,
    abuserHeld,
    abuserRefused,
  }
}

await scenario(false) // warm-up
const base = await scenario(false)
const abused = await scenario(true)
const fmt = (n: number) => `${n.toFixed(1)} ms`
console.log(`ordinary client alone:          ${(base.okRate * 100).toFixed(0)} % of 100 bookings started, p50 ${fmt(base.p50)}, p99 ${fmt(base.p99)}`)
console.log(
  `beside an abusive client:        ${(abused.okRate * 100).toFixed(0)} % of 100 bookings started, p50 ${fmt(abused.p50)} (${(abused.p50 / base.p50).toFixed(1)}x), p99 ${fmt(abused.p99)} (${(abused.p99 / base.p99).toFixed(1)}x)`,
)
console.log(`abusive client: ${abused.abuserHeld} calls held (limits.maxCallsPerClient), ${abused.abuserRefused} of 2,000 refused`)
