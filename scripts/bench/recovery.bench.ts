/**
 * Recovery figures: how long after a server is killed (SIGKILL, mid-steps) every call it was
 * running has completed on its own — taken over once the lease lapses, replayed, and run to its
 * end. Per stranded call, kill → completed, p50 / p99 / max, at the default lease (10 s) and at
 * the shortest (1 s): on SQLite (the server restarted on the file) and on Redis (three instances,
 * the other two taking the killed one's calls over). Bounded: a fixed number of rounds of ten
 * concurrent answers. Uses the crash trial's child-process servers (see the test of that name).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRedisStore, createSqliteStore, type CallStore } from '@mcp-bridge/runtime/server'
import { startRedis } from '../../packages/runtime/test/support/redis-server.ts'
import { finishAll, sendAnswer, spawnCrashServer, startBooking, whenRunning } from '../../packages/runtime/test/support/crash-trial.ts'

async function trial(leaseMs: number, rounds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-recovery-'))
  const db = join(dir, 'calls.db')
  const ledger = join(dir, 'ledger.db')
  const store = await createSqliteStore({ path: db })
  let server = await spawnCrashServer(`sqlite:${db}`, ledger, leaseMs)
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    const bookings = await Promise.all(Array.from({ length: 10 }, (_, i) => startBooking(server.url, `B${round}-${i}`)))
    for (const b of bookings) void sendAnswer(server.url, b)
    await whenRunning(store, bookings)
    await server.kill()
    const killedAt = Date.now()
    const stranded = new Set((await Promise.all(bookings.map(async (b) => ((await store.get(b.callId))?.status === 'running' ? b.callId : undefined)))).filter(Boolean))
    server = await spawnCrashServer(`sqlite:${db}`, ledger, leaseMs)
    const live = server
    const ended = await finishAll(store, bookings, () => [live.url], killedAt, leaseMs * 6 + 60_000)
    for (const [callId, ms] of ended) if (stranded.has(callId)) times.push(ms)
  }
  await server.kill()
  await store.close()
  rmSync(dir, { recursive: true, force: true })
  report(`SQLite, lease ${leaseMs / 1000} s`, times, rounds, 'includes the restart of the server, ~1 s')
}

/** Redis: three instances; each round one is killed while its answers run, the other two take its calls over. */
async function redisTrial(url: string, leaseMs: number, rounds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-recovery-redis-'))
  const ledger = join(dir, 'ledger.db')
  const store: CallStore = await createRedisStore({ url, onWarning: () => {} })
  const live = await Promise.all([0, 1, 2].map(() => spawnCrashServer(`redis:${url}`, ledger, leaseMs)))
  const times: number[] = []
  for (let round = 0; round < rounds; round++) {
    const victim = round % live.length
    const bookings = await Promise.all(Array.from({ length: 10 }, (_, i) => startBooking(live[victim]!.url, `R${round}-${i}`)))
    for (const b of bookings) void sendAnswer(live[victim]!.url, b)
    await whenRunning(store, bookings)
    await live[victim]!.kill()
    const killedAt = Date.now()
    const stranded = new Set((await Promise.all(bookings.map(async (b) => ((await store.get(b.callId))?.status === 'running' ? b.callId : undefined)))).filter(Boolean))
    const others = live.filter((_, i) => i !== victim)
    const ended = await finishAll(store, bookings, () => others.map((s) => s.url), killedAt, leaseMs * 6 + 60_000)
    for (const [callId, ms] of ended) if (stranded.has(callId)) times.push(ms)
    live[victim] = await spawnCrashServer(`redis:${url}`, ledger, leaseMs)
  }
  await Promise.all(live.map((s) => s.kill()))
  await store.close()
  rmSync(dir, { recursive: true, force: true })
  report(`Redis (3 instances), lease ${leaseMs / 1000} s`, times, rounds, 'the other instances were running: no restart in it')
}

function report(what: string, times: number[], rounds: number, note: string) {
  times.sort((a, b) => a - b)
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? NaN
  console.log(
    `kill → every stranded call completed, ${what}: p50 ${(at(50) / 1000).toFixed(2)} s, p99 ${(at(99) / 1000).toFixed(2)} s, max ${((times.at(-1) ?? NaN) / 1000).toFixed(2)} s ` +
      `(${times.length} stranded calls over ${rounds} rounds of 10; ${note})`,
  )
}

await trial(10_000, 3)
await trial(1_000, 5)
const redis = await startRedis()
try {
  await redisTrial(redis.url, 10_000, 3)
  await redisTrial(redis.url, 1_000, 5)
} finally {
  await redis.stop()
}
