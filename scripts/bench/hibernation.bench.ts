/**
 * Hibernation figures (issue 35): heap per waiting call in the process, with every parked
 * generator kept (`warmCalls` = N) against none (`warmCalls` 0: waiting costs storage only), and
 * the time to answer 1,000 random waiting calls (lock, read, replay, respond, store the result) as
 * more calls wait, and how long shutting the registry down takes. SQLite file store; a two-entry
 * call (a step, a question). Bounded: fixed N.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CallRegistry, createSqliteStore, nextEvent, type LiveCall } from '@mcp-bridge/runtime/server'
import { bookFare } from './support/waiting-tool.ts'

const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc (npm run bench does)')

const tool = bookFare

const dir = mkdtempSync(join(tmpdir(), 'bench-hibernation-'))
let files = 0

async function untilQuestion(call: LiveCall<undefined>) {
  for (let event = await nextEvent(call); event; event = await nextEvent(call)) {
    if (event.type === 'elicit' && call.host.pending() === event.request) return event.request
  }
  throw new Error('no question')
}

async function heapUsed(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc!()
    await new Promise((r) => setImmediate(r))
  }
  return process.memoryUsage().heapUsed
}

/** Park `n` calls with `warmCalls`; heap per call, then answer p50/p99 over 1,000 random calls. */
async function run(n: number, warmCalls: number) {
  const store = await createSqliteStore({ path: join(dir, `calls-${++files}.db`) })
  const registry = new CallRegistry<undefined>({
    limits: { idleTimeoutMs: 600_000, maxActiveCalls: 1_000_000, maxCallsPerClient: 1_000_000, warmCalls },
    surface: 'chat',
    store,
  })
  const before = await heapUsed()
  const tokens: Array<{ id: string; token: string }> = []
  const t0 = performance.now()
  for (let i = 0; i < n; i++) {
    const call = await registry.start({ tool, params: { route: `R${i}` }, callId: `c${i}`, client: `client-${i % 500}`, extra: undefined })
    const q = await untilQuestion(call)
    await registry.park(call, { id: q.id, key: q.key, wire: {} })
    tokens.push({ id: call.callId, token: call.token })
  }
  const parkMs = performance.now() - t0
  const heap = (await heapUsed()) - before
  const times: number[] = []
  for (let i = 0; i < Math.min(1_000, n); i++) {
    const { id, token } = tokens.splice(Math.floor(Math.random() * tokens.length), 1)[0]!
    const t = performance.now()
    const resumed = await registry.resume(id, { token, replay: () => ({ tool, extra: undefined }) })
    if (!resumed.ok) throw new Error(resumed.message)
    if (resumed.replayed) await untilQuestion(resumed.call)
    const outcome = resumed.call.host.respond({ id: resumed.call.host.pending()!.id, result: { action: 'accept', content: { ok: true } } })
    if (!outcome.ok) throw new Error(outcome.message)
    await resumed.call.host.outcome
    await registry.settled(resumed.call)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const closing = performance.now()
  await registry.close()
  const closeMs = performance.now() - closing
  await store.close()
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(2)
  return { perCall: heap / n, parkMs, p50: pct(50), p99: pct(99), closeMs }
}

await run(200, 0) // warm up the code paths
for (const n of [1_000, 10_000]) {
  const kept = await run(n, n)
  const none = await run(n, 0)
  console.log(
    `${n.toLocaleString('en')} waiting (SQLite): heap per waiting call ${(kept.perCall / 1024).toFixed(2)} KB with every generator kept, ` +
      `${(none.perCall / 1024).toFixed(2)} KB with warmCalls 0 (${(kept.perCall / Math.max(1, none.perCall)).toFixed(0)}× less); ` +
      `parked in ${(kept.parkMs / 1000).toFixed(1)} / ${(none.parkMs / 1000).toFixed(1)} s; ` +
      `answer p50/p99 ${kept.p50}/${kept.p99} ms warm, ${none.p50}/${none.p99} ms replayed (1,000 random calls each); ` +
      `shutdown (close) ${kept.closeMs.toFixed(0)} ms / ${none.closeMs.toFixed(0)} ms`,
  )
}
rmSync(dir, { recursive: true, force: true })
