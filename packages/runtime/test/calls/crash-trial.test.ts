/**
 * The random-kill trial, in the suite: chat servers in child processes killed with SIGKILL at a
 * random moment while ten answers run their steps (once one of them runs, plus 0–60 ms) — on one SQLite file (the server restarted on
 * it), and with three instances on Redis and on Postgres (one killed, the other two take its calls over). After
 * each round every call has ended: none is left running, each one booked, and the ledger holds
 * exactly one ticket per booking however many times a step cut off by the kill ran again.
 *
 * The lease is 1 s (the shortest allowed), so a round waits about a second for its recoveries.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresStore, createRedisStore, createSqliteStore, type CallStore } from '../../src/server.ts'
import { type Booking, type CrashServer, finishAll, readLedger, sendAnswer, spawnCrashServer, startBooking, whenRunning } from '../support/crash-trial.ts'
import { startRedis } from '../support/redis-server.ts'
import { startPostgres } from '../support/postgres-server.ts'

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

  /** A database several instances share: how to start it, what the crash server is told, the trial's own store on it. */
  const shared = {
    Redis: async () => {
      const redis = await startRedis()
      return { arg: `redis:${redis.url}`, store: await createRedisStore({ url: redis.url, onWarning: () => {} }), stop: () => redis.stop() }
    },
    Postgres: async () => {
      const postgres = await startPostgres()
      return { arg: postgres.url, store: await createPostgresStore({ connectionString: postgres.url }), stop: () => postgres.stop() }
    },
  }

  // Postgres's driver is plain JavaScript: its trial runs once, on the first Node of CI's (MCP_BRIDGE_NODE_ONLY skips it).
  describe.each(Object.keys(shared).filter((name) => name === 'Redis' || process.env.MCP_BRIDGE_NODE_ONLY !== '1') as Array<keyof typeof shared>)('%s, three instances', (name) => {
    let database: Awaited<ReturnType<(typeof shared)[typeof name]>>
    beforeAll(async () => {
      database = await shared[name]()
    }, 60_000)
    afterAll(async () => {
      await database?.store.close()
      await database?.stop()
    })

    it(`${ROUNDS} rounds × ${CALLS_PER_ROUND} answers, one instance killed each round — the other two take its calls over; every call completes, one ticket each`, async () => {
      const ledgerPath = join(dir, `${name}-ledger.db`)
      const { arg: storeArg, store } = database
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
        `${name} trial: ${all.length} calls, ${stranded} running at a kill and recovered; ${tickets.filter((t) => t.runs > 1).length} ticket steps cut off and run again with their key`,
      )
    }, 600_000)
  })
})
