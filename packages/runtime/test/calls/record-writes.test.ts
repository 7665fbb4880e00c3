/**
 * A call's record as a copy of it writes it (`writeRecord`, `recordFinished`), on its own: a
 * memory store on the test clock and a hand-made copy. No registry, no tool running.
 */
import { describe, expect, it } from 'vitest'
import { recordEnd, recordFinished, writeRecord, type RecordWrites } from '../../src/calls/record-writes.ts'
import { keepingLogger } from './support/copies-fixture.ts'
import type { LiveCall } from '../../src/calls/live-call.ts'
import { createMemoryStore } from '../../src/calls/stores/memory-store.ts'
import { CallSupersededError } from '../../src/errors/call-limit-errors.ts'
import { createTestClock } from '../../src/testing.ts'

const IDLE = 60_000
const LEASE = 9_000

function setup() {
  const clock = createTestClock()
  const store = createMemoryStore({ clock })
  const writes: RecordWrites = { store, clock, instanceId: 'instance-a', surface: 'mcp', idleTimeoutMs: IDLE, leaseMs: LEASE }
  const copy = (callId: string) =>
    ({
      callId,
      toolName: 'book',
      params: { to: 'OSL' },
      paramsDigest: 'd',
      client: 'c',
      auth: undefined,
      tokenHash: undefined,
      origin: undefined,
      createdAt: clock.now(),
      revision: 0,
      lease: undefined,
      writes: Promise.resolve(),
      superseded: false,
      storedQuestion: undefined,
      trace: { traceparent: undefined },
    }) as unknown as LiveCall<undefined>
  return { clock, store, writes, copy }
}

describe('writeRecord', () => {
  it("takes the call's lock before its first running record, then writes each change on the revision it last wrote, keeping it as long as it may wait", async () => {
    const { clock, store, writes, copy } = setup()
    const call = copy('w1')
    await writeRecord(writes, call, { status: 'running', journal: [] })
    expect(call.lease).toBeDefined() // held before anyone could find the record running
    expect(await store.lockHolder('w1')).toMatchObject({ owner: 'instance-a' })
    expect(await store.get('w1')).toMatchObject({ surface: 'mcp', status: 'running', revision: 1, owner: 'instance-a', expiresAt: clock.now() + IDLE + LEASE })
    const question = { id: 'q1', key: 'pickSeat', wire: {} }
    await writeRecord(writes, call, { status: 'waiting', journal: [], pending: question, waitMs: 5_000 })
    expect(call).toMatchObject({ revision: 2, storedQuestion: 'q1' })
    expect(await store.get('w1')).toMatchObject({ status: 'waiting', pending: question, answerBy: clock.now() + 5_000, expiresAt: clock.now() + 2 * IDLE })
  })

  it('a write another copy got in before is refused: this copy is superseded, and a strict write throws into the tool', async () => {
    const { store, writes, copy } = setup()
    const mine = copy('w2')
    await writeRecord(writes, mine, { status: 'running', journal: [] })
    const record = (await store.get('w2'))!
    expect(await store.update({ ...record, revision: 2, owner: 'instance-b' })).toBe(true) // another instance advanced it
    await expect(writeRecord(writes, mine, { status: 'running', journal: [] }, true)).rejects.toBeInstanceOf(CallSupersededError)
    expect(mine.superseded).toBe(true)
    // Once superseded, nothing more is written (a lenient write returns quietly).
    await writeRecord(writes, mine, { status: 'completed', journal: [], outcome: { status: 'completed', result: 1 } })
    expect((await store.get('w2'))!.owner).toBe('instance-b')
  })

  it('a new call whose id is held elsewhere is refused before anything is stored', async () => {
    const { store, writes, copy } = setup()
    await store.lock('w3', 'instance-b', LEASE)
    await expect(writeRecord(writes, copy('w3'), { status: 'running', journal: [] }, true)).rejects.toBeInstanceOf(CallSupersededError)
    expect(await store.get('w3')).toBeUndefined()
  })

  it('a record that expired while its copy was held is written anew: the copy is still the current one', async () => {
    const { clock, store, writes, copy } = setup()
    const call = copy('w4')
    await writeRecord(writes, call, { status: 'running', journal: [] })
    await clock.advance(IDLE + LEASE + 1) // past its retention
    expect(await store.get('w4')).toBeUndefined()
    await writeRecord(writes, call, { status: 'completed', journal: [], outcome: { status: 'completed', result: 'ok' } })
    expect(await store.get('w4')).toMatchObject({ status: 'completed', outcome: { status: 'completed', result: 'ok' } })
  })
})

describe('recordFinished', () => {
  it('records the end on top of the revision read, remembered as long as a call may wait; false once the record moved on', async () => {
    const { clock, store, writes, copy } = setup()
    const call = copy('f1')
    await writeRecord(writes, call, { status: 'waiting', journal: [], pending: { id: 'q', key: 'k', wire: {} } })
    const record = (await store.get('f1'))!
    expect(await recordFinished(writes, record, { status: 'aborted', reason: 'cancelled' })).toBe(true)
    expect(await store.get('f1')).toMatchObject({ status: 'aborted', outcome: { status: 'aborted', reason: 'cancelled' }, revision: 2, expiresAt: clock.now() + IDLE })
    expect(await recordFinished(writes, record, { status: 'aborted', reason: 'again' })).toBe(false)
  })
})

describe('recordEnd', () => {
  it("stores a copy's end; one that never stored anything gives its place among held calls back instead; a store that fails is logged with the call, never thrown", async () => {
    const { store, writes, copy } = setup()
    const log = keepingLogger()
    const call = Object.assign(copy('e1'), { host: { journal: [{ kind: 'step', name: 'reserve', seq: 1, value: 'F' }] } })
    await writeRecord(writes, call, { status: 'running', journal: [] })
    await recordEnd(writes, call, { status: 'completed', result: 'done' }, log)
    expect(await store.get('e1')).toMatchObject({ status: 'completed', outcome: { status: 'completed', result: 'done' }, journal: [{ name: 'reserve' }] })

    const nothing = Object.assign(copy('e2'), { host: { journal: [] } })
    await store.admit({ callId: 'e2', client: 'c', until: Date.now() + 60_000 }, { perClient: 1, total: 10 })
    await recordEnd(writes, nothing, { status: 'aborted', reason: 'x' }, log)
    expect(await store.get('e2')).toBeUndefined()
    expect((await store.admit({ callId: 'e3', client: 'c', until: Date.now() + 60_000 }, { perClient: 1, total: 10 })).admitted).toBe(true) // its place is free

    const failing = Object.assign(copy('e4'), { host: { journal: [{ kind: 'step', name: 'reserve', seq: 1 }] } })
    await writeRecord(writes, failing, { status: 'running', journal: [] })
    store.update = () => Promise.reject(new Error('connection reset'))
    await expect(recordEnd(writes, failing, { status: 'completed', result: 1 }, log)).resolves.toBeUndefined()
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: expect.stringContaining('tool call e4 (book): its end (completed) could not be recorded: connection reset') }),
    )
  })
})
