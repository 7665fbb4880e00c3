/**
 * `createSqliteStore({ path })`: the embedded default for a single server — one SQLite file,
 * created on first use, in WAL mode so reads never wait for the writer. A record survives a crash
 * of the process (kill -9) as soon as its write returned; with `synchronous = NORMAL` the last
 * writes before a power loss may be lost, which is the usual WAL trade.
 *
 * The driver is `libsql` (an optional peer): it installs a prebuilt binary in seconds on Node 20
 * and 22 and has better-sqlite3's synchronous API; better-sqlite3 12 compiles from source here
 * (~70 s) and its version 13 needs Node 22. Statements are synchronous and microseconds long, so
 * the async interface only wraps them.
 *
 * Several processes may open the same file (a restarted server while the old one is still dying):
 * locks and revisions are rows, so the same rules hold between processes as between instances.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { z } from 'zod/v4'
import { summarizeIssues } from '../../errors/issues.ts'
import { clientShare, heldUntil, type Admission, type CallLease, type CallRecord, type CallStore, type HeldBy, type HeldLimits } from './call-store.ts'
import { loadDriver } from './load-driver.ts'
import { sqliteConversations, type SqliteHandle } from './sqlite-conversations.ts'
import { StoreClosedError } from '../../errors/store-errors.ts'
import { clockOption, systemClock, type Clock } from '../../time/clock.ts'
import { OptionsError } from '../../errors/options-error.ts'

/** The key of the store's shared secret in its meta table. */
const SHARED_SECRET = 'shared-secret'

/**
 * Options of `createSqliteStore`: the database file, a table prefix, and the clock.
 */
export interface SqliteStoreOptions {
  /** The database file; its folder is created if missing. `:memory:` for a private in-memory database. */
  path: string
  /** Prefix of the table names (default `mcp_bridge_`), to share a database with the app. */
  tablePrefix?: string
  /**
   * What expiry and lock leases are measured with (default: wall time; tests: `createTestClock()`).
   * Processes sharing a file must share a clock: on one machine, wall time does.
   */
  clock?: Clock
}

/** The libsql / better-sqlite3 API this store uses. */
type SqliteDatabase = SqliteHandle & { close(): void }
type DatabaseConstructor = new (path: string) => SqliteDatabase

const optionsSchema = z
  .object({
    path: z.string().min(1, 'give the database file, e.g. "data/calls.db"'),
    tablePrefix: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/, 'letters, digits and _ only (it becomes part of table names)')
      .optional(),
    clock: clockOption.optional(),
  })
  .strict()

/** Expired rows are swept every this many writes (reads ignore them anyway). */
const SWEEP_EVERY = 500

/**
 * Calls kept in a SQLite file (WAL), for one server: a restart picks up every waiting call. Needs the optional
 * peer `libsql`.
 *
 * @example
 * ```ts
 * import { createChatHandler, createSqliteStore } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const store = await createSqliteStore({ path: 'data/calls.db' })
 * export const chat = createChatHandler({ tools: serverTools, model: createScriptedModel({}), store })
 * ```
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<CallStore> {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new OptionsError('createSqliteStore', summarizeIssues(checked.error.issues))
  }
  const { path, tablePrefix = 'mcp_bridge_', clock = systemClock } = checked.data
  const Database = await loadDriver<DatabaseConstructor>('createSqliteStore', 'libsql', (m) => m.default ?? m)
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true })
  const db = new Database(path)
  const t = {
    calls: `${tablePrefix}calls`,
    locks: `${tablePrefix}locks`,
    running: `${tablePrefix}running`,
    held: `${tablePrefix}held`,
    conversations: `${tablePrefix}conversations`,
    meta: `${tablePrefix}meta`,
  }
  db.exec(`
    PRAGMA journal_mode = WAL;
    PRAGMA synchronous = NORMAL;
    PRAGMA busy_timeout = 5000;
    CREATE TABLE IF NOT EXISTS ${t.calls} (
      call_id TEXT PRIMARY KEY, revision INTEGER NOT NULL, expires_at INTEGER NOT NULL, record TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS ${t.calls}_expiry ON ${t.calls} (expires_at);
    CREATE TABLE IF NOT EXISTS ${t.locks} (
      call_id TEXT PRIMARY KEY, owner TEXT NOT NULL, fence INTEGER NOT NULL, until INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS ${t.locks}_until ON ${t.locks} (until);
    CREATE TABLE IF NOT EXISTS ${t.running} (call_id TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS ${t.held} (call_id TEXT PRIMARY KEY, client TEXT NOT NULL, until INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS ${t.held}_client ON ${t.held} (client, until);
    CREATE INDEX IF NOT EXISTS ${t.held}_until ON ${t.held} (until);
    CREATE TABLE IF NOT EXISTS ${t.conversations} (
      id TEXT PRIMARY KEY, revision INTEGER NOT NULL, expires_at INTEGER NOT NULL, record TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS ${t.meta} (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `)
  const sql = {
    putMeta: db.prepare(`INSERT OR IGNORE INTO ${t.meta} (key, value) VALUES (?, ?)`),
    getMeta: db.prepare(`SELECT value FROM ${t.meta} WHERE key = ?`),
    // An expired record is as good as absent: a new one may take its id.
    create: db.prepare(
      `INSERT INTO ${t.calls} (call_id, revision, expires_at, record) VALUES (?, ?, ?, ?)
       ON CONFLICT (call_id) DO UPDATE SET revision = excluded.revision, expires_at = excluded.expires_at, record = excluded.record
       WHERE ${t.calls}.expires_at <= ?`,
    ),
    get: db.prepare(`SELECT record FROM ${t.calls} WHERE call_id = ? AND expires_at > ?`),
    update: db.prepare(`UPDATE ${t.calls} SET revision = ?, expires_at = ?, record = ? WHERE call_id = ? AND revision = ? AND expires_at > ?`),
    // The row stays after unlock (until = 0) so the fence keeps growing across holders.
    lock: db.prepare(
      `INSERT INTO ${t.locks} (call_id, owner, fence, until) VALUES (?, ?, 1, ?)
       ON CONFLICT (call_id) DO UPDATE SET owner = excluded.owner, fence = ${t.locks}.fence + 1, until = excluded.until
       WHERE ${t.locks}.until <= ?
       RETURNING fence`,
    ),
    renew: db.prepare(`UPDATE ${t.locks} SET until = ? WHERE call_id = ? AND fence = ? AND until > ?`),
    unlock: db.prepare(`UPDATE ${t.locks} SET until = 0 WHERE call_id = ? AND fence = ?`),
    lockHolder: db.prepare(`SELECT owner, until FROM ${t.locks} WHERE call_id = ? AND until > ?`),
    // The index of running calls, kept in the same transaction as the record it follows.
    markRunning: db.prepare(`INSERT OR IGNORE INTO ${t.running} (call_id) VALUES (?)`),
    unmarkRunning: db.prepare(`DELETE FROM ${t.running} WHERE call_id = ?`),
    stranded: db.prepare(
      `SELECT r.call_id AS id FROM ${t.running} r JOIN ${t.calls} c ON c.call_id = r.call_id AND c.expires_at > ?
       WHERE json_extract(c.record, '$.surface') = ?
         AND NOT EXISTS (SELECT 1 FROM ${t.locks} l WHERE l.call_id = r.call_id AND l.until > ?) LIMIT ?`,
    ),
    sweepRunning: db.prepare(`DELETE FROM ${t.running} WHERE call_id NOT IN (SELECT call_id FROM ${t.calls})`),
    // Calls held (not finished), for admission: kept in the same transaction as their records.
    hold: db.prepare(`INSERT INTO ${t.held} (call_id, client, until) VALUES (?, ?, ?) ON CONFLICT (call_id) DO UPDATE SET client = excluded.client, until = excluded.until`),
    release: db.prepare(`DELETE FROM ${t.held} WHERE call_id = ?`),
    isHeld: db.prepare(`SELECT 1 FROM ${t.held} WHERE call_id = ? AND until > ?`),
    extendHeld: db.prepare(`UPDATE ${t.held} SET until = MAX(until, ?) WHERE call_id = ?`),
    heldBy: db.prepare(`SELECT COUNT(*) AS n FROM ${t.held} WHERE client = ? AND until > ?`),
    heldInAll: db.prepare(`SELECT COUNT(*) AS n FROM ${t.held} WHERE until > ?`),
    // With MIN(until), SQLite takes the bare call_id from the row holding that minimum: each client's call held longest.
    holders: db.prepare(`SELECT client, COUNT(*) AS held, call_id AS oldest, MIN(until) AS until FROM ${t.held} WHERE until > ? GROUP BY client`),
    sweepHeld: db.prepare(`DELETE FROM ${t.held} WHERE until <= ?`),
    sweepCalls: db.prepare(`DELETE FROM ${t.calls} WHERE expires_at <= ?`),
    sweepLocks: db.prepare(`DELETE FROM ${t.locks} WHERE until <= ? AND call_id NOT IN (SELECT call_id FROM ${t.calls})`),
    sweepConversations: db.prepare(`DELETE FROM ${t.conversations} WHERE expires_at <= ?`),
  }
  const conversations = sqliteConversations(db, t.conversations, clock)
  let closed = false
  let writes = 0
  function open(): void {
    if (closed) throw new StoreClosedError('SQLite')
  }
  function wrote(): void {
    if (++writes % SWEEP_EVERY !== 0) return
    const now = clock.now()
    sql.sweepCalls.run(now)
    sql.sweepLocks.run(now)
    sql.sweepRunning.run()
    sql.sweepHeld.run(now)
    sql.sweepConversations.run(now)
    conversations.sweep()
  }
  /** Write a call's record and keep the running index and the held calls in step, as one transaction. */
  const writeCall = db.transaction((r: CallRecord, write: () => { changes: number }) => {
    const { changes } = write()
    if (changes !== 1) return false
    ;(r.status === 'running' ? sql.markRunning : sql.unmarkRunning).run(r.callId)
    const until = heldUntil(r)
    if (until === undefined) sql.release.run(r.callId)
    else sql.hold.run(r.callId, r.client, until)
    return true
  }) as (r: CallRecord, write: () => { changes: number }) => boolean
  const count = (row: unknown) => Number((row as { n: number }).n)
  /** Count a new call as held if the limits allow: one transaction, so two processes cannot both take the last place. */
  // Immediate: it reads before it writes, and a deferred transaction of two processes could not both upgrade.
  const admit = db.transaction((callId: string, client: string, until: number, limits: HeldLimits): Admission => {
    const now = clock.now()
    if (sql.isHeld.get(callId, now)) {
      sql.extendHeld.run(until, callId) // a claim renewed while its call runs unrecorded
      return { admitted: true }
    }
    const mine = count(sql.heldBy.get(client, now))
    const all = count(sql.heldInAll.get(now))
    const share = clientShare(all, limits)
    if (mine >= share) return { admitted: false, full: 'client', held: mine, share, all }
    if (all >= limits.total) {
      const holders = (sql.holders.all(now) as HeldBy[]).map((h) => ({ ...h, held: Number(h.held), until: Number(h.until) }))
      return { admitted: false, full: 'total', held: all, holders, clientHeld: mine }
    }
    sql.hold.run(callId, client, until)
    return { admitted: true }
  })
  const record = <T>(row: unknown): T | undefined => (row ? (JSON.parse((row as { record: string }).record) as T) : undefined)

  return {
    kind: 'sqlite',
    async create(r: CallRecord) {
      open()
      const written = writeCall(r, () => sql.create.run(r.callId, r.revision, r.expiresAt, JSON.stringify(r), clock.now()))
      wrote()
      return written
    },
    async get(callId) {
      open()
      return record<CallRecord>(sql.get.get(callId, clock.now()))
    },
    async update(r) {
      open()
      const written = writeCall(r, () => sql.update.run(r.revision, r.expiresAt, JSON.stringify(r), r.callId, r.revision - 1, clock.now()))
      wrote()
      return written
    },
    async lock(callId, owner, ttlMs) {
      open()
      const now = clock.now()
      const row = sql.lock.get(callId, owner, now + ttlMs, now) as { fence: number } | undefined
      return row ? { callId, owner, fence: Number(row.fence) } : undefined
    },
    async renew(lease: CallLease, ttlMs) {
      open()
      const now = clock.now()
      return sql.renew.run(now + ttlMs, lease.callId, lease.fence, now).changes === 1
    },
    async lockHolder(callId) {
      open()
      const now = clock.now()
      const row = sql.lockHolder.get(callId, now) as { owner: string; until: number } | undefined
      return row && { owner: row.owner, expiresInMs: row.until - now }
    },
    async unlock(lease) {
      open()
      sql.unlock.run(lease.callId, lease.fence)
    },
    async stranded(limit, surface) {
      open()
      const now = clock.now()
      return (sql.stranded.all(now, surface, now, limit) as Array<{ id: string }>).map((row) => row.id)
    },
    async admit(call, limits) {
      open()
      return admit.immediate(call.callId, call.client, call.until, limits)
    },
    async release(call) {
      open()
      sql.release.run(call.callId)
    },
    async getConversation(id) {
      open()
      return conversations.getConversation(id)
    },
    async getConversationHead(id) {
      open()
      return conversations.getConversationHead(id)
    },
    async appendConversation(a) {
      open()
      const head = await conversations.appendConversation(a)
      wrote()
      return head
    },
    async putConversation(r) {
      open()
      const written = await conversations.putConversation(r)
      wrote()
      return written
    },
    async sharedSecret() {
      open()
      // The first instance's insert wins; every other reads what it wrote.
      sql.putMeta.run(SHARED_SECRET, randomBytes(32).toString('base64'))
      return Uint8Array.from(Buffer.from((sql.getMeta.get(SHARED_SECRET) as { value: string }).value, 'base64'))
    },
    async close() {
      if (closed) return
      closed = true
      db.close()
    },
  }
}
