/**
 * Why a request may not resume or abort a call (`checkRecord`, `held`), on their own: records
 * written by hand, a memory store on the test clock.
 */
import { describe, expect, it } from 'vitest'
import { hashToken } from '../../src/calls/call-record.ts'
import { checkRecord, held } from '../../src/calls/call-refusals.ts'
import type { CallRecord } from '../../src/calls/stores/call-store.ts'
import { createMemoryStore } from '../../src/calls/stores/memory-store.ts'
import { createTestClock } from '../../src/testing.ts'

const T0 = Date.UTC(2026, 0, 1)
const waiting = (patch: Partial<CallRecord> = {}): CallRecord => ({
  callId: 'c1',
  surface: 'chat',
  tool: 'book',
  params: {},
  paramsDigest: 'd',
  client: 'a',
  status: 'waiting',
  journal: [],
  owner: 'x',
  revision: 3,
  createdAt: T0,
  updatedAt: T0,
  expiresAt: T0 + 60_000,
  tokenHash: hashToken('secret'),
  ...patch,
})

describe('checkRecord', () => {
  it('lets the right token, caller and revision through, on the same surface', () => {
    expect(checkRecord('c1', waiting(), { token: 'secret', revision: 3 }, 'chat')).toBeUndefined()
  })

  it.each([
    ['no record', undefined, { token: 'secret' }, 'NOT_FOUND', /no longer known/],
    ['a wrong token', waiting(), { token: 'guess' }, 'WRONG_TOKEN', /does not carry the token of tool call c1; nothing was changed/],
    [
      "another user's call",
      waiting({ auth: { subject: 'ada', scopes: [] } }),
      { token: 'secret', caller: { subject: 'bob', scopes: [] } },
      'FORBIDDEN',
      /belongs to another signed-in user/,
    ],
    [
      "another surface's call",
      waiting({ surface: 'mcp', tokenHash: undefined }),
      {},
      'NOT_FOUND',
      /belongs to this server's MCP endpoint, not its chat; answer or cancel it there/,
    ],
    ['a finished call', waiting({ outcome: { status: 'completed', result: 1 } }), { token: 'secret' }, 'FINISHED', /already finished: it completed/],
    ['a running call', waiting({ status: 'running' }), { token: 'secret' }, 'BUSY', /is running, not waiting for an answer/],
    ['a stale revision', waiting(), { token: 'secret', revision: 2 }, 'STALE', /has moved on since/],
  ] as const)('refuses %s', (_what, record, options, code, message) => {
    expect(checkRecord('c1', record, options as Parameters<typeof checkRecord>[2], 'chat')).toMatchObject({ ok: false, code, message: expect.stringMatching(message) })
  })

  it('trusted (the dev panel) skips the token and the caller, never the surface', () => {
    expect(checkRecord('c1', waiting({ auth: { subject: 'ada', scopes: [] } }), { trusted: true }, 'chat')).toBeUndefined()
    expect(checkRecord('c1', waiting({ surface: 'ai-sdk' }), { trusted: true }, 'chat')).toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('held', () => {
  it('says who holds the call and when its hold lapses at the latest, or that a request here is answering it', async () => {
    const clock = createTestClock()
    const store = createMemoryStore({ clock })
    await store.lock('c1', 'instance-b', 8_000)
    expect(await held(store, 'c1', 'instance-a', () => false)).toMatchObject({
      code: 'BUSY',
      retryAfterMs: 8_000,
      message: expect.stringMatching(/held by another server.*lapses within 8 s at the latest/),
    })
    await store.lock('c2', 'instance-a', 8_000)
    expect(await held(store, 'c2', 'instance-a', () => true)).toMatchObject({ code: 'BUSY', message: expect.stringMatching(/being answered by another request right now/) })
    expect(await held(store, 'c3', 'instance-a', () => false)).toMatchObject({ code: 'BUSY', message: expect.stringMatching(/was busy a moment ago/) })
  })
})
