/**
 * The random-kill trial, in the suite: chat servers in child processes killed with SIGKILL at a
 * random moment while ten answers run their steps (once one of them runs, plus 0–60 ms) — on one SQLite file (the server restarted on
 * it), and on Redis with three instances (one killed, the other two take its calls over). After
 * each round every call has ended: none is left running, each one booked, and the ledger holds
 * exactly one ticket per booking however many times a step cut off by the kill ran again.
 *
 * The lease is 1 s (the shortest allowed), so a round waits about a second for its recoveries.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createRedisStore, createSqliteStore, type CallStore } from '../../src/server.ts'
import { type Booking, type CrashServer, finishAll, readLedger, sendAnswer, spawnCrashServer, startBooking, whenRunning } from '../support/crash-trial.ts'
import { type RedisProcess, startRedis } from '../support/redis-server.ts'

const LEASE_MS = 1_000
const CALLS_PER_ROUND = 10
/** Eight kills per store on each of the three Node majors CI runs: what the suite's time budget allows. */
const ROUNDS = 8
const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-crash-'))
const servers: CrashServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.kill()))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every call ended as a booking, none running, one ticket each. */
async function expectAllBooked(store: CallStore, bookings: readonly Booking[], ledgerPath: string) {
  const records = await Promise.all(bookings.map((b) => store.get(b.callId)))
  expect(records.filter((r) => r?.status === 'running')).toEqual([])
  expect(records.map((r) => r?.outcome?.status)).toEqual(bookings.map(() => 'completed'))
  expect(records.every((r) => (r?.outcome as { result?: { booked?: boolean } } | undefined)?.result?.booked === true)).toBe(true)
  const tickets = readLedger(ledgerPath)
  expect(tickets).toHaveLength(bookings.length)
  return tickets
}

describe('the random-kill trial', () => {
  it(`SQLite: ${ROUNDS} rounds × ${CALLS_PER_ROUND} answers, the server killed mid-steps and restarted on the file — every call completes, one ticket each`, async () => {
    const db = join(dir, 'calls.db')
    const ledgerPath = join(dir, 'ledger.db')
    const store = await createSqliteStore({ path: db })
    const all: Booking[] = []
    let server = await spawnCrashServer(`sqlite:${db}`, ledgerPath, LEASE_MS)
    servers.push(server)
    let stranded = 0
    for (let round = 0; round < ROUNDS; round++) {
      const bookings = await Promise.all(Array.from({ length: CALLS_PER_ROUND }, (_, i) => startBooking(server.url, `R${round}-${i}`)))
      all.push(...bookings)
      for (const b of bookings) void sendAnswer(server.url, b)
      await whenRunning(store, bookings)
      await server.kill()
      stranded += (await Promise.all(bookings.map((b) => store.get(b.callId)))).filter((r) => r?.status === 'running').length
      server = await spawnCrashServer(`sqlite:${db}`, ledgerPath, LEASE_MS)
      servers.push(server)
      const live = server
      await finishAll(store, bookings, () => [live.url], Date.now())
    }
    const tickets = await expectAllBooked(store, all, ledgerPath)
    // The trial did what it says: kills landed while calls ran.
    expect(stranded).toBeGreaterThan(0)
    console.log(
      `SQLite trial: ${all.length} calls, ${stranded} running at a kill and recovered; ${tickets.filter((t) => t.runs > 1).length} ticket steps cut off and run again with their key`,
    )
    await store.close()
  }, 600_000)

  describe('Redis, three instances', () => {
    let redis: RedisProcess
    beforeAll(async () => {
      redis = await startRedis()
    }, 30_000)
    afterAll(async () => {
      await redis?.stop()
    })

    it(`${ROUNDS} rounds × ${CALLS_PER_ROUND} answers, one instance killed each round — the other two take its calls over; every call completes, one ticket each`, async () => {
      const ledgerPath = join(dir, 'redis-ledger.db')
      const storeArg = `redis:${redis.url}`
      const store = await createRedisStore({ url: redis.url, onWarning: () => {} })
      const instances = await Promise.all([0, 1, 2].map(() => spawnCrashServer(storeArg, ledgerPath, LEASE_MS)))
      servers.push(...instances)
      const all: Booking[] = []
      let stranded = 0
      for (let round = 0; round < ROUNDS; round++) {
        const bookings = await Promise.all(Array.from({ length: CALLS_PER_ROUND }, (_, i) => startBooking(instances[i % 3]!.url, `Q${round}-${i}`)))
        all.push(...bookings)
        // Each answer to an instance of its own (a balancer's round robin): the victim holds a third.
        bookings.forEach((b, i) => void sendAnswer(instances[(i + 1) % 3]!.url, b))
        await whenRunning(store, bookings)
        const victim = round % 3
        await instances[victim]!.kill()
        stranded += (await Promise.all(bookings.map((b) => store.get(b.callId)))).filter((r) => r?.status === 'running').length
        const live = instances.filter((_, i) => i !== victim)
        await finishAll(store, bookings, () => live.map((s) => s.url), Date.now())
        instances[victim] = await spawnCrashServer(storeArg, ledgerPath, LEASE_MS)
        servers.push(instances[victim]!)
      }
      const tickets = await expectAllBooked(store, all, ledgerPath)
      expect(stranded).toBeGreaterThan(0)
      console.log(
        `Redis trial: ${all.length} calls, ${stranded} running at a kill and recovered; ${tickets.filter((t) => t.runs > 1).length} ticket steps cut off and run again with their key`,
      )
      await store.close()
    }, 600_000)
  })
})
