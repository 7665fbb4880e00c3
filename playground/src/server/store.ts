/**
 * Where the playground keeps its data. Tool calls are durable: kept in SQLite in
 * `playground/data/playground.db` (git-ignored; MCP_BRIDGE_DATA moves the folder), so a restart
 * or a reload loses no waiting call — or, so several instances share them, in Redis when
 * REDIS_URL is set, or in Postgres when DATABASE_URL is (a postgres:// URL). The ticket ledger
 * lives in the SQLite file either way.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createPostgresStore, createRedisStore, createSqliteStore, type CallStore } from '@mcp-bridge/runtime/server'

export function dataFile(env: Record<string, string | undefined> = process.env): string {
  const folder = env.MCP_BRIDGE_DATA ?? fileURLToPath(new URL('../../data/', import.meta.url))
  return join(folder, 'playground.db')
}

export function chooseStore(env: Record<string, string | undefined> = process.env): Promise<CallStore> {
  if (env.REDIS_URL) return createRedisStore({ url: env.REDIS_URL })
  if (env.DATABASE_URL) return createPostgresStore({ connectionString: env.DATABASE_URL })
  return createSqliteStore({ path: dataFile(env) })
}
