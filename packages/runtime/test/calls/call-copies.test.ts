/**
 * The copies a registry holds, on their own (`CallCopies`): parked on their questions, let go of
 * from memory past `warmCalls`, timed out, stopped, and their ends written — a memory store on the
 * test clock, no registry, no server.
 */
import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src/calls/stores/memory-store.ts'
import { StoreUnavailableError } from '../../src/errors/store-errors.ts'
import { createTestClock } from '../../src/testing.ts'
import { book, IDLE, parkedCall, ran, runToQuestion, setupCopies } from './support/copies-fixture.ts'

describe('CallCopies', () => {
  it('parks a call on its question: the record waits with the question, the lock is free, and the copy is listed with what it waits for', async () => {
    const c = setupCopies()
    const { call, question } = await parkedCall(c, 'ada')
    expect(c.copies.isParked(call)).toBe(true)
    expect(await c.store.get('call-ada')).toMatchObject({ status: 'waiting', pending: question, revision: 2, answerBy: c.clock.now() + IDLE })
    expect(await c.store.lockHolder('call-ada')).toBeUndefined()
    expect(c.copies.list()).toEqual([expect.objectContaining({ callId: 'call-ada', toolName: 'book', pendingKey: 'ok' })])
    expect(ran).toEqual(['reserve ada'])
  })

  it('keeps only the warmCalls most recently parked in memory: the longest-waiting is let go of (its finally runs, its record still waits), a pinned one never', async () => {
    const c = setupCopies({ warmCalls: 2 })
    const pinned = await parkedCall(c, 'pin', { pinned: true })
    const first = await parkedCall(c, 'ada')
    await c.clock.advance(1)
    await parkedCall(c, 'bob')
    expect(c.copies.get('call-ada')).toBeUndefined()
    expect(first.call.superseded).toBe(true)
    expect(ran).toContain('finally ada')
    expect(await c.store.get('call-ada')).toMatchObject({ status: 'waiting', revision: 2 })
    expect(c.copies.get('call-pin')).toBe(pinned.call)
    expect(c.copies.get('call-bob')).toBeDefined()
  })

  it('ends a call nobody answered within its wait, saying which option set it, and records it aborted', async () => {
    const c = setupCopies()
    const { call } = await parkedCall(c, 'ada')
    await c.clock.advance(IDLE + 1)
    await call.host.outcome
    await call.writes
    expect(await c.store.get('call-ada')).toMatchObject({ status: 'aborted', outcome: { status: 'aborted', reason: 'no answer came within 60 s (limits.inputTimeoutMs)' } })
    expect(c.copies.size).toBe(0)
  })

  it('a question the store did not take is never asked: the call ends and park throws StoreUnavailableError', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    const c = setupCopies({ store: { ...store, kind: store.kind, update: () => Promise.reject(new Error('connection reset')) } })
    const call = c.copies.run(
      { tool: book, params: { who: 'ada' }, callId: 'call-ada', client: 'c', extra: undefined },
      { tokenHash: undefined, revision: 0, segment: { kind: 'start' } },
    )
    await expect(runToQuestion(c, call)).rejects.toBeInstanceOf(StoreUnavailableError)
    expect((await call.host.outcome).status).toBe('aborted')
    expect(c.copies.size).toBe(0)
  })

  it("a call's end the store did not take is logged with the call's id (not swallowed)", async () => {
    const c = setupCopies()
    const { call } = await parkedCall(c, 'ada')
    c.store.update = () => Promise.reject(new Error('connection reset'))
    await c.clock.advance(IDLE + 1)
    await call.writes
    expect(c.log.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        fields: expect.objectContaining({ callId: 'call-ada' }),
        message: expect.stringContaining('its end (aborted) could not be recorded: connection reset'),
      }),
    )
  })

  it('stopAll stops every copy and records nothing: a waiting call still waits in the store for the next process', async () => {
    const c = setupCopies()
    await parkedCall(c, 'ada')
    await c.copies.stopAll('the server closed')
    expect(ran).toContain('finally ada')
    expect(await c.store.get('call-ada')).toMatchObject({ status: 'waiting', revision: 2 })
  })
})
