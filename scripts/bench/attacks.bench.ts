/**
 * Hardening round 2 (issue 28): an ordinary client's success rate and latency while one of four
 * attacks runs against the built app server (`serveApp`, as `node dist/server/index.js` runs it),
 * each beside a baseline measured in the same run:
 *
 *   - many addresses: 60 clients each parking 20 calls that never get an answer (1,200 > the
 *     1,000-call cap);
 *   - conversation growth: one client sending 40 turns of 900 kB into one kept conversation;
 *   - rate flood: 200 addresses posting as fast as they can (the app's `rateLimit` on);
 *   - slow sockets: 2,000 connections that send half their headers and stop.
 *
 * Attackers use their own loopback addresses (127.0.0.2 and up), so per-address rules apply to
 * them as they would on a network. Bounded: fixed counts, and each attack stops itself.
 */
import { request, type Agent } from 'node:http'
import { connect, type Socket } from 'node:net'
import { createMcpTool } from '@mcp-bridge/runtime'
import { readChatEvents, type ChatStreamEvent } from '@mcp-bridge/runtime/client'
import { createAppServer, createChatHandler, serveApp, type ServeAppOptions } from '@mcp-bridge/runtime/server'
import { createScriptedModel } from '@mcp-bridge/runtime/testing'
import { z } from 'zod'

const hold = createMcpTool('hold')
  .elicits({ go: z.object({ ok: z.boolean() }) })
  .execute(function* (_p, ctx) {
    return yield* ctx.elicit('go', { message: 'Go?' })
  })
const model = createScriptedModel({ onUserMessage: [{ match: /hold/, reply: { toolCalls: [{ name: 'hold', input: {} }] } }], fallback: 'ok' })

/** POST a chat body from `localAddress`; resolves with the events (or a refusal's status). */
function post(url: URL, body: unknown, localAddress = '127.0.0.1', agent?: Agent): Promise<{ status: number; events: ChatStreamEvent[] }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, agent, headers: { 'content-type': 'application/json' } }, async (res) => {
      const events: ChatStreamEvent[] = []
      if (res.statusCode !== 200) {
        res.resume()
        return resolve({ status: res.statusCode ?? 0, events })
      }
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          res.on('data', (chunk: Buffer) => controller.enqueue(new Uint8Array(chunk)))
          res.on('end', () => controller.close())
          res.on('error', (error) => controller.error(error))
        },
      })
      for await (const e of readChatEvents(stream)) events.push(e)
      resolve({ status: 200, events })
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

const holdTurn = { messages: [{ role: 'user', content: [{ type: 'text', text: 'hold' }] }] }
const attacker = (i: number) => `127.0.${2 + Math.floor(i / 250)}.${2 + (i % 250)}`

async function scenario(attack: ((url: URL) => Promise<void>) | undefined, options: Partial<ServeAppOptions> = {}, paceMs = 0) {
  // A cap of 1,000 held calls (the default is 10,000), so the many-addresses attack goes past it.
  const handler = createChatHandler({ tools: [hold], model, limits: { maxActiveCalls: 1_000 } })
  const served = await serveApp(createAppServer({ chat: handler }), { port: 0, handleSignals: false, ...options })
  const url = new URL('/api/chat', served.url)
  const running = attack ? attack(url).catch(() => undefined) : Promise.resolve()
  const ordinary: Array<{ ok: boolean; ms: number }> = []
  await new Promise((r) => setTimeout(r, attack ? 300 : 0)) // the attack under way first
  for (let i = 0; i < 100; i++) {
    const t0 = performance.now()
    const answer = await post(url, holdTurn).catch(() => ({ status: 0, events: [] as ChatStreamEvent[] }))
    ordinary.push({ ok: answer.events.some((e) => e.type === 'elicit_request'), ms: performance.now() - t0 })
    // A person finishing frees the place: the ordinary client's calls do not pile up.
    for (const c of handler.calls.list()) if (c.client === '127.0.0.1') await handler.calls.get(c.callId)?.host.abort('done')
    if (paceMs) await new Promise((r) => setTimeout(r, paceMs))
  }
  await running
  await served.close()
  const ms = ordinary.map((o) => o.ms).sort((a, b) => a - b)
  return { okRate: ordinary.filter((o) => o.ok).length / ordinary.length, p50: ms[50]!, p99: ms[98]! }
}

const attacks: Record<string, { run: (url: URL) => Promise<void>; options?: Partial<ServeAppOptions>; paceMs?: number }> = {
  'many addresses (60 × 20 waiting calls)': {
    run: async (url) => {
      for (let batch = 0; batch < 12; batch++) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => post(url, holdTurn, attacker((batch * 100 + i) % 60)).catch(() => undefined)))
      }
    },
  },
  'conversation growth (40 turns × 900 kB)': {
    run: async (url) => {
      const conversation = { id: 'attack-conversation-0001', secret: 'a'.repeat(43) }
      for (let turn = 0; turn < 40; turn++) {
        await post(url, { messages: [{ role: 'user', content: [{ type: 'text', text: `${turn} ${'x'.repeat(900_000)}` }] }], conversation }, attacker(0)).catch(() => undefined)
      }
    },
  },
  // The ordinary client keeps to ~16 requests a second, under the limit; each attacker tries 50 at once.
  'rate flood (200 addresses, rateLimit 20/s each)': {
    options: { rateLimit: { requestsPerSecond: 20 } },
    paceMs: 60,
    run: async (url) => {
      for (let round = 0; round < 50; round++) {
        await Promise.all(Array.from({ length: 200 }, (_, i) => post(url, holdTurn, attacker(i)).catch(() => undefined)))
      }
    },
  },
  'slow sockets (2,000 half-sent headers)': {
    options: { headersTimeoutMs: 10_000 },
    run: async (url) => {
      const sockets: Socket[] = []
      for (let i = 0; i < 2_000; i++) {
        const socket = connect({ port: Number(url.port), host: '127.0.0.1', localAddress: attacker(i % 500) })
        socket.on('error', () => {})
        socket.write(`POST /api/chat HTTP/1.1\r\nHost: 127.0.0.1\r\n`)
        sockets.push(socket)
      }
      await new Promise((r) => setTimeout(r, 5_000))
      for (const s of sockets) s.destroy()
    },
  },
}

const fmt = (n: number) => `${n.toFixed(1)} ms`
await scenario(undefined) // warm-up
for (const [name, attack] of Object.entries(attacks)) {
  const base = await scenario(undefined, attack.options, attack.paceMs)
  const attacked = await scenario(attack.run, attack.options, attack.paceMs)
  console.log(
    `${name.padEnd(48)} ordinary client: ${(attacked.okRate * 100).toFixed(0)} % (alone ${(base.okRate * 100).toFixed(0)} %), ` +
      `p50 ${fmt(attacked.p50)} (${(attacked.p50 / base.p50).toFixed(1)}x of ${fmt(base.p50)}), p99 ${fmt(attacked.p99)} (${(attacked.p99 / base.p99).toFixed(1)}x)`,
  )
}
