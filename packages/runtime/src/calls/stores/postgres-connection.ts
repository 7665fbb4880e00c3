/**
 * What the Postgres call store runs its SQL on: a `pg` pool it makes (`connectionString`), a
 * pool of the app's (`pool`), or an embedded PGlite database (`pglite`) — one small interface,
 * so the store's queries are written once. Transactions take a connection of their own for their
 * few statements and give it back at once: none spans a person's wait.
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { loadDriver } from './load-driver.ts'

/** What a query resolves to: its rows, and how many rows it wrote. */
export interface PgResult<R> {
  rows: R[]
  rowCount: number
}

/** Something that runs one statement with `$1`-style parameters. */
export interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<PgResult<R>>
}

/** The store's connection: statements, transactions, and closing. */
export interface PgRunner extends PgQueryable {
  /** `work` inside BEGIN … COMMIT on one connection (ROLLBACK if it throws). */
  transaction<T>(work: (q: PgQueryable) => Promise<T>): Promise<T>
  /** Release what the store opened (a pool it made, a PGlite database); a pool of the app's is left open. */
  close(): Promise<void>
}

/** The part of a `pg` client (`pg.PoolClient`) the store uses. */
export interface PgClientLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>
  release(error?: Error | boolean): void
}

/**
 * A `pg.Pool` (or anything with its `query` and `connect`): `createPostgresStore({ pool })` runs on
 * the app's own pool, and leaves it open on `close()`.
 */
export interface PgPoolLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>
  connect(): Promise<PgClientLike>
  end?(): Promise<void>
}

/** The part of a PGlite database the store uses. */
interface PgliteLike {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }>
  transaction<T>(work: (tx: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[]; affectedRows?: number }> }) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** Settings of a pool the store makes. */
export interface PoolSettings {
  maxConnections: number
  statementTimeoutMs: number
}

/** A `pg` pool the store makes (and ends on close): bounded connections, statements and idle transactions timed out. */
export async function poolRunner(connectionString: string, settings: PoolSettings): Promise<PgRunner> {
  const pg = await loadDriver<{ Pool: new (config: Record<string, unknown>) => PgPoolLike & { on(event: 'error', listener: (error: Error) => void): unknown } }>(
    'createPostgresStore',
    'pg',
    (m) => (m.Pool ? m : m.default),
  )
  const pool = new pg.Pool({
    connectionString,
    max: settings.maxConnections,
    statement_timeout: settings.statementTimeoutMs,
    // A transaction left open by a crash of ours cannot hold its row locks for long.
    idle_in_transaction_session_timeout: Math.max(10_000, settings.statementTimeoutMs * 2),
    connectionTimeoutMillis: 5_000,
  })
  // An idle client's error (the server restarted) is the next query's to report; unheard, pg would crash the process.
  pool.on('error', () => {})
  return appPoolRunner(pool, true)
}

/** A pool of the app's; ended on close only when `owned`. */
export function appPoolRunner(pool: PgPoolLike, owned = false): PgRunner {
  const query = async <R>(text: string, params?: readonly unknown[]) => normalize<R>(await pool.query(text, params as unknown[]))
  return {
    query,
    async transaction(work) {
      const client = await pool.connect()
      let broken: Error | undefined
      try {
        await client.query('BEGIN')
        const result = await work({ query: async (text, params) => normalize(await client.query(text, params as unknown[])) })
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch((rollback: Error) => (broken = rollback))
        throw error
      } finally {
        // A connection that could not roll back is not given to the next caller.
        client.release(broken ?? false)
      }
    },
    async close() {
      if (owned) await pool.end?.()
    },
  }
}

/** An embedded PGlite database in `dataDir` (`memory://` keeps nothing); a folder's parents are created, as SQLite's file's are. */
export async function pgliteRunner(dataDir: string): Promise<PgRunner> {
  const { PGlite } = await loadDriver<{ PGlite: { create(dataDir: string): Promise<PgliteLike> } }>('createPostgresStore', '@electric-sql/pglite', (m) => m)
  if (!/^[a-z]+:\/\//.test(dataDir)) mkdirSync(dirname(resolve(dataDir)), { recursive: true })
  const db = await PGlite.create(dataDir)
  const pgliteResult = <R>(r: { rows: unknown[]; affectedRows?: number }): PgResult<R> => ({ rows: r.rows as R[], rowCount: r.affectedRows ?? r.rows.length })
  return {
    query: async (text, params) => pgliteResult(await db.query(text, params as unknown[])),
    transaction: (work) => db.transaction((tx) => work({ query: async (text, params) => pgliteResult(await tx.query(text, params as unknown[])) })),
    close: () => db.close(),
  }
}

function normalize<R>(result: { rows: unknown[]; rowCount: number | null }): PgResult<R> {
  return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 }
}
