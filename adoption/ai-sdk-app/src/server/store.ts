import { join } from 'node:path'
import { createRedisStore, createSqliteStore, type CallStore } from '@mcp-bridge/runtime/server'

/** Where this app keeps its files (the ticket ledger, the call store, saved chats): DATA_DIR, else ./data. */
export const dataDir = process.env.DATA_DIR ?? join(process.cwd(), 'data')
/** The ticket ledger of the book_flight tool. */
export const dataFile = () => join(dataDir, 'tickets.db')

/** Calls that wait for a person: Redis when several servers share them, else a SQLite file. */
export function callStore(): Promise<CallStore> {
  return process.env.REDIS_URL ? createRedisStore({ url: process.env.REDIS_URL }) : createSqliteStore({ path: join(dataDir, 'calls.db') })
}
