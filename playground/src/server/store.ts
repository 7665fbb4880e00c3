/**
 * Where the playground keeps its data. Tool calls are durable: kept in SQLite in
 * `playground/data/playground.db` (git-ignored; MCP_BRIDGE_DATA moves the folder), so a restart
 * or a reload loses no waiting call — or in Redis when REDIS_URL is set, so several instances
 * share them. The ticket ledger lives in the same SQLite file.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createRedisStore, createSqliteStore, type CallStore } from '@mcp-bridge/runtime/server'

export function dataFile(env: Record<string, string | undefined> = process.env): string {
  const folder = env.MCP_BRIDGE_DATA ?? fileURLToPath(new URL('../../data/', import.meta.url))
  return join(folder, 'playground.db')
}

export function chooseStore(env: Record<string, string | undefined> = process.env): Promise<CallStore> {
  return env.REDIS_URL ? createRedisStore({ url: env.REDIS_URL }) : createSqliteStore({ path: dataFile(env) })
}
