/**
 * What a request does to a stored call, on its own (`resumeCall`, `abortCall`, `evictCall`): the
 * call's lock taken first, its record checked, then the copy here taken back, one replayed, or the
 * end written to the record — copies on a memory store and the test clock, no registry, no server.
 */
import { describe, expect, it } from 'vitest'
import type { RequestContext } from '../../src/calls/call-requests.ts'
import { abortCall, evictCall, resumeCall } from '../../src/calls/call-requests.ts'
import { hashToken } from '../../src/calls/call-record.ts'
import type { ResumeOptions } from '../../src/calls/registry-types.ts'
import { book, IDLE, LEASE, parkedCall, ran, setupCopies, type Copies } from './support/copies-fixture.ts'

function requests(c: Copies, patch: Partial<RequestContext<undefined>> = {}): RequestContext<undefined> {
  const wait = { ms: IDLE, option: 'limits.inputTimeoutMs' }
  return {
    copies: c.copies,
    store: c.store,
    writes: c.writes,
    instanceId: 'instance-a',
    leaseMs: LEASE,
    clock: c.clock,
    surface: 'chat',
    scope: c.scope,
    waits: [wait],
    carryOn: undefined,
    ...patch,
  }
}
const replayBook: ResumeOptions<undefined>['replay'] = () => ({ tool: book, extra: undefined })

describe('resumeCall', () => {
  it('takes back the copy parked here, holding its lock; a second request meanwhile is told someone answers it', async () => {
    const c = setupCopies()
    const { call } = await parkedCall(c, 'ada')
    const r = requests(c)
    const resumed = await resumeCall(r, 'call-ada', { replay: replayBook })
    expect(resumed).toMatchObject({ ok: true, replayed: false })
    expect(resumed.ok && resumed.call).toBe(call)
    expect(c.copies.isParked(call)).toBe(false)
    expect(await c.store.lockHolder('call-ada')).toMatchObject({ owner: 'instance-a' })
    expect(await resumeCall(r, 'call-ada', { replay: replayBook })).toMatchObject({
      ok: false,
      code: 'BUSY',
      message: expect.stringContaining('being answered by another request'),
    })
  })

  it('replays a call this process does not hold (another instance, or let go of): a new copy from the journal, no step run again', async () => {
    const a = setupCopies()
    await parkedCall(a, 'ada')
    const b = setupCopies({ store: a.store, instanceId: 'instance-b' })
    // A tool this instance does not serve cannot resume it here; its lock is given back.
    expect(await resumeCall(requests(b, { instanceId: 'instance-b' }), 'call-ada', { replay: () => undefined })).toMatchObject({ ok: false, code: 'REPLAY_FAILED' })
    expect(await a.store.lockHolder('call-ada')).toBeUndefined()
    const resumed = await resumeCall(requests(b, { instanceId: 'instance-b' }), 'call-ada', { replay: replayBook })
    expect(resumed).toMatchObject({ ok: true, replayed: true })
    expect(resumed.ok && resumed.call.host.pending()?.key).toBe('ok')
    expect(ran.filter((r) => r === 'reserve ada')).toHaveLength(1)
  })

  it('refuses a wrong token, another surface, and a call whose deadline passed (recorded as timed out, naming the option)', async () => {
    const c = setupCopies()
    await parkedCall(c, 'ada')
    const record = (await c.store.get('call-ada'))!
    await c.store.update({ ...record, tokenHash: 'x'.repeat(64), revision: record.revision })
    expect(await resumeCall(requests(c), 'call-ada', { replay: replayBook, token: 'nope' })).toMatchObject({ ok: false, code: 'WRONG_TOKEN' })
    expect(await resumeCall(requests(c, { surface: 'mcp' }), 'call-ada', { replay: replayBook, trusted: true })).toMatchObject({
      ok: false,
      code: 'NOT_FOUND',
      message: expect.stringContaining("belongs to this server's chat, not its MCP endpoint"),
    })
    await c.clock.advance(IDLE + 1)
    const late = await resumeCall(requests(c), 'call-ada', { replay: replayBook, trusted: true })
    expect(late).toMatchObject({ ok: false, code: 'FINISHED', how: 'it was aborted: no answer came within 60 s (limits.inputTimeoutMs)' })
    expect(await c.store.lockHolder('call-ada')).toBeUndefined()
  })

  it('a running call whose server stopped is handed to recovery, and the request told to try again', async () => {
    const a = setupCopies()
    const call = a.copies.run(
      { tool: book, params: { who: 'ada' }, callId: 'call-ada', client: 'c', extra: undefined },
      { tokenHash: undefined, revision: 0, segment: { kind: 'start' } },
    )
    await a.clock.advance(0)
    await call.writes
    expect(await a.store.get('call-ada')).toMatchObject({ status: 'running' })
    // The server stopped: its lock lapsed and nothing here holds the call.
    const b = setupCopies({ store: a.store, instanceId: 'instance-b' })
    await a.clock.advance(LEASE + 1)
    const carried: string[] = []
    const resumed = await resumeCall(requests(b, { instanceId: 'instance-b', carryOn: async (lease) => void carried.push(lease.callId) }), 'call-ada', { replay: replayBook })
    expect(resumed).toMatchObject({ ok: false, code: 'BUSY', retryAfterMs: 1000 })
    await b.clock.advance(0)
    expect(carried).toEqual(['call-ada'])
  })
})

describe('abortCall and evictCall', () => {
  it('aborts a waiting call directly in its record (no replay), listing the steps it had completed; evicting it then finds nothing waiting', async () => {
    const c = setupCopies()
    await parkedCall(c, 'ada')
    const aborted = await abortCall(requests(c), 'call-ada', undefined, 'the person cancelled', { trusted: true })
    expect(aborted).toEqual({ ok: true, wasRunning: false, toolName: 'book', completed: [{ name: 'reserve', result: 'F-ada' }] })
    expect(ran).toEqual(['reserve ada', 'finally ada'])
    expect(await c.store.get('call-ada')).toMatchObject({ status: 'aborted', outcome: { status: 'aborted', reason: 'the person cancelled' } })
    expect(await evictCall(requests(c), 'call-ada', 'room for another')).toBe(false)
  })

  it('evicts a waiting call to make room, recording why', async () => {
    const c = setupCopies()
    await parkedCall(c, 'ada')
    expect(await evictCall(requests(c), 'call-ada', 'another client needed the room')).toBe(true)
    expect(await c.store.get('call-ada')).toMatchObject({ outcome: { status: 'aborted', reason: 'another client needed the room' } })
  })

  it('refuses an abort without the running call’s token and from another signed-in user', async () => {
    const c = setupCopies()
    const call = c.copies.run(
      { tool: book, params: { who: 'ada' }, callId: 'call-ada', client: 'c', auth: { subject: 'ada', scopes: [] }, extra: undefined },
      { tokenHash: hashToken('the-token'), revision: 0, segment: { kind: 'start' } },
    )
    expect(await abortCall(requests(c), 'call-ada', 'wrong', 'stop', {})).toMatchObject({ ok: false, code: 'WRONG_TOKEN' })
    expect(await abortCall(requests(c), 'call-ada', 'the-token', 'stop', { caller: { subject: 'bob', scopes: [] } })).toMatchObject({ ok: false, code: 'FORBIDDEN' })
    expect(ran).not.toContain('finally ada') // neither stopped it
    expect((await abortCall(requests(c), 'call-ada', undefined, 'stop', { trusted: true })).ok).toBe(true)
    expect((await call.host.outcome).status).toBe('aborted')
  })
})
