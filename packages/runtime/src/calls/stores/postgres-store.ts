/**
 * `createPostgresStore(...)`: calls kept in the Postgres most apps already run, shared by every
 * instance that connects to it — the same contract as SQLite (one server) and Redis (several).
 *
 * Locks are rows with a fencing number (an upsert takes a lock only if the last one lapsed);
 * records carry revisions (an update applies only on top of the one it read); admission counts and
 * fair shares are computed inside one transaction under an advisory lock, so two instances cannot
 * both take the last place. Every transaction is a few statements long: none spans a person's wait.
 * Recovery's scan of running calls skips rows another instance is scanning (`SKIP LOCKED`), so two
 * instances never reach for the same stranded call.
 *
 * The driver is `pg` (an optional peer), or an app's own `pg.Pool`, or an embedded PGlite database
 * (`@electric-sql/pglite`, an optional peer): Postgres with no server, for development and tests.
 * The store creates and migrates its tables itself, under a schema of its own (`mcp_bridge`).
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod/v4'
import { summarizeIssues } from '../../errors/issues.ts'
import { OptionsError } from '../../errors/options-error.ts'
import { McpBridgeError } from '../../errors/mcp-bridge-error.ts'
import { StoreClosedError, StoreUnavailableError } from '../../errors/store-errors.ts'
import { clockOption, systemClock, type Clock } from '../../time/clock.ts'
import { clientShare, heldUntil, type Admission, type CallLease, type CallRecord, type CallStore, type HeldBy } from './call-store.ts'
import { appPoolRunner, pgliteRunner, poolRunner, type PgPoolLike, type PgQueryable, type PgRunner } from './postgres-connection.ts'
import { postgresConversations } from './postgres-conversations.ts'
import { migrate, quoteIdent } from './postgres-schema.ts'

/** Where the Postgres call store connects: a connection string, a pool of the app's, or an embedded PGlite database. */
export type PostgresStoreOptions = (
  | {
      /** `postgres://user:password@host:5432/db`: the store makes (and on close ends) a pool of its own. */
      connectionString: string
    }
  | {
      /** The app's `pg.Pool`: the store runs on it, and leaves it open on close. */
      pool: PgPoolLike
    }
  | {
      /** An embedded PGlite database: its data folder, or `memory://` for one that keeps nothing. Needs `@electric-sql/pglite`. */
      pglite: string
    }
) & {
  /** The schema the store's tables live in (default `mcp_bridge`); created if missing. */
  schema?: string
  /** Connections of the pool the store makes (default 10). */
  maxConnections?: number
  /** Longest a statement may run, in ms (default 5,000): a stuck query fails instead of holding a request. */
  statementTimeoutMs?: number
  /**
   * What expiry and lock leases are measured with (default: wall time; tests: `createTestClock()`).
   * Instances sharing a database must share a clock: wall time kept by NTP does, well within a lease.
   */
  clock?: Clock
}

const identifier = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,40}$/, 'letters, digits and _ only, at most 41 (it becomes part of SQL)')
  .optional()
const common = {
  schema: identifier,
  maxConnections: z.number().int().min(1).max(1_000).optional(),
  statementTimeoutMs: z.number().int().min(100).max(600_000).optional(),
  clock: clockOption.optional(),
}
const pool = z.custom<PgPoolLike>((p) => typeof (p as PgPoolLike | null)?.query === 'function' && typeof (p as PgPoolLike).connect === 'function', {
  message: 'a pg.Pool (something with query() and connect())',
})
const optionsSchema = z.union([
  z.strictObject({ connectionString: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL, e.g. postgres://app@localhost:5432/app'), ...common }),
  z.strictObject({ pool, ...common }),
  z.strictObject({ pglite: z.string().min(1, 'a data folder, or memory://'), ...common }),
])

/** Expired rows are swept every this many writes (reads ignore them anyway). */
const SWEEP_EVERY = 500

/** The key of the store's shared secret in its meta table. */
const SHARED_SECRET = 'shared-secret'

/**
 * Calls kept in Postgres, for one server or many: every instance connected to the database shares
 * them. Needs the optional peer `pg` (or `@electric-sql/pglite` for `{ pglite }`).
 *
 * @example
 * ```ts
 * import { createChatHandler, createPostgresStore } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const store = await createPostgresStore({ connectionString: process.env.DATABASE_URL! })
 * export const chat = createChatHandler({ tools: serverTools, model: createScriptedModel({}), store })
 * ```
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<CallStore> {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) throw new OptionsError('createPostgresStore', summarizeIssues(checked.error.issues))
  const given = checked.data
  const { schema = 'mcp_bridge', maxConnections = 10, statementTimeoutMs = 5_000, clock = systemClock } = given
  const where = 'connectionString' in given ? given.connectionString : 'pool' in given ? 'the given pool' : `PGlite ${given.pglite}`
  const db: PgRunner =
    'connectionString' in given
      ? await poolRunner(given.connectionString, { maxConnections, statementTimeoutMs })
      : 'pool' in given
        ? appPoolRunner(given.pool)
        : await pgliteRunner(given.pglite)
  let closed = false
  /** Every statement: a closed store says so; a database that fails says where (never the password). */
  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreClosedError('Postgres')
    try {
      return await work()
    } catch (error) {
      // Ours (a closed store, a schema too new) say what they mean already.
      if (error instanceof McpBridgeError) throw error
      throw new StoreUnavailableError('postgres', where, error)
    }
  }
  await run(() => migrate(db, schema)).catch(async (error: unknown) => {
    await db.close().catch(() => undefined)
    throw error
  })
  const s = quoteIdent(schema)
  const t = { calls: `${s}.calls`, locks: `${s}.locks`, held: `${s}.held`, meta: `${s}.meta`, conversations: `${s}.conversations`, log: `${s}.conversation_log` }
  const conversations = postgresConversations(db, s, () => clock.now())

  let writes = 0
  async function wrote(): Promise<void> {
    if (++writes % SWEEP_EVERY !== 0) return
    const now = clock.now()
    await db.query(`DELETE FROM ${t.calls} WHERE expires_at <= $1`, [now])
    await db.query(`DELETE FROM ${t.locks} l WHERE until <= $1 AND NOT EXISTS (SELECT 1 FROM ${t.calls} c WHERE c.call_id = l.call_id)`, [now])
    await db.query(`DELETE FROM ${t.held} WHERE until <= $1`, [now])
    await db.query(`DELETE FROM ${t.conversations} WHERE expires_at <= $1`, [now])
    await db.query(`DELETE FROM ${t.log} g WHERE NOT EXISTS (SELECT 1 FROM ${t.conversations} c WHERE c.id = g.id)`)
  }

  /** Write a call's record and keep its held entry in step, in one transaction. */
  const writeCall = (r: CallRecord, write: (q: PgQueryable) => Promise<number>) =>
    run(async () => {
      const written = await db.transaction(async (q) => {
        if ((await write(q)) !== 1) return false
        const until = heldUntil(r)
        if (until === undefined) await q.query(`DELETE FROM ${t.held} WHERE call_id = $1`, [r.callId])
        else
          await q.query(`INSERT INTO ${t.held} (call_id, client, until) VALUES ($1, $2, $3) ON CONFLICT (call_id) DO UPDATE SET client = excluded.client, until = excluded.until`, [
            r.callId,
            r.client,
            until,
          ])
        return true
      })
      await wrote()
      return written
    })

  /** Count a new call as held if the limits allow: one transaction, serialized with every other admission by an advisory lock. */
  const admit = (callId: string, client: string, until: number, limits: { perClient: number; total: number }) =>
    db.transaction(async (q): Promise<Admission> => {
      await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`mcp-bridge admit ${schema}`])
      const now = clock.now()
      const held = await q.query(`UPDATE ${t.held} SET until = GREATEST(until, $1) WHERE call_id = $2 AND until > $3`, [until, callId, now])
      if (held.rowCount === 1) return { admitted: true } // a claim renewed while its call runs unrecorded
      const counts = await q.query<{ mine: string; all: string }>(`SELECT count(*) FILTER (WHERE client = $1) AS mine, count(*) AS all FROM ${t.held} WHERE until > $2`, [
        client,
        now,
      ])
      const mine = Number(counts.rows[0]!.mine)
      const all = Number(counts.rows[0]!.all)
      const share = clientShare(all, limits)
      if (mine >= share) return { admitted: false, full: 'client', held: mine, share, all }
      if (all >= limits.total) {
        const { rows } = await q.query<{ client: string; held: string; oldest: string; until: string }>(
          `SELECT client, held, call_id AS oldest, until FROM (
             SELECT client, call_id, until, count(*) OVER (PARTITION BY client) AS held,
                    row_number() OVER (PARTITION BY client ORDER BY until) AS rank
             FROM ${t.held} WHERE until > $1) ranked
           WHERE rank = 1`,
          [now],
        )
        const holders: HeldBy[] = rows.map((r) => ({ client: r.client, held: Number(r.held), oldest: r.oldest, until: Number(r.until) }))
        return { admitted: false, full: 'total', held: all, holders, clientHeld: mine }
      }
      await q.query(`INSERT INTO ${t.held} (call_id, client, until) VALUES ($1, $2, $3) ON CONFLICT (call_id) DO UPDATE SET client = excluded.client, until = excluded.until`, [
        callId,
        client,
        until,
      ])
      return { admitted: true }
    })

  const recordOf = (rows: Array<{ record: string }>) => (rows[0] ? (JSON.parse(rows[0].record) as CallRecord) : undefined)

  return {
    kind: 'postgres',
    create: (r) =>
      writeCall(
        r,
        async (q) =>
          (
            await q.query(
              // An expired record is as good as absent: a new one may take its id.
              `INSERT INTO ${t.calls} (call_id, revision, expires_at, status, surface, record) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT (call_id) DO UPDATE SET revision = excluded.revision, expires_at = excluded.expires_at, status = excluded.status,
                 surface = excluded.surface, record = excluded.record
               WHERE ${t.calls}.expires_at <= $7`,
              [r.callId, r.revision, r.expiresAt, r.status, r.surface, JSON.stringify(r), clock.now()],
            )
          ).rowCount,
      ),
    get: (callId) =>
      run(async () => recordOf((await db.query<{ record: string }>(`SELECT record FROM ${t.calls} WHERE call_id = $1 AND expires_at > $2`, [callId, clock.now()])).rows)),
    update: (r) =>
      writeCall(
        r,
        async (q) =>
          (
            await q.query(
              `UPDATE ${t.calls} SET revision = $1, expires_at = $2, status = $3, surface = $4, record = $5
               WHERE call_id = $6 AND revision = $7 AND expires_at > $8`,
              [r.revision, r.expiresAt, r.status, r.surface, JSON.stringify(r), r.callId, r.revision - 1, clock.now()],
            )
          ).rowCount,
      ),
    lock: (callId, owner, ttlMs) =>
      run(async () => {
        const now = clock.now()
        const { rows } = await db.query<{ fence: string }>(
          `INSERT INTO ${t.locks} (call_id, owner, fence, until) VALUES ($1, $2, 1, $3)
           ON CONFLICT (call_id) DO UPDATE SET owner = excluded.owner, fence = ${t.locks}.fence + 1, until = excluded.until
           WHERE ${t.locks}.until <= $4
           RETURNING fence`,
          [callId, owner, now + ttlMs, now],
        )
        return rows[0] ? { callId, owner, fence: Number(rows[0].fence) } : undefined
      }),
    renew: (lease: CallLease, ttlMs) =>
      run(async () => {
        const now = clock.now()
        return (await db.query(`UPDATE ${t.locks} SET until = $1 WHERE call_id = $2 AND fence = $3 AND until > $4`, [now + ttlMs, lease.callId, lease.fence, now])).rowCount === 1
      }),
    unlock: (lease) =>
      run(async () => {
        await db.query(`UPDATE ${t.locks} SET until = 0 WHERE call_id = $1 AND fence = $2`, [lease.callId, lease.fence])
      }),
    lockHolder: (callId) =>
      run(async () => {
        const now = clock.now()
        const { rows } = await db.query<{ owner: string; until: string }>(`SELECT owner, until FROM ${t.locks} WHERE call_id = $1 AND until > $2`, [callId, now])
        return rows[0] && { owner: rows[0].owner, expiresInMs: Number(rows[0].until) - now }
      }),
    stranded: (limit, surface) =>
      run(() =>
        db.transaction(async (q) => {
          const now = clock.now()
          // SKIP LOCKED: rows another instance's scan holds this moment are left to it.
          const { rows } = await q.query<{ call_id: string }>(
            `SELECT c.call_id FROM ${t.calls} c
             WHERE c.status = 'running' AND c.surface = $1 AND c.expires_at > $2
               AND NOT EXISTS (SELECT 1 FROM ${t.locks} l WHERE l.call_id = c.call_id AND l.until > $2)
             LIMIT $3 FOR UPDATE OF c SKIP LOCKED`,
            [surface, now, limit],
          )
          return rows.map((row) => row.call_id)
        }),
      ),
    admit: (call, limits) => run(() => admit(call.callId, call.client, call.until, limits)),
    release: (call) =>
      run(async () => {
        await db.query(`DELETE FROM ${t.held} WHERE call_id = $1`, [call.callId])
      }),
    getConversation: (id) => run(() => conversations.getConversation(id)),
    getConversationHead: (id) => run(() => conversations.getConversationHead(id)),
    appendConversation: (a) =>
      run(async () => {
        const head = await conversations.appendConversation(a)
        await wrote()
        return head
      }),
    putConversation: (r) =>
      run(async () => {
        const written = await conversations.putConversation(r)
        await wrote()
        return written
      }),
    sharedSecret: () =>
      run(async () => {
        // The first instance's insert wins; every other reads what it wrote.
        await db.query(`INSERT INTO ${t.meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [SHARED_SECRET, randomBytes(32).toString('base64')])
        const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${t.meta} WHERE key = $1`, [SHARED_SECRET])
        return Uint8Array.from(Buffer.from(rows[0]!.value, 'base64'))
      }),
    async close() {
      if (closed) return
      closed = true
      await db.close()
    },
  }
}
