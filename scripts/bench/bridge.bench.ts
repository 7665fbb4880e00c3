/**
 * Bridge figures (issue 3): elicit → respond → resume round trips per second in one process,
 * and heap bytes per suspended tool call with 10,000 calls suspended at once.
 */
import { createMcpTool } from '@mcp-bridge/runtime'
import { createBridgeHost, type BridgeHost } from '@mcp-bridge/runtime/server'
import { z } from 'zod'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc (npm run bench does)')

const answer = z.object({ ok: z.boolean() })

const loop = createMcpTool('loop')
  .elicits({ step: answer })
  .execute(function* (_p, ctx) {
    let accepted = 0
    for (;;) {
      const r = yield* ctx.elicit('step', { message: 'next?' })
      if (r.action !== 'accept') return accepted
      accepted += 1
    }
  })

const seatTool = createMcpTool('suspended')
  .parameters(z.object({ from: z.string() }))
  .elicits({ pickSeat: z.object({ row: z.int(), seat: z.enum(['A', 'B', 'C', 'D']) }) })
  .execute(function* (params, ctx) {
    const r = yield* ctx.elicit('pickSeat', { message: `Seat for ${params.from}?`, taken: ['1A', '2C'] })
    return r
  })

async function roundTrips(total: number): Promise<number> {
  const host = createBridgeHost({ tool: loop, params: {}, callId: 'bench' })
  const start = performance.now()
  let done = 0
  // An async consumer, as the HTTP layer is: wait for each request on the event stream, answer it.
  for await (const event of host.subscribe()) {
    if (event.type !== 'elicit') continue
    done += 1
    const result = done > total ? ({ action: 'decline' } as const) : ({ action: 'accept', content: { ok: true } } as const)
    const outcome = host.respond({ id: event.request.id, result })
    if (!outcome.ok) throw new Error(outcome.message)
  }
  const seconds = (performance.now() - start) / 1000
  const final = await host.outcome
  if (final.status !== 'completed' || final.result !== total) throw new Error(`unexpected outcome ${JSON.stringify(final)}`)
  return total / seconds
}

async function heapPerSuspended(count: number): Promise<{ perCall: number; total: number }> {
  gc!()
  await new Promise((r) => setImmediate(r))
  gc!()
  const before = process.memoryUsage().heapUsed
  const hosts: BridgeHost<unknown>[] = []
  for (let i = 0; i < count; i++) hosts.push(createBridgeHost({ tool: seatTool, params: { from: `city-${i}` }, callId: `call_${i}` }))
  await new Promise((r) => setImmediate(r))
  const suspended = hosts.filter((h) => h.status() === 'awaiting_elicit').length
  if (suspended !== count) throw new Error(`only ${suspended} of ${count} calls suspended`)
  gc!()
  await new Promise((r) => setImmediate(r))
  gc!()
  const after = process.memoryUsage().heapUsed
  await Promise.all(hosts.map((h) => h.abort('bench over')))
  return { perCall: (after - before) / count, total: after - before }
}

const warm = await roundTrips(2_000)
void warm
const rates: number[] = []
for (let i = 0; i < 5; i++) rates.push(await roundTrips(50_000))
rates.sort((a, b) => a - b)
console.log(
  `elicit round trips: median ${Math.round(rates[2]!).toLocaleString('en')} /s (5 runs of 50,000; min ${Math.round(rates[0]!).toLocaleString('en')}, max ${Math.round(rates[4]!).toLocaleString('en')}); target >= 200,000 /s (issue 33)`,
)

await heapPerSuspended(1_000)
const heaps: number[] = []
for (let i = 0; i < 3; i++) heaps.push((await heapPerSuspended(10_000)).perCall)
heaps.sort((a, b) => a - b)
console.log(
  `heap per suspended call: median ${(heaps[1]! / 1024).toFixed(1)} KB (3 runs of 10,000 suspended at once; ${heaps.map((h) => (h / 1024).toFixed(1)).join(' / ')} KB); target <= 10 KB (issue 33)`,
)
