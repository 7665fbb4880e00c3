/**
 * The Postgres call store's tables, created and migrated by the store itself: each version's
 * statements run once, in order, recorded in `schema_version`. Several instances starting at once
 * are safe: the migration holds a transaction-level advisory lock named after the schema, so one
 * creates while the others wait and then find it done. A schema written by a newer version of
 * mcp-bridge is refused rather than guessed at.
 */
import { StoreSchemaError } from '../../errors/store-errors.ts'
import type { PgRunner } from './postgres-connection.ts'

/** Each version's statements; `s` is the quoted schema name. Append, never edit: a deployed version has run. */
const MIGRATIONS: Array<(s: string) => string[]> = [
  (s) => [
    // Times are epoch milliseconds of the instances' clock (as the SQLite store's), records JSON text.
    `CREATE TABLE ${s}.calls (call_id text PRIMARY KEY, revision integer NOT NULL, expires_at bigint NOT NULL,
       status text NOT NULL, surface text NOT NULL, record text NOT NULL)`,
    `CREATE INDEX calls_expiry ON ${s}.calls (expires_at)`,
    // The index of running calls that recovery scans: only those rows are in it.
    `CREATE INDEX calls_running ON ${s}.calls (surface) WHERE status = 'running'`,
    // A lock's row stays after unlock (until = 0), so its fence keeps growing across holders.
    `CREATE TABLE ${s}.locks (call_id text PRIMARY KEY, owner text NOT NULL, fence bigint NOT NULL, until bigint NOT NULL)`,
    `CREATE TABLE ${s}.held (call_id text PRIMARY KEY, client text NOT NULL, until bigint NOT NULL)`,
    `CREATE INDEX held_client ON ${s}.held (client, until)`,
    `CREATE INDEX held_until ON ${s}.held (until)`,
    `CREATE TABLE ${s}.conversations (id text PRIMARY KEY, revision integer NOT NULL, expires_at bigint NOT NULL,
       head text NOT NULL, state text NOT NULL)`,
    `CREATE INDEX conversations_expiry ON ${s}.conversations (expires_at)`,
    `CREATE TABLE ${s}.conversation_log (id text NOT NULL, seq integer NOT NULL, entry text NOT NULL, PRIMARY KEY (id, seq))`,
    `CREATE TABLE ${s}.meta (key text PRIMARY KEY, value text NOT NULL)`,
  ],
]

/** The schema's version once `migrate` has run. */
export const SCHEMA_VERSION = MIGRATIONS.length

/**
 * Create or bring up to date the store's tables in `schema`; resolves with the versions it applied.
 * A schema already at this version is only read: a role with no right to create (its tables made
 * by an owner, the app given SELECT, INSERT, UPDATE, DELETE) starts as well as the owner.
 */
export async function migrate(db: PgRunner, schema: string): Promise<number[]> {
  const s = quoteIdent(schema)
  const present = await db.query<{ table: string | null }>(`SELECT to_regclass($1)::text AS table`, [`${s}.schema_version`])
  if (present.rows[0]?.table) {
    const { rows } = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.schema_version`)
    if ((rows[0]?.version ?? 0) === SCHEMA_VERSION) return []
  }
  return db.transaction(async (q) => {
    // hashtext is stable across servers and versions: every instance names the same lock.
    await q.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`mcp-bridge schema ${schema}`])
    await q.query(`CREATE SCHEMA IF NOT EXISTS ${s}`)
    await q.query(`CREATE TABLE IF NOT EXISTS ${s}.schema_version (version integer NOT NULL)`)
    const { rows } = await q.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.schema_version`)
    const current = rows[0]?.version ?? 0
    if (current > SCHEMA_VERSION) {
      throw new StoreSchemaError(
        `The Postgres schema "${schema}" is at version ${current}, written by a newer mcp-bridge than this one (which knows ${SCHEMA_VERSION}); upgrade @mcp-bridge/runtime, or give this instance another schema.`,
      )
    }
    const applied: number[] = []
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      for (const statement of MIGRATIONS[version - 1]!(s)) await q.query(statement)
      await q.query(`INSERT INTO ${s}.schema_version (version) VALUES ($1)`, [version])
      applied.push(version)
    }
    return applied
  })
}

/** A schema name as SQL (checked by the options to be letters, digits and _). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}
