/**
 * The dev panel's view of a registry's calls (`ActivityLog`), on its own: no registry, no server.
 */
import { describe, expect, it } from 'vitest'
import { ActivityLog } from '../../src/calls/call-activity.ts'
import { createTestClock } from '../../src/testing.ts'

describe('ActivityLog', () => {
  it('lists live calls first (as this process holds them), then those that ended, the latest first', () => {
    const log = new ActivityLog(10, createTestClock())
    log.timelineOf('a', 'book', { conversation: 'c1' }).note('started', 'started')
    log.timelineOf('b', 'report', undefined).note('started', 'started')
    log.timelineOf('c', 'book', undefined).note('ended', 'completed')
    log.ended('c')
    log.timelineOf('d', 'book', undefined).note('ended', 'aborted: cancelled')
    log.ended('d')
    const held = (id: string) => (id === 'a' ? { status: 'waiting', pending: undefined } : undefined)
    const listed = log.list(held)
    expect(listed.map((c) => [c.callId, c.status, c.live])).toEqual([
      ['a', 'waiting', true],
      ['b', 'waiting (in the store)', false], // not held here, not ended: it waits in the store
      ['d', 'aborted', false],
      ['c', 'completed', false],
    ])
    expect(listed[0]).toMatchObject({ tool: 'book', origin: { conversation: 'c1' }, timeline: [{ kind: 'started', text: 'started' }] })
  })

  it('keeps the last `keep` ended calls, forgetting the oldest with its origin', () => {
    const log = new ActivityLog(2, createTestClock())
    for (const id of ['a', 'b', 'c']) {
      log.timelineOf(id, 'tool', { conversation: id })
      log.ended(id)
    }
    expect(log.list(() => undefined).map((c) => c.callId)).toEqual(['c', 'b'])
    expect(log.get('a')).toBeUndefined()
  })

  it('a call that ended here and goes on again (another instance moved it) is live again, in the same timeline', () => {
    const clock = createTestClock()
    const log = new ActivityLog(5, clock)
    log.timelineOf('a', 'tool', undefined).note('ended', 'completed')
    log.ended('a')
    const again = log.timelineOf('a', 'tool', undefined)
    again.note('resumed', 'an answer came')
    const [one] = log.list((id) => (id === 'a' ? { status: 'running', pending: undefined } : undefined))
    expect(one).toMatchObject({ callId: 'a', status: 'running', live: true })
    expect(one!.timeline.map((e) => e.kind)).toEqual(['ended', 'resumed'])
    // Ending a call nobody followed changes nothing.
    log.ended('unknown')
    expect(log.list(() => undefined)).toHaveLength(1)
  })
})
