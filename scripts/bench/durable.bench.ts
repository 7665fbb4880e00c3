/**
 * Durable-call figures: (1) the cost of replaying a call whose journal has 100 entries on a cold
 * instance — a new registry on the same SQLite file takes the lock, reads the record and replays
 * 100 steps to the pending question; (2) the stored bytes of one suspended call, as JSON and as
 * SQLite file growth per call. Bounded: a fixed number of calls.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMcpTool } from '@mcp-bridge/runtime'
import { CallRegistry, createSqliteStore, nextEvent, type LiveCall } from '@mcp-bridge/runtime/server'
import { z } from 'zod'

const STEPS = 100
const tool = createMcpTool('hundred_steps')
  .parameters(z.object({ order: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    let total = 0
    for (let i = 0; i < STEPS; i++)
      total += yield* ctx.step(`line ${i}`, function* () {
        return i
      })
    const answer = yield* ctx.elicit('confirm', { message: `Order ${params.order}: ${total} items. Confirm?` })
    return answer.action
  })

function registry(store: Awaited<ReturnType<typeof createSqliteStore>>) {
  return new CallRegistry<undefined>({
    limits: { idleTimeoutMs: 600_000, maxActiveCalls: 100_000, maxCallsPerClient: 100_000 },
    surface: 'chat',
    store,
  })
}
async function untilQuestion(call: LiveCall<undefined>) {
  for (let event = await nextEvent(call); event; event = await nextEvent(call)) {
    if (event.type === 'elicit' && call.host.pending() === event.request) return event.request
  }
  throw new Error('no question')
}

const dir = mkdtempSync(join(tmpdir(), 'bench-durable-'))
const path = join(dir, 'calls.db')
const store = await createSqliteStore({ path })
const first = registry(store)
const N = 200
const tokens: Array<{ id: string; token: string }> = []
for (let i = 0; i < N; i++) {
  const call = await first.start({ tool, params: { order: `o${i}` }, callId: `c${i}`, client: 'bench', extra: undefined })
  const q = await untilQuestion(call)
  await first.park(call, { id: q.id, key: q.key, wire: {} })
  tokens.push({ id: call.callId, token: call.token })
}
const json = Buffer.byteLength(JSON.stringify(await store.get('c0')))
await first.close() // the instance goes away; the calls stay in the file

// A cold instance: a new registry (and connection) resumes each call by replaying 100 steps.
const coldStore = await createSqliteStore({ path })
const cold = registry(coldStore)
const times: number[] = []
for (const { id, token } of tokens) {
  const t0 = performance.now()
  const resumed = await cold.resume(id, { token, replay: () => ({ tool, extra: undefined }) })
  if (!resumed.ok) throw new Error(resumed.message)
  await untilQuestion(resumed.call)
  times.push(performance.now() - t0)
  await resumed.call.host.abort('bench over')
}
times.sort((a, b) => a - b)
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!
console.log(
  `replay of a ${STEPS}-entry journal on a cold instance (SQLite, lock + read + replay to the question): p50 ${pct(50).toFixed(2)} ms, p99 ${pct(99).toFixed(2)} ms (${N} calls)`,
)
await cold.close()
await coldStore.close()

// Bytes: a typical suspended call (two steps and a question), 1,000 of them in a fresh file.
const small = createMcpTool('small')
  .parameters(z.object({ route: z.string() }))
  .elicits({ confirm: z.object({ ok: z.boolean() }) })
  .execute(function* (params, ctx) {
    const fare = yield* ctx.step('reserve fare', function* () {
      return { fareId: `F-${params.route}`, price: 120 }
    })
    return (yield* ctx.elicit('confirm', { message: `Book ${fare.fareId}?` })).action
  })
const sizePath = join(dir, 'size.db')
const sizeStore = await createSqliteStore({ path: sizePath })
const sizes = registry(sizeStore)
const before = statSync(sizePath).size + (statSync(`${sizePath}-wal`, { throwIfNoEntry: false })?.size ?? 0)
for (let i = 0; i < 1000; i++) {
  const call = await sizes.start({ tool: small, params: { route: `R${i}` }, callId: `s${i}`, client: 'bench', extra: undefined })
  const q = await untilQuestion(call)
  await sizes.park(call, { id: q.id, key: q.key, wire: { id: q.id, key: q.key, message: q.message } })
}
const smallJson = Buffer.byteLength(JSON.stringify(await sizeStore.get('s0')))
const live = statSync(sizePath).size + (statSync(`${sizePath}-wal`, { throwIfNoEntry: false })?.size ?? 0)
await sizes.close()
await sizeStore.close() // the last connection checkpoints the WAL into the file
const settled = statSync(sizePath).size
console.log(
  `stored bytes per suspended call: ${smallJson} B of JSON for a two-entry call (${json} B with a ${STEPS}-entry journal); ` +
    `SQLite file ${Math.round((settled - before) / 1000)} B per call after checkpoint (${Math.round((live - before) / 1000)} B with the WAL, before it), over 1,000 calls`,
)
rmSync(dir, { recursive: true, force: true })
