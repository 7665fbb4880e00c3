/** The `store` option of the chat handler and the MCP server: anything with the CallStore methods. */
import { z } from 'zod/v4'
import type { CallStore } from './call-store.ts'

const METHODS = ['create', 'get', 'update', 'lock', 'renew', 'unlock', 'lockHolder', 'getConversation', 'putConversation', 'close'] as const

export const callStoreOption = z.custom<CallStore>(
  (value) => typeof value === 'object' && value !== null && METHODS.every((m) => typeof (value as Record<string, unknown>)[m] === 'function'),
  { message: 'takes a call store: createMemoryStore(), await createSqliteStore({ path }) or await createRedisStore({ url }) (did you forget the await?)' },
)
