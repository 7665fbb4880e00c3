/**
 * `createRedisStore({ url })`: the call store for several instances of a server. Every rule that
 * must hold across instances is one Lua script, atomic in Redis:
 *
 *   - `create`/`update` compare the stored revision before writing, so only the writer that read
 *     the latest revision wins;
 *   - a call's lock is `SET lock NX PX ttl` holding `owner fence`, the fence taken from a counter
 *     that only grows, so a holder whose lease ran out can neither renew nor release the next
 *     holder's lock;
 *   - records carry their expiry (PEXPIREAT), so Redis forgets a call when the call's retention ends.
 *
 * The driver is `ioredis` (an optional peer). Commands fail after two reconnection attempts
 * instead of queueing forever: a request never hangs on a Redis that is down.
 *
 * Waiting calls live only in Redis, so they survive a restart of Redis only if it persists them:
 * with an append-only file (`appendonly yes`). At connect the store asks Redis (`CONFIG GET`)
 * and warns once when it keeps none; a managed Redis that refuses `CONFIG` is taken at its word.
 */
import { z } from 'zod'
import { formatIssues, summarizeIssues } from '../../errors/issues.ts'
import type { CallLease, CallRecord, CallStore, ConversationRecord } from './call-store.ts'
import { loadDriver } from './load-driver.ts'
import { StoreClosedError, StoreUnavailableError } from './store-errors.ts'
import { OptionsError } from '../../errors/options-error.ts'

export interface RedisStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. */
  url: string
  /** Prefix of every key (default `mcp-bridge:`), to share a Redis with the app or other deployments. */
  keyPrefix?: string
  /**
   * Told once, at connect, when this Redis would lose waiting calls on a restart (no append-only
   * file). Default: `console.warn`.
   */
  onWarning?: (message: string) => void
}

/** The part of ioredis this store uses. */
interface RedisClient {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>
  hget(key: string, field: string): Promise<string | null>
  config(operation: 'GET', parameter: string): Promise<unknown>
  quit(): Promise<unknown>
  disconnect(): void
  on(event: 'error', listener: (error: Error) => void): unknown
}
type RedisConstructor = new (url: string, options: Record<string, unknown>) => RedisClient

const optionsSchema = z
  .object({
    url: z.string().regex(/^rediss?:\/\/\S+$/, 'a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379"'),
    keyPrefix: z.string().min(1).max(100).optional(),
    onWarning: z.function().optional(),
  })
  .strict()

/** Write `body` at revision ARGV[2] if the stored revision is ARGV[1] ('0': none may exist). */
const PUT = `
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`

/** PUT for a call's record (KEYS[1]), keeping the set of running calls (KEYS[2]) in step: ARGV[5] its status, ARGV[6] its id. */
const PUT_CALL = `
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
if ARGV[5] == 'running' then redis.call('SADD', KEYS[2], ARGV[6]) else redis.call('SREM', KEYS[2], ARGV[6]) end
return 1`

/**
 * Running calls (KEYS[1]) whose lock is free, at most ARGV[2]; a member whose record expired
 * leaves the set. Keys are named from the prefix ARGV[1], so this is one script on one Redis.
 */
const STRANDED = `
local found = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if #found >= tonumber(ARGV[2]) then break end
  if redis.call('EXISTS', ARGV[1] .. 'call:' .. id) == 0 then redis.call('SREM', KEYS[1], id)
  elseif redis.call('EXISTS', ARGV[1] .. 'lock:' .. id) == 0 then table.insert(found, id) end
end
return found`

const LOCK = `
local fence = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'NX', 'PX', ARGV[2]) then return fence end
return 0`

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

/** The lock's value (`owner fence`) and what is left of it (ms), read at one moment. */
const HOLDER = `return { redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1]) }`

/** Fence counters outlive any lock by far; a week covers every call's retention. */
const FENCE_TTL_MS = 7 * 24 * 3600_000

export async function createRedisStore(options: RedisStoreOptions): Promise<CallStore> {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new OptionsError('createRedisStore', summarizeIssues(checked.error.issues))
  }
  const { url, keyPrefix = 'mcp-bridge:' } = checked.data
  const warn = (options.onWarning as ((message: string) => void) | undefined) ?? ((message: string) => console.warn(message))
  const Redis = await loadDriver<RedisConstructor>('createRedisStore', 'ioredis', (m) => m.Redis ?? m.default)
  const redis = new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 5000, lazyConnect: false })
  // Connection errors surface on the commands that fail; without a listener ioredis would also print them.
  redis.on('error', () => {})
  let closed = false

  const key = {
    call: (id: string) => `${keyPrefix}call:${id}`,
    lock: (id: string) => `${keyPrefix}lock:${id}`,
    fence: (id: string) => `${keyPrefix}fence:${id}`,
    conversation: (id: string) => `${keyPrefix}conversation:${id}`,
    running: `${keyPrefix}running`,
  }
  async function command<T>(run: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreClosedError('Redis')
    try {
      return await run()
    } catch (error) {
      throw new StoreUnavailableError('redis', url, error)
    }
  }
  const put = (k: string, previous: number, revision: number, body: unknown, expiresAt: number) =>
    command(() => redis.eval(PUT, 1, k, String(previous), String(revision), JSON.stringify(body), String(expiresAt))).then((r) => r === 1)
  const putCall = (r: CallRecord, previous: number) =>
    command(() =>
      redis.eval(PUT_CALL, 2, key.call(r.callId), key.running, String(previous), String(r.revision), JSON.stringify(r), String(r.expiresAt), r.status, r.callId),
    ).then((result) => result === 1)
  async function read<T>(k: string): Promise<T | undefined> {
    const body = await command(() => redis.hget(k, 'body'))
    return body === null ? undefined : (JSON.parse(body) as T)
  }

  // Asked beside the first commands, never before them: a Redis that is down fails those clearly.
  void persistenceProblem(redis).then((problem) => problem && !closed && warn(`createRedisStore: ${problem}`))

  return {
    kind: 'redis',
    create: (r: CallRecord) => putCall(r, 0),
    get: (callId) => read<CallRecord>(key.call(callId)),
    update: (r) => putCall(r, r.revision - 1),
    async lock(callId, owner, ttlMs) {
      const fence = Number(await command(() => redis.eval(LOCK, 2, key.lock(callId), key.fence(callId), owner, ttlMs, FENCE_TTL_MS)))
      return fence > 0 ? { callId, owner, fence } : undefined
    },
    async renew(lease: CallLease, ttlMs) {
      return (await command(() => redis.eval(RENEW, 1, key.lock(lease.callId), `${lease.owner} ${lease.fence}`, ttlMs))) === 1
    },
    async unlock(lease) {
      await command(() => redis.eval(UNLOCK, 1, key.lock(lease.callId), `${lease.owner} ${lease.fence}`))
    },
    async lockHolder(callId) {
      const [value, ttl] = (await command(() => redis.eval(HOLDER, 1, key.lock(callId)))) as [string | false | null, number]
      if (!value || !(ttl > 0)) return undefined
      return { owner: value.slice(0, value.lastIndexOf(' ')), expiresInMs: ttl }
    },
    async stranded(limit) {
      return (await command(() => redis.eval(STRANDED, 1, key.running, keyPrefix, limit))) as string[]
    },
    getConversation: (id) => read<ConversationRecord>(key.conversation(id)),
    putConversation: (r: ConversationRecord) => put(key.conversation(r.id), r.revision - 1, r.revision, r, r.expiresAt),
    async close() {
      if (closed) return
      closed = true
      await redis.quit().catch(() => redis.disconnect())
    },
  }
}

/**
 * Why this Redis would lose waiting calls when it restarts, or `undefined` when it keeps them
 * (append-only file on) or will not say (`CONFIG` refused, or Redis not reachable yet: its
 * commands will say that).
 */
async function persistenceProblem(redis: RedisClient): Promise<string | undefined> {
  let appendonly: unknown
  let save: unknown
  try {
    appendonly = ((await redis.config('GET', 'appendonly')) as unknown[])?.[1]
    save = ((await redis.config('GET', 'save')) as unknown[])?.[1]
  } catch {
    return undefined
  }
  if (appendonly !== 'no') return undefined
  const lost = typeof save === 'string' && save.trim() !== '' ? 'what changed since its last snapshot' : 'every waiting call'
  return (
    `this Redis keeps no append-only file (appendonly no), so a restart of Redis loses ${lost}. ` +
    'Turn it on: start redis-server with --appendonly yes --appendfsync everysec (at most a second of writes lost on a crash; always: none, slower), or CONFIG SET appendonly yes.'
  )
}
