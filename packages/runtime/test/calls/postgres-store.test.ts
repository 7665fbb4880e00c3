/**
 * What the Postgres store adds to the shared contract (`call-store.contract.test.ts` runs that on
 * Postgres and PGlite): it creates and migrates its own schema, safely when several instances
 * start at once; refuses a schema written by a newer version; runs on the app's own pool and
 * leaves it open; its recovery scan skips rows another instance's scan holds; a database that
 * does not answer is a clear error, not a hang; bad options are named.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPostgresStore } from '../../src/server.ts'
import { OptionsError, StoreSchemaError, StoreUnavailableError } from '../../src/errors.ts'
import { SCHEMA_VERSION } from '../../src/calls/stores/postgres-schema.ts'
import { type PostgresProcess, startPostgres } from '../support/postgres-server.ts'
import { freePort } from '../support/redis-server.ts'
import { runningRecord } from '../support/call-records.ts'

let server: PostgresProcess
let pool: pg.Pool

const running = (callId: string) => runningRecord(callId, Date.now())

// Plain JavaScript over the wire: it runs once, on the first Node of CI's (MCP_BRIDGE_NODE_ONLY skips it).
describe.skipIf(process.env.MCP_BRIDGE_NODE_ONLY === '1')('the Postgres store', () => {
  beforeAll(async () => {
    server = await startPostgres()
    pool = server.pool({ max: 4 })
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('creates its schema itself, once, when five instances start at once', async () => {
    const stores = await Promise.all(Array.from({ length: 5 }, () => createPostgresStore({ connectionString: server.url, schema: 'started_together' })))
    const versions = await pool.query('SELECT version FROM started_together.schema_version ORDER BY version')
    expect(versions.rows.map((r: { version: number }) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1))
    // Every instance sees what another wrote.
    expect(await stores[0]!.create(running('together-1'))).toBe(true)
    expect((await stores[4]!.get('together-1'))?.callId).toBe('together-1')
    const secrets = await Promise.all(stores.map((s) => s.sharedSecret()))
    expect(new Set(secrets.map((s) => Buffer.from(s).toString('hex'))).size).toBe(1)
    for (const s of stores) await s.close()
  })

  it('refuses a schema written by a newer mcp-bridge, saying what to do', async () => {
    await pool.query('CREATE SCHEMA newer')
    await pool.query('CREATE TABLE newer.schema_version (version integer NOT NULL)')
    await pool.query('INSERT INTO newer.schema_version VALUES ($1)', [SCHEMA_VERSION + 1])
    const refused = createPostgresStore({ connectionString: server.url, schema: 'newer' })
    await expect(refused).rejects.toBeInstanceOf(StoreSchemaError)
    await expect(createPostgresStore({ connectionString: server.url, schema: 'newer' })).rejects.toThrow(
      `The Postgres schema "newer" is at version ${SCHEMA_VERSION + 1}, written by a newer mcp-bridge than this one (which knows ${SCHEMA_VERSION}); upgrade @mcp-bridge/runtime, or give this instance another schema.`,
    )
  })

  it('runs as a role that may only read and write its tables, once an owner created them (no CREATE needed)', async () => {
    const owner = await createPostgresStore({ connectionString: server.url, schema: 'granted' })
    await owner.close()
    await pool.query(`CREATE ROLE app_user LOGIN`)
    await pool.query(`GRANT USAGE ON SCHEMA granted TO app_user`)
    await pool.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA granted TO app_user`)
    const app = await createPostgresStore({ connectionString: server.url.replace('postgres@', 'app_user@'), schema: 'granted' })
    expect(await app.create(running('granted-1'))).toBe(true)
    expect(await app.lock('granted-1', 'me', 5_000)).toMatchObject({ fence: 1 })
    expect(await app.admit({ callId: 'granted-2', client: 'c', until: Date.now() + 60_000 }, { perClient: 5, total: 10 })).toEqual({ admitted: true })
    await app.close()
    // Without the rights, it says so rather than failing later.
    await pool.query(`CREATE ROLE stranger LOGIN`)
    await expect(createPostgresStore({ connectionString: server.url.replace('postgres@', 'stranger@'), schema: 'granted' })).rejects.toThrow(/permission denied/)
  })

  it("runs on the app's own pool and leaves it open when closed", async () => {
    const store = await createPostgresStore({ pool, schema: 'app_pool' })
    expect(await store.create(running('pool-1'))).toBe(true)
    await store.close()
    expect((await pool.query('SELECT count(*)::int AS n FROM app_pool.calls')).rows[0]).toEqual({ n: 1 })
  })

  it("leaves a stranded call another instance's scan holds to it (SKIP LOCKED)", async () => {
    const store = await createPostgresStore({ connectionString: server.url, schema: 'scans' })
    for (const id of ['s-1', 's-2', 's-3']) await store.create(running(id))
    const other = await pool.connect()
    try {
      await other.query('BEGIN')
      await other.query(`SELECT call_id FROM scans.calls WHERE call_id = 's-2' FOR UPDATE`)
      expect((await store.stranded(10, 'chat')).sort()).toEqual(['s-1', 's-3'])
      await other.query('COMMIT')
      expect((await store.stranded(10, 'chat')).sort()).toEqual(['s-1', 's-2', 's-3'])
    } finally {
      other.release()
      await store.close()
    }
  })

  it('says a database that does not answer, without the password, instead of hanging', async () => {
    const port = await freePort()
    const started = Date.now()
    const failed = createPostgresStore({ connectionString: `postgres://app:secret@127.0.0.1:${port}/app` })
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError)
    await expect(createPostgresStore({ connectionString: `postgres://app:secret@127.0.0.1:${port}/app` })).rejects.toThrow(
      new RegExp(`^The postgres call store at postgres://\\*\\*\\*@127\\.0\\.0\\.1:${port}/app did not answer: .*ECONNREFUSED`),
    )
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('on PGlite in a folder of its own (its parents created), keeps what it stored across a close and a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-bridge-pglite-'))
    try {
      const dataDir = join(dir, 'data', 'pg')
      const first = await createPostgresStore({ pglite: dataDir })
      expect(await first.create(running('kept-1'))).toBe(true)
      await first.close()
      const reopened = await createPostgresStore({ pglite: dataDir })
      expect((await reopened.get('kept-1'))?.callId).toBe('kept-1')
      await reopened.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('names bad options', async () => {
    await expect(createPostgresStore({ connectionString: 'localhost:5432' })).rejects.toThrow(OptionsError)
    await expect(createPostgresStore({ connectionString: 'localhost:5432' })).rejects.toThrow(/connectionString: a postgres:\/\/ URL/)
    await expect(createPostgresStore({ connectionString: server.url, schema: 'drop table' })).rejects.toThrow(/schema: letters, digits and _ only/)
    await expect(createPostgresStore({ connectionString: server.url, maxConnections: 0 })).rejects.toThrow(/maxConnections/)
    await expect(createPostgresStore({} as never)).rejects.toThrow(OptionsError)
  })
})
