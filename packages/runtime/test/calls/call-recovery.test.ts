/**
 * Carrying on a call whose server stopped, on its own (`CallRecovery`): one instance wins its
 * lock, its journal is replayed (no step runs again) and its surface's plan drives it; another
 * surface's call or a tool not served here is left with its lock given back; a plan that fails
 * is logged with the call's id and the copy stopped.
 */
import { describe, expect, it } from 'vitest'
import { CallRecovery } from '../../src/calls/call-recovery.ts'
import type { RecoveryPlan } from '../../src/calls/registry-types.ts'
import type { CallRecord } from '../../src/calls/stores/call-store.ts'
import { book, LEASE, ran, runToQuestion, setupCopies, spec, type Copies } from './support/copies-fixture.ts'

/** A call started on instance A whose server then stopped: its record running, its lock lapsed. */
async function strandedOnA() {
  const a = setupCopies()
  const call = a.copies.run(spec('ada'), { tokenHash: undefined, revision: 0, segment: { kind: 'start' } })
  await call.writes
  const b = setupCopies({ store: a.store, instanceId: 'instance-b' })
  await a.clock.advance(LEASE + 1)
  await b.clock.advance(LEASE + 1)
  return { a, b }
}

function recovery(c: Copies, plan: (record: CallRecord) => RecoveryPlan<undefined> | undefined, surface: 'chat' | 'mcp' = 'chat') {
  return new CallRecovery<undefined>({ copies: c.copies, store: c.store, instanceId: 'instance-b', leaseMs: LEASE, surface, log: c.log, plan })
}
const driveToQuestion =
  (c: Copies): RecoveryPlan<undefined>['drive'] =>
  async (call) =>
    void (await runToQuestion(c, call))

describe('CallRecovery', () => {
  it("replays a stranded call's journal here and drives it to its question; the step it had done is not done again", async () => {
    const { b } = await strandedOnA()
    expect(await b.store.get('call-ada')).toMatchObject({ status: 'running', owner: 'instance-a' })
    await recovery(b, () => ({ spec: { tool: book, extra: undefined }, drive: driveToQuestion(b) })).recoverOne('call-ada')
    expect(await b.store.get('call-ada')).toMatchObject({ status: 'waiting', owner: 'instance-b', pending: { key: 'ok' } })
    expect(ran.filter((r) => r === 'reserve ada')).toHaveLength(1)
    expect(b.log.lines).toContainEqual(expect.objectContaining({ level: 'info', fields: expect.objectContaining({ callId: 'call-ada', stoppedServer: 'instance-a' }) }))
  })

  it("leaves another surface's call, and a tool not served here, untouched with its lock given back", async () => {
    const { b } = await strandedOnA()
    const before = await b.store.get('call-ada')
    await recovery(b, () => ({ spec: { tool: book, extra: undefined }, drive: driveToQuestion(b) }), 'mcp').recoverOne('call-ada')
    await recovery(b, () => undefined).recoverOne('call-ada')
    expect(await b.store.get('call-ada')).toEqual(before)
    expect(await b.store.lockHolder('call-ada')).toBeUndefined()
    expect(b.copies.size).toBe(0)
  })

  it("a plan that fails is logged with the call's id and its copy stopped", async () => {
    const { b } = await strandedOnA()
    const r = recovery(b, () => ({
      spec: { tool: book, extra: undefined },
      drive: () => Promise.reject(new Error('the model went away')),
    }))
    await r.recoverOne('call-ada')
    expect(r.busy).toBe(0)
    expect(b.log.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        fields: expect.objectContaining({ callId: 'call-ada' }),
        message: expect.stringContaining('could not be carried on: the model went away'),
      }),
    )
    expect(ran).toContain('finally ada')
  })

  it('does nothing when another instance holds the lock (it recovers the call)', async () => {
    const { b } = await strandedOnA()
    await b.store.lock('call-ada', 'instance-c', LEASE)
    let planned = 0
    await recovery(b, () => (planned++, undefined)).recoverOne('call-ada')
    expect(planned).toBe(0)
    expect(await b.store.lockHolder('call-ada')).toMatchObject({ owner: 'instance-c' })
  })
})
