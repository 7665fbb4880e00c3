/**
 * One contract, every store: the same suite runs against the memory store, a real SQLite file, a
 * real redis-server (single and Cluster), a real PostgreSQL server and an embedded PGlite, so the
 * registry can rely on the same rules whichever is configured.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type CallRecord, type CallStore, createMemoryStore, createPostgresStore, createRedisStore, createSqliteStore } from '../../src/server.ts'
import { type Admission, clientShare } from '../../src/calls/stores/call-store.ts'
import { createTestClock } from '../../src/testing.ts'
import { type RedisProcess, startRedis } from '../support/redis-server.ts'
import { type RedisCluster, startRedisCluster } from '../support/redis-cluster.ts'
import { type PostgresProcess, startPostgres } from '../support/postgres-server.ts'
import { Redis } from 'ioredis'
import { PUT_CALL } from '../../src/calls/stores/redis-scripts.ts'

let redis: RedisProcess
let cluster: RedisCluster
let postgres: PostgresProcess | undefined
const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-store-'))
beforeAll(async () => {
  ;[redis, cluster, postgres] = await Promise.all([startRedis(), startRedisCluster(3), process.env.MCP_BRIDGE_NODE_ONLY === '1' ? undefined : startPostgres()])
}, 90_000)
afterAll(async () => {
  await redis?.stop()
  await cluster?.stop()
  await postgres?.stop()
  rmSync(dir, { recursive: true, force: true })
})

let n = 0
/**
 * Each store with a way to let time pass. Memory and SQLite measure expiry and leases with the
 * clock they are given, so time passes virtually; Redis keeps time itself (PX, PEXPIREAT: its own
 * clock is what instances agree on), so for Redis alone the same test waits in wall time.
 */
const factories: Record<string, () => Promise<{ store: CallStore; now: () => number; pass: (ms: number) => Promise<void> }>> = {
  memory: async () => {
    const clock = createTestClock()
    return { store: createMemoryStore({ clock }), now: clock.now, pass: clock.advance }
  },
  sqlite: async () => {
    const clock = createTestClock()
    return { store: await createSqliteStore({ path: join(dir, `calls-${++n}.db`), clock }), now: clock.now, pass: clock.advance }
  },
  redis: async () => ({
    store: await createRedisStore({ url: redis.url, keyPrefix: `test-${++n}:` }),
    now: () => Date.now(),
    pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
  // A schema of its own for each: the store creates its tables there.
  postgres: async () => {
    const clock = createTestClock()
    return { store: await createPostgresStore({ connectionString: postgres!.url, schema: `test_${++n}`, clock }), now: clock.now, pass: clock.advance }
  },
  pglite: async () => {
    const clock = createTestClock()
    return { store: await createPostgresStore({ pglite: 'memory://', clock }), now: clock.now, pass: clock.advance }
  },
  // Three real nodes: a call's keys and the indexes land on different nodes, so a script that
  // touched keys of two slots would be refused (CROSSSLOT) here.
  'redis cluster': async () => ({
    store: await createRedisStore({ url: cluster.urls, keyPrefix: `test-${++n}:` }),
    now: () => Date.now(),
    pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }),
}

let now = () => Date.now()

function record(callId: string, patch: Partial<CallRecord> = {}): CallRecord {
  const at = now()
  return {
    callId,
    surface: 'chat',
    tool: 'book_flight',
    params: { from: 'OSL' },
    paramsDigest: 'd',
    client: '127.0.0.1',
    status: 'waiting',
    journal: [{ kind: 'step', name: 'charge', seq: 1, value: { id: 'ch_1' } }],
    pending: { id: `${callId}#1`, key: 'pickSeat', wire: { message: 'Pick a seat' } },
    tokenHash: 'h',
    owner: 'instance-a',
    revision: 1,
    createdAt: at,
    updatedAt: at,
    expiresAt: at + 60_000,
    ...patch,
  }
}

/** Postgres's driver and PGlite do not depend on the Node major: on CI's later runs (MCP_BRIDGE_NODE_ONLY) they are left out. */
const kinds = Object.keys(factories).filter((kind) => process.env.MCP_BRIDGE_NODE_ONLY !== '1' || !['postgres', 'pglite'].includes(kind))

describe.each(kinds)('call store contract: %s', (kind) => {
  let store: CallStore
  let pass: (ms: number) => Promise<void>
  beforeAll(async () => {
    const made = await factories[kind]!()
    store = made.store
    pass = made.pass
    now = made.now
  })
  afterAll(async () => {
    await store.close()
  })

  it('creates once, reads back what was written, and reads a copy', async () => {
    const r = record('c1')
    expect(await store.create(r)).toBe(true)
    expect(await store.create(record('c1', { tool: 'other' }))).toBe(false)
    const read = await store.get('c1')
    expect(read).toEqual(r)
    read!.journal.push({ kind: 'step', name: 'x', seq: 2 })
    expect((await store.get('c1'))!.journal).toHaveLength(1)
    expect(await store.get('nope')).toBeUndefined()
  })

  it('updates only on top of the revision it read', async () => {
    await store.create(record('c2'))
    expect(await store.update(record('c2', { revision: 2, status: 'running' }))).toBe(true)
    // A writer that read revision 1 is too late now.
    expect(await store.update(record('c2', { revision: 2, status: 'completed' }))).toBe(false)
    expect(await store.update(record('c2', { revision: 5 }))).toBe(false)
    expect((await store.get('c2'))!).toMatchObject({ revision: 2, status: 'running' })
    expect(await store.update(record('never-created', { revision: 2 }))).toBe(false)
  })

  it('forgets a record when it expires, and lets a new call take the id', async () => {
    await store.create(record('c3', { expiresAt: now() + 150 }))
    expect(await store.get('c3')).toBeDefined()
    await pass(300)
    expect(await store.get('c3')).toBeUndefined()
    expect(await store.update(record('c3', { revision: 2 }))).toBe(false)
    expect(await store.create(record('c3'))).toBe(true)
  })

  it('locks: one holder at a time, fences grow, a stale holder can neither renew nor unlock', async () => {
    const a = await store.lock('c4', 'a', 10_000)
    expect(a).toMatchObject({ callId: 'c4', owner: 'a' })
    expect(await store.lock('c4', 'b', 10_000)).toBeUndefined()
    expect(await store.renew(a!, 10_000)).toBe(true)
    await store.unlock(a!)
    const b = await store.lock('c4', 'b', 150)
    expect(b!.fence).toBeGreaterThan(a!.fence)
    expect(await store.renew(a!, 10_000)).toBe(false)
    await store.unlock(a!) // not a's lock any more: left alone
    expect(await store.lock('c4', 'c', 10_000)).toBeUndefined()
    await pass(300)
    // b's lease ran out: c may take it, and b can no longer renew.
    const c = await store.lock('c4', 'c', 10_000)
    expect(c!.fence).toBeGreaterThan(b!.fence)
    expect(await store.renew(b!, 10_000)).toBe(false)
    await store.unlock(c!)
  })

  it("names a lock's holder and what is left of its hold; nobody once it is released or lapsed", async () => {
    expect(await store.lockHolder('h1')).toBeUndefined()
    const lease = await store.lock('h1', 'instance-a', 10_000)
    const holder = await store.lockHolder('h1')
    expect(holder).toMatchObject({ owner: 'instance-a' })
    expect(holder!.expiresInMs).toBeGreaterThan(9_000)
    expect(holder!.expiresInMs).toBeLessThanOrEqual(10_000)
    await store.unlock(lease!)
    expect(await store.lockHolder('h1')).toBeUndefined()
    await store.lock('h1', 'instance b with spaces', 150)
    expect((await store.lockHolder('h1'))?.owner).toBe('instance b with spaces')
    await pass(300)
    expect(await store.lockHolder('h1')).toBeUndefined()
  })

  it('finds running calls nobody holds the lock of, and only those', async () => {
    // Each store keeps its own records: ids unique to this test.
    await store.create(record('s-run-held', { status: 'running' }))
    await store.create(record('s-run-free', { status: 'running' }))
    await store.create(record('s-wait'))
    await store.create(record('s-run-short', { status: 'running', expiresAt: now() + 150 }))
    await store.create(record('s-run-done', { status: 'running' }))
    await store.update(record('s-run-done', { status: 'completed', revision: 2, outcome: { status: 'completed', result: 1 } }))
    const held = await store.lock('s-run-held', 'instance-a', 10_000)
    await pass(300) // s-run-short's record expired: it is not anyone's to recover
    expect((await store.stranded(100, 'chat')).filter((id) => id.startsWith('s-')).sort()).toEqual(['s-run-free'])
    // The holder stopped renewing: once its hold lapses, the call is stranded too.
    await store.unlock(held!)
    const lapsing = await store.lock('s-run-held', 'instance-a', 150)
    expect(await store.stranded(100, 'chat')).not.toContain('s-run-held')
    await pass(300)
    expect((await store.stranded(100, 'chat')).filter((id) => id.startsWith('s-')).sort()).toEqual(['s-run-free', 's-run-held'])
    expect(lapsing).toBeDefined()
    // Waiting again: out of the index.
    await store.update(record('s-run-free', { revision: 2 }))
    expect(await store.stranded(100, 'chat')).not.toContain('s-run-free')
    expect(await store.stranded(1, 'chat')).toHaveLength(1)
  })

  it("lists a surface's stranded calls only to that surface (another surface sharing the store never takes them)", async () => {
    await store.create(record('v-chat', { status: 'running' }))
    await store.create(record('v-mcp', { status: 'running', surface: 'mcp' }))
    await store.create(record('v-ai', { status: 'running', surface: 'ai-sdk' }))
    const mine = async (surface: CallRecord['surface']) => (await store.stranded(100, surface)).filter((id) => id.startsWith('v-'))
    expect(await mine('chat')).toEqual(['v-chat'])
    expect(await mine('mcp')).toEqual(['v-mcp'])
    expect(await mine('ai-sdk')).toEqual(['v-ai'])
    // Another surface's calls do not use up the limit: the first of this surface's is found.
    await store.update(record('v-chat', { status: 'completed', revision: 2, outcome: { status: 'completed', result: 1 } }))
    expect((await store.stranded(1, 'ai-sdk')).filter((id) => id.startsWith('v-'))).toEqual(['v-ai'])
  })

  describe('held calls (admission)', () => {
    const roomy = { perClient: 1_000, total: 1_000_000 }
    const claim = (callId: string, client: string, ms = 60_000) => ({ callId, client, until: now() + ms })
    /** How many calls the store counts as held in all (a total of 0 refuses and says). */
    const total = async () => {
      const refused = await store.admit(claim('probe', 'probe'), { perClient: 1_000, total: 0 })
      return refused.admitted ? Number.NaN : refused.held
    }

    it("admits a client's calls up to its limit, counts each once, and stops counting released, finished and expired ones", async () => {
      const limits = { perClient: 2, total: 1_000_000 }
      expect(await store.admit(claim('h-a1', 'h-alice'), limits)).toEqual({ admitted: true })
      expect(await store.admit(claim('h-a2', 'h-alice'), limits)).toEqual({ admitted: true })
      expect(await store.admit(claim('h-a1', 'h-alice'), limits)).toEqual({ admitted: true }) // already counted
      expect(await store.admit(claim('h-a3', 'h-alice'), limits)).toMatchObject({ admitted: false, full: 'client', held: 2, share: 2 })
      expect(await store.admit(claim('h-b1', 'h-bob'), limits)).toEqual({ admitted: true }) // another client's share
      await store.release({ callId: 'h-a1', client: 'h-alice' })
      expect(await store.admit(claim('h-a3', 'h-alice'), limits)).toEqual({ admitted: true })
      // Records keep the count: a finished call is not held, a waiting one is, until its answer deadline.
      await store.create(record('h-a2', { client: 'h-alice', status: 'completed', outcome: { status: 'completed', result: 1 } }))
      expect(await store.admit(claim('h-a4', 'h-alice'), limits)).toEqual({ admitted: true })
      expect(await store.admit(claim('h-a5', 'h-alice'), limits)).toMatchObject({ admitted: false, full: 'client' })
      await store.create(record('h-a3', { client: 'h-alice', status: 'waiting', answerBy: now() + 150 }))
      await pass(300)
      expect(await store.admit(claim('h-a5', 'h-alice'), limits)).toEqual({ admitted: true })
      // A claim that lapsed (its call never wrote a record) is not counted either.
      await store.admit(claim('h-c1', 'h-carol', 150), limits)
      await store.admit(claim('h-c2', 'h-carol', 150), limits)
      await pass(300)
      expect(await store.admit(claim('h-c3', 'h-carol'), limits)).toEqual({ admitted: true })
    })

    it('refuses past the total, naming each client holding calls, how many and its call held longest', async () => {
      const base = await total()
      await store.admit(claim('t-m1', 't-mallory', 10_000), roomy)
      await store.admit(claim('t-m2', 't-mallory', 20_000), roomy)
      await store.admit(claim('t-m3', 't-mallory', 30_000), roomy)
      await store.admit(claim('t-a1', 't-alice', 5_000), roomy)
      expect(await total()).toBe(base + 4)
      const limits = { perClient: 1_000, total: base + 4 }
      const refused = await store.admit(claim('t-b1', 't-bob'), limits)
      expect(refused).toMatchObject({ admitted: false, full: 'total', held: base + 4, clientHeld: 0 })
      if (refused.admitted || !refused.holders) throw new Error('expected the holders')
      // Earlier tests' calls share the store; only this test's are compared.
      const mine = refused.holders.filter((h) => h.client.startsWith('t-')).sort((a, b) => a.client.localeCompare(b.client))
      expect(mine.map(({ client, held, oldest }) => ({ client, held, oldest }))).toEqual([
        { client: 't-alice', held: 1, oldest: 't-a1' },
        { client: 't-mallory', held: 3, oldest: 't-m1' },
      ])
      const mallory = mine[1]!
      expect(mallory.until).toBeGreaterThan(now() + 9_000)
      expect(mallory.until).toBeLessThan(mine[0]!.until + 6_000)
      await store.release({ callId: 't-m1', client: 't-mallory' })
      expect(await store.admit(claim('t-b1', 't-bob'), limits)).toEqual({ admitted: true })
    })

    it("past half full a client's share shrinks with the room left: a new client gets fewer than maxCallsPerClient, an ordinary one still gets in", async () => {
      const base = await total()
      const limits = { perClient: 8, total: base + 24 }
      for (let c = 0; c < 4; c++) for (let i = 0; i < 4; i++) expect(await store.admit(claim(`f-${c}-${i}`, `f-client-${c}`), limits)).toEqual({ admitted: true })
      let taken = 0
      let refused: Admission = { admitted: true }
      while (refused.admitted && taken < 10) {
        refused = await store.admit(claim(`f-new-${taken}`, 'f-newcomer'), limits)
        if (refused.admitted) taken++
      }
      if (refused.admitted) throw new Error('expected a refusal')
      expect(refused).toMatchObject({ full: 'client', held: taken, all: base + 16 + taken })
      expect(refused.share).toBe(clientShare(base + 16 + taken, limits))
      expect(taken).toBeLessThan(limits.perClient)
      expect(taken).toBeGreaterThanOrEqual(2)
      expect(await store.admit(claim('f-ordinary', 'f-ordinary-client'), limits)).toEqual({ admitted: true })
    })

    it('of twenty concurrent admissions of one client exactly its limit gets in', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.admit(claim(`r-${i}`, 'r-racer'), { perClient: 5, total: 1_000_000 })))
      expect(results.filter((r) => r.admitted)).toHaveLength(5)
    })
  })

  it('keeps one shared secret: 32 random bytes, made by the first to ask, the same for every asker at once and after', async () => {
    const all = await Promise.all(Array.from({ length: 8 }, () => store.sharedSecret()))
    expect(all[0]).toBeInstanceOf(Uint8Array)
    expect(all[0]!.byteLength).toBe(32)
    for (const secret of all) expect(Buffer.from(secret).equals(Buffer.from(all[0]!))).toBe(true)
    expect(Buffer.from(await store.sharedSecret()).equals(Buffer.from(all[0]!))).toBe(true)
    // A copy: changing it changes nothing kept.
    all[0]!.fill(0)
    expect(Buffer.from(await store.sharedSecret()).equals(Buffer.alloc(32))).toBe(false)
  })

  it('admitting a call already counted extends its hold (a claim renewed while its call runs unrecorded), never shortens it', async () => {
    const bounds = { perClient: 1, total: 100 }
    const at = now()
    expect(await store.admit({ callId: 'renew-1', client: 'renewer', until: at + 3_000 }, bounds)).toEqual({ admitted: true })
    expect(await store.admit({ callId: 'renew-1', client: 'renewer', until: at + 60_000 }, bounds)).toEqual({ admitted: true })
    expect(await store.admit({ callId: 'renew-1', client: 'renewer', until: at + 1_000 }, bounds)).toEqual({ admitted: true })
    await pass(3_500) // past the first claim: the renewed one still counts
    expect(await store.admit({ callId: 'renew-2', client: 'renewer', until: now() + 60_000 }, bounds)).toMatchObject({ admitted: false, full: 'client' })
    await store.release({ callId: 'renew-1', client: 'renewer' })
  })

  it('of two concurrent lockers exactly one wins', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.lock('c5', `o${i}`, 10_000)))
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it('keeps conversations with the same revision rule', async () => {
    const at = now()
    const conversation = { id: 'v1', secretHash: 's', state: { messages: [{ role: 'user', text: 'hi' }] }, revision: 1, updatedAt: at, expiresAt: at + 60_000 }
    expect(await store.putConversation(conversation)).toBe(true)
    expect(await store.putConversation(conversation)).toBe(false)
    expect(await store.putConversation({ ...conversation, revision: 2, state: { messages: [] } })).toBe(true)
    expect(await store.getConversation('v1')).toMatchObject({ revision: 2, state: { messages: [] } })
    expect(await store.getConversation('v2')).toBeUndefined()
  })

  it('appends to a conversation on top of the revision read: entries in order, the head alone readable, a conflict or another owner refused', async () => {
    const at = now()
    const append = (ifRevision: number, entries: unknown[], extra: { secretHash?: string; meta?: unknown } = {}) =>
      store.appendConversation({ id: 'log1', secretHash: 's', meta: { n: ifRevision }, entries, updatedAt: at, expiresAt: at + 60_000, ifRevision, ...extra })
    expect(await append(1, [{ a: 1 }])).toBeUndefined() // nothing to append on yet
    const first = await append(0, [{ a: 1 }, { b: 2 }])
    expect(first).toMatchObject({ id: 'log1', revision: 1, meta: { n: 0 }, logLength: 2, logBytes: '{"a":1}{"b":2}'.length })
    expect(await append(0, [{ c: 3 }])).toBeUndefined() // begun already
    expect(await append(1, [{ c: 3 }], { secretHash: 'other' })).toBeUndefined() // another owner
    expect(await append(1, [])).toMatchObject({ revision: 2, logLength: 2 }) // meta only
    expect(await append(2, [{ c: 3 }])).toMatchObject({ revision: 3, logLength: 3, meta: { n: 2 } })
    const head = await store.getConversationHead('log1')
    expect(head).toEqual({ id: 'log1', secretHash: 's', revision: 3, updatedAt: at, expiresAt: at + 60_000, meta: { n: 2 }, logLength: 3, logBytes: 21 })
    expect(head).not.toHaveProperty('log')
    expect(await store.getConversation('log1')).toMatchObject({ revision: 3, state: undefined, log: [{ a: 1 }, { b: 2 }, { c: 3 }] })
    // Of ten appends on one revision, one is taken.
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => append(3, [{ i }])))
    expect(racing.filter(Boolean)).toHaveLength(1)
    // Written whole: the state replaces the log, which starts again.
    expect(await store.putConversation({ id: 'log1', secretHash: 's', state: { folded: true }, meta: { n: 'put' }, revision: 5, updatedAt: at, expiresAt: at + 60_000 })).toBe(true)
    expect(await store.getConversation('log1')).toMatchObject({ revision: 5, state: { folded: true }, meta: { n: 'put' }, log: [], logLength: 0, logBytes: 0 })
    expect(await append(5, [{ d: 4 }])).toMatchObject({ revision: 6, logLength: 1 })
    expect(await store.getConversation('log1')).toMatchObject({ state: { folded: true }, log: [{ d: 4 }] })
    expect(await store.getConversationHead('nobody')).toBeUndefined()
  })

  it('an expired conversation is gone, its log with it: its id begins anew', async () => {
    const at = now()
    await store.appendConversation({ id: 'log2', secretHash: 's', meta: {}, entries: [{ old: true }], updatedAt: at, expiresAt: at + 1_000, ifRevision: 0 })
    await pass(1_200)
    expect(await store.getConversationHead('log2')).toBeUndefined()
    const later = now()
    expect(
      await store.appendConversation({ id: 'log2', secretHash: 'new', meta: {}, entries: [{ fresh: true }], updatedAt: later, expiresAt: later + 60_000, ifRevision: 0 }),
    ).toMatchObject({ revision: 1, logLength: 1 })
    expect(await store.getConversation('log2')).toMatchObject({ secretHash: 'new', log: [{ fresh: true }] })
  })
})

describe('store options and failures', () => {
  it('names the option that is wrong', async () => {
    await expect(createSqliteStore({ path: '' })).rejects.toThrow(/path: .*give the database file/)
    await expect(createSqliteStore({ path: 'x.db', tablePrefix: 'a;drop' })).rejects.toThrow(/tablePrefix/)
    await expect(createSqliteStore({ path: 'x.db', wal: true } as never)).rejects.toThrow(/wal/)
    await expect(createRedisStore({ url: 'localhost:6379' })).rejects.toThrow(/url: a redis:\/\/ or rediss:\/\/ URL/)
    expect(() => createMemoryStore({ maxConversations: 0 })).toThrow(/maxConversations/)
    expect(() => createMemoryStore({ clock: { now: () => 0 } as never })).toThrow(/clock: takes a clock: an object with now\(\) and sleep\(ms\)/)
    await expect(createSqliteStore({ path: 'x.db', clock: Date as never })).rejects.toThrow(/clock: takes a clock/)
  })

  it('the memory store keeps at most maxConversations, forgetting the least recently saved', async () => {
    const store = createMemoryStore({ maxConversations: 2 })
    const now = Date.now()
    const save = (id: string, revision = 1) => store.putConversation({ id, secretHash: 's', state: {}, revision, updatedAt: now, expiresAt: now + 60_000 })
    await save('a')
    await save('b')
    await save('a', 2) // a is now the most recent
    await save('c')
    expect([await store.getConversation('a'), await store.getConversation('b'), await store.getConversation('c')].map((c) => c?.revision)).toEqual([2, undefined, 1])
  })

  it('a Redis without an append-only file is named once, at connect, with how to fix it; a Redis that refuses CONFIG is taken at its word', async () => {
    const warnings: string[] = []
    const volatile = await startRedis(['--appendonly', 'no'])
    try {
      const store = await createRedisStore({ url: volatile.url, onWarning: (m) => warnings.push(m) })
      await store.get('x')
      await vi.waitFor(() => expect(warnings).toHaveLength(1), { timeout: 10_000 })
      expect(warnings[0]).toMatch(
        /^createRedisStore: this Redis keeps no append-only file \(appendonly no\), so a restart of Redis loses every waiting call\. Turn it on: start redis-server with --appendonly yes/,
      )
      await store.close()
    } finally {
      await volatile.stop()
    }
    const managed = await startRedis(['--appendonly', 'no', '--rename-command', 'CONFIG', '""'])
    const quiet: string[] = []
    try {
      const store = await createRedisStore({ url: managed.url, onWarning: (m) => quiet.push(m) })
      expect(await store.create(record('m1'))).toBe(true)
      // Round trips on the same connection after the check's own commands: it has had its answers.
      for (const id of ['a', 'b', 'c']) await store.get(id)
      await store.close()
      expect(quiet).toEqual([])
    } finally {
      await managed.stop()
    }
    // The suite's own Redis persists as the README asks: no warning.
    const persistent: string[] = []
    const store = await createRedisStore({ url: redis.url, onWarning: (m) => persistent.push(m) })
    for (const id of ['a', 'b', 'c']) await store.get(id)
    await store.close()
    expect(persistent).toEqual([])
  }, 60_000)

  it('Redis keeps nothing of a call past its record: its fence, lock, held entries and index go with it', async () => {
    const store = await createRedisStore({ url: redis.url, keyPrefix: 'ret:' })
    const raw = new Redis(redis.url)
    try {
      const at = Date.now()
      const gone = record('ret-1', { client: 'ret-client', status: 'running', expiresAt: at + 400, createdAt: at, updatedAt: at })
      expect(await store.create(gone)).toBe(true)
      const lease = await store.lock('ret-1', 'instance-a', 200)
      await store.unlock(lease!)
      expect(await store.admit({ callId: 'ret-3', client: 'ret-client', until: at + 400 }, { perClient: 10, total: 1_000 })).toEqual({ admitted: true })
      expect((await raw.keys('ret:*')).sort()).toEqual(['ret:call:{ret-1}', 'ret:fence:{ret-1}', 'ret:{idx}:held:all', 'ret:{idx}:held:client:ret-client', 'ret:{idx}:running'])
      await new Promise((resolve) => setTimeout(resolve, 800))
      // Another call's write is all it takes for the shared entries of the gone one to go too.
      const later = Date.now()
      await store.create(
        record('ret-2', { client: 'ret-other', status: 'completed', outcome: { status: 'completed', result: 1 }, createdAt: later, updatedAt: later, expiresAt: later + 60_000 }),
      )
      expect(await store.stranded(10, 'chat')).toEqual([])
      expect((await raw.keys('ret:*')).sort()).toEqual(['ret:call:{ret-2}'])
    } finally {
      raw.disconnect()
      await store.close()
    }
  }, 30_000)

  it("Redis keeps a call in the running index while its lock is held, even before its record says running (the writer's order), so a scan between the two cannot hide it from recovery", async () => {
    const store = await createRedisStore({ url: redis.url, keyPrefix: 'idx:' })
    const raw = new Redis(redis.url)
    try {
      const at = Date.now()
      await store.create(record('idx-1', { createdAt: at, updatedAt: at, expiresAt: at + 60_000 })) // waiting
      // A writer about to run it: holds the lock, has indexed it, has not yet written it running.
      const lease = await store.lock('idx-1', 'instance-a', 10_000)
      // The writer's two steps, played one by one: (1) index it, then — after another instance's
      // scan — (2) write the record running (the store's own PUT_CALL script, nothing else).
      await raw.sadd('idx:{idx}:running', 'idx-1')
      expect(await store.stranded(10, 'chat')).toEqual([])
      const running = record('idx-1', { status: 'running', revision: 2, createdAt: at, updatedAt: at, expiresAt: at + 60_000 })
      expect(await raw.eval(PUT_CALL, 2, 'idx:call:{idx-1}', 'idx:fence:{idx-1}', '1', '2', JSON.stringify(running), String(running.expiresAt), 'running', 'chat')).toBe(1)
      await store.unlock(lease!) // its instance dies: the lock goes
      expect(await store.stranded(10, 'chat')).toEqual(['idx-1'])
      // A record stored before the surface had a field of its own: read from its body.
      await raw.hdel('idx:call:{idx-1}', 'surface')
      expect(await store.stranded(10, 'chat')).toEqual(['idx-1'])
      expect(await store.stranded(10, 'mcp')).toEqual([])
    } finally {
      raw.disconnect()
      await store.close()
    }
  }, 30_000)

  it('a Redis that does not answer is a clear error, not a hang', async () => {
    const store = await createRedisStore({ url: `redis://127.0.0.1:${redis.port + 1}` })
    await expect(store.get('x')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' })
    await store.close()
  }, 30_000)

  it('a shared secret outlives its store handle: another process opening the same SQLite file, or the same Redis, gets the same', async () => {
    const path = join(dir, 'secret', 'calls.db')
    const first = await createSqliteStore({ path })
    const made = Buffer.from(await first.sharedSecret())
    await first.close()
    const second = await createSqliteStore({ path })
    expect(Buffer.from(await second.sharedSecret()).equals(made)).toBe(true)
    await second.close()
    const [a, b] = await Promise.all([createRedisStore({ url: redis.url, keyPrefix: 'secret:' }), createRedisStore({ url: redis.url, keyPrefix: 'secret:' })])
    const [fromA, fromB] = await Promise.all([a.sharedSecret(), b.sharedSecret()])
    expect(Buffer.from(fromA).equals(Buffer.from(fromB))).toBe(true)
    const other = await createRedisStore({ url: redis.url, keyPrefix: 'another-app:' })
    expect(Buffer.from(await other.sharedSecret()).equals(Buffer.from(fromA))).toBe(false) // its own prefix, its own secret
    await Promise.all([a.close(), b.close(), other.close()])
  })

  it('a record written to a SQLite file survives closing and reopening it', async () => {
    const path = join(dir, 'reopen', 'calls.db')
    const first = await createSqliteStore({ path })
    await first.create(record('kept'))
    await first.close()
    await expect(first.get('kept')).rejects.toMatchObject({ code: 'STORE_CLOSED' })
    const second = await createSqliteStore({ path })
    expect(await second.get('kept')).toMatchObject({ callId: 'kept', journal: [{ name: 'charge' }] })
    await second.close()
  })
})
