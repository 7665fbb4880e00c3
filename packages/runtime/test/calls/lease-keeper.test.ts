/**
 * Lease keeping and the stranded-call scan on their own: a memory store, the test clock, an
 * Effection scope standing in for the registry's. No registry, no server.
 */
import { createScope } from 'effection'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { keepLeases } from '../../src/calls/lease-keeper.ts'
import { scanStranded, SCANS_PER_LEASE } from '../../src/calls/recovery-scan.ts'
import type { LiveCall } from '../../src/calls/live-call.ts'
import type { CallRecord, CallStore } from '../../src/calls/stores/call-store.ts'
import { createMemoryStore } from '../../src/calls/stores/memory-store.ts'
import { createTestClock, type TestClock } from '../../src/testing.ts'
import { runningRecord } from '../support/call-records.ts'

const LEASE = 9_000
/** Where the test clock starts (`createTestClock`'s default). */
const T0 = Date.UTC(2026, 0, 1)
const ends: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const end of ends.splice(0)) await end()
})

function inScope() {
  const [scope, destroy] = createScope()
  ends.push(async () => void (await destroy()))
  return scope
}

const record = (callId: string, patch: Partial<CallRecord> = {}) => runningRecord(callId, T0, patch)

/** What lease keeping reads of a call: its id, revision and lease. */
async function runningCall(store: CallStore, callId: string): Promise<LiveCall<undefined>> {
  await store.create(record(callId))
  return { callId, revision: 1, lease: await store.lock(callId, 'instance-a', LEASE) } as LiveCall<undefined>
}

describe('keepLeases', () => {
  it("renews a running call's lock every third of the lease, so it never lapses while the call runs", async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const call = await runningCall(store, 'c1')
    const supersede = vi.fn()
    void inScope().run(() => keepLeases({ store, instanceId: 'instance-a', leaseMs: LEASE, clock, running: () => [call], supersede, renewClaim: vi.fn(async () => undefined) }))
    for (let i = 0; i < 10; i++) await clock.advance(LEASE / 3)
    expect(await store.lockHolder('c1')).toMatchObject({ owner: 'instance-a' })
    expect(await store.stranded(10, 'chat')).toEqual([])
    expect(supersede).not.toHaveBeenCalled()
  })

  it('stops its copy when the lease lapsed and another instance took the call over (nothing recorded for it)', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const call = await runningCall(store, 'c2')
    await clock.advance(LEASE + 1) // this process stalled past its lease…
    await store.lock('c2', 'instance-b', LEASE) // …and another took the call
    const supersede = vi.fn()
    void inScope().run(() => keepLeases({ store, instanceId: 'instance-a', leaseMs: LEASE, clock, running: () => [call], supersede, renewClaim: vi.fn(async () => undefined) }))
    await clock.advance(LEASE / 3)
    expect(supersede).toHaveBeenCalledWith(call, 'its lease lapsed and another instance took the call over')
    expect(call.lease).toBeUndefined()
  })

  it('takes a lapsed lease again when nobody took the call meanwhile', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const call = await runningCall(store, 'c3')
    await clock.advance(LEASE + 1)
    const supersede = vi.fn()
    void inScope().run(() => keepLeases({ store, instanceId: 'instance-a', leaseMs: LEASE, clock, running: () => [call], supersede, renewClaim: vi.fn(async () => undefined) }))
    await clock.advance(LEASE / 3)
    expect(supersede).not.toHaveBeenCalled()
    expect(await store.lockHolder('c3')).toMatchObject({ owner: 'instance-a' })
  })
  it('renews the claim of a call running before its first record (no lock yet), so it keeps its count however long it runs; stopped, the claim lapses within a lease', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const bounds = { perClient: 1, total: 10 }
    await store.admit({ callId: 'u1', client: 'c', until: clock.now() + LEASE }, bounds)
    const call = { callId: 'u1', client: 'c', revision: 0, lease: undefined } as unknown as LiveCall<undefined>
    const renewClaim = (c: LiveCall<undefined>) => store.admit({ callId: c.callId, client: c.client, until: clock.now() + LEASE }, bounds)
    const scope = inScope()
    const task = scope.run(() => keepLeases({ store, instanceId: 'instance-a', leaseMs: LEASE, clock, running: () => [call], supersede: vi.fn(), renewClaim }))
    for (let i = 0; i < 9; i++) await clock.advance(LEASE / 3) // three leases long
    // Still counted: the client's one place is taken.
    expect(await store.admit({ callId: 'other', client: 'c', until: clock.now() + LEASE }, bounds)).toMatchObject({ admitted: false, full: 'client' })
    await task.halt() // its process died
    await clock.advance(LEASE + 1)
    expect(await store.admit({ callId: 'other', client: 'c', until: clock.now() + LEASE }, bounds)).toMatchObject({ admitted: true })
  })
})

describe('scanStranded', () => {
  async function scanning(clock: TestClock, store: CallStore, options: { busy?: () => number; held?: (id: string) => boolean; concurrency?: number } = {}) {
    const recovered: string[] = []
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() }
    void inScope().run(() =>
      scanStranded({
        store,
        surface: 'chat',
        clock,
        leaseMs: LEASE,
        concurrency: options.concurrency ?? 8,
        busy: options.busy ?? (() => 0),
        held: options.held ?? (() => false),
        log,
        recover: async (id) => {
          recovered.push(id)
          if (id === 'boom') throw new Error('the replay could not start')
          await store.update(record(id, { status: 'waiting', revision: 2 })) // carried on to its next question
        },
      }),
    )
    await clock.settle()
    return { recovered, log }
  }

  it("hands this surface's stranded calls to recover at start-up, and those stranded later at the next scan (a fifth of a lease on)", async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    await store.create(record('s1'))
    await store.create(record('m1', { surface: 'mcp' }))
    const held = await store.lock('s2', 'instance-a', LEASE)
    await store.create(record('s2'))
    const { recovered } = await scanning(clock, store)
    expect(recovered).toEqual(['s1'])
    await clock.advance(LEASE / SCANS_PER_LEASE)
    expect(recovered).toEqual(['s1']) // s2's holder lives (its lease has not lapsed)
    await store.unlock(held!) // its instance died
    await clock.advance(LEASE / SCANS_PER_LEASE - 1)
    expect(recovered).toEqual(['s1']) // not before the next scan…
    await clock.advance(1)
    expect(recovered).toEqual(['s1', 's2']) // …at it
  })

  it('takes no more than its room (concurrency less those being recovered), and skips calls this process holds', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    for (const id of ['a', 'b', 'c', 'd']) await store.create(record(id))
    const { recovered } = await scanning(clock, store, { concurrency: 3, busy: () => 1, held: (id) => id === 'a' })
    expect(recovered).toEqual(['b']) // room for 2 listed (a, b): a is held here
  })

  it('a recovery that throws is logged with the call id, and the scan goes on', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    await store.create(record('boom'))
    const { recovered, log } = await scanning(clock, store)
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ callId: 'boom' }),
      expect.stringContaining('stranded tool call boom could not be recovered here: the replay could not start'),
    )
    await store.create(record('later'))
    await clock.advance(LEASE / 2)
    expect(recovered).toContain('later')
  })
})
