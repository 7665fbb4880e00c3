/**
 * `createRedisStore({ url })`: the call store for several instances of a server, on one Redis
 * primary or a Redis Cluster. Every rule that must hold across instances is a Lua script, atomic
 * in Redis (`redis-scripts.ts`):
 *
 *   - `create`/`update` compare the stored revision before writing, so only the writer that read
 *     the latest revision wins;
 *   - a call's lock is `SET lock NX PX ttl` holding `owner fence`, the fence taken from a counter
 *     that only grows while the call lives, so a holder whose lease ran out can neither renew nor
 *     release the next holder's lock;
 *   - records carry their expiry (PEXPIREAT), and so does every other key of a call: Redis forgets
 *     a call, all of it, when the call's retention ends.
 *
 * Waiting calls live only in Redis, so they survive a restart of Redis only if it persists them:
 * with an append-only file (`appendonly yes`). At connect the store asks Redis (`CONFIG GET`)
 * and warns once when it keeps none; a managed Redis that refuses `CONFIG` is taken at its word.
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod/v4'
import { functionOption } from '../../schema/function-option.ts'
import { consoleLogger } from '../../telemetry/logger.ts'
import { summarizeIssues } from '../../errors/issues.ts'
import { heldUntil, type Admission, type CallLease, type CallRecord, type CallStore, type HeldBy } from './call-store.ts'
import { connectRedis, type RedisClient } from './redis-connection.ts'
import { redisConversations } from './redis-conversations.ts'
import { ADMIT, HOLDER, INDEX, LOCK, PUT_CALL, RELEASE, RENEW, STRANDED_ONE, UNLOCK } from './redis-scripts.ts'
import { StoreClosedError, StoreUnavailableError } from '../../errors/store-errors.ts'
import { OptionsError } from '../../errors/options-error.ts'
import { clockOption, systemClock, type Clock } from '../../time/clock.ts'

/** Set the store's secret unless it is set, and return it. */
const SHARED_SECRET = "redis.call('SET', KEYS[1], ARGV[1], 'NX'); return redis.call('GET', KEYS[1])"

/**
 * Options of `createRedisStore`: the URL (or a cluster's node URLs), a key prefix, and what to do about a Redis that would lose calls on restart.
 */
export interface RedisStoreOptions {
  /**
   * `redis://[user:password@]host:port[/db]` or `rediss://` for TLS. For a Redis Cluster: the
   * URLs of some of its nodes (a list), or one with `cluster: true`.
   */
  url: string | readonly string[]
  /** Connect to a Redis Cluster (default: true when `url` is a list). */
  cluster?: boolean
  /** Prefix of every key (default `mcp-bridge:`), to share a Redis with the app or other deployments. */
  keyPrefix?: string
  /**
   * Told once, at connect, when this Redis would lose waiting calls on a restart (no append-only
   * file). Default: a warning on the console.
   */
  onWarning?: (message: string) => void
  /**
   * What the held calls' deadlines are measured with (default: wall time; tests:
   * `createTestClock()`); give the same clock as the server's.
   */
  clock?: Clock
}

const redisUrl = z.string().regex(/^rediss?:\/\/\S+$/, 'a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379"')
const optionsSchema = z
  .object({
    url: z.union([redisUrl, z.array(redisUrl).min(1, "give at least one of the cluster's nodes")]),
    cluster: z.boolean().optional(),
    // Braces would change which part of a key Redis Cluster hashes (its hash tag).
    keyPrefix: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^{}]*$/, 'no { or } (they would change how Redis Cluster places the keys)')
      .optional(),
    onWarning: functionOption().optional(),
    clock: clockOption.optional(),
  })
  .strict()
  .refine((o) => !(Array.isArray(o.url) && o.url.length > 1 && o.cluster === false), {
    message: 'several URLs are the nodes of a Redis Cluster; with cluster: false give one URL',
    path: ['cluster'],
  })

/** How many running calls `stranded` checks at once. */
const STRANDED_BATCH = 100

/**
 * Calls kept in Redis (or a Redis Cluster), for several instances behind a load balancer: a per-call lock lets
 * exactly one instance advance a call. Needs the optional peer `ioredis`.
 *
 * @example
 * ```ts
 * import { createChatHandler, createRedisStore } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * const store = await createRedisStore({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' })
 * export const chat = createChatHandler({ tools: serverTools, model: createScriptedModel({}), store })
 * ```
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<CallStore> {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new OptionsError('createRedisStore', summarizeIssues(checked.error.issues))
  }
  const { keyPrefix = 'mcp-bridge:', clock = systemClock } = checked.data
  const urls = typeof checked.data.url === 'string' ? [checked.data.url] : checked.data.url
  const cluster = checked.data.cluster ?? Array.isArray(checked.data.url)
  const where = urls.join(', ')
  const warn = (options.onWarning as ((message: string) => void) | undefined) ?? ((message: string) => consoleLogger.warn({ store: 'redis' }, message))
  const redis = await connectRedis(urls, cluster)
  let closed = false

  // A call's keys share the hash tag {id}; the indexes every instance reads share {idx}.
  const key = {
    call: (id: string) => `${keyPrefix}call:{${id}}`,
    lock: (id: string) => `${keyPrefix}lock:{${id}}`,
    fence: (id: string) => `${keyPrefix}fence:{${id}}`,
    running: `${keyPrefix}{idx}:running`,
    held: `${keyPrefix}{idx}:held:all`,
    heldClientPrefix: `${keyPrefix}{idx}:held:client:`,
    secret: `${keyPrefix}shared-secret`,
  }
  async function command<T>(run: () => Promise<T>): Promise<T> {
    if (closed) throw new StoreClosedError('Redis')
    try {
      return await run()
    } catch (error) {
      throw new StoreUnavailableError('redis', where, error)
    }
  }
  const index = (r: CallRecord, only: 'running' | 'both' = 'both') =>
    command(() => redis.eval(INDEX, 2, key.running, key.held, key.heldClientPrefix, r.callId, r.client, r.status, String(heldUntil(r) ?? ''), String(clock.now()), only))
  /**
   * The record, then the indexes (two slots, two scripts). A running call is indexed first, so a
   * crash between the two cannot hide it from recovery; a stale entry left the other way round is
   * dropped by `stranded` or expires with its `until`.
   */
  async function putCall(r: CallRecord, previous: number): Promise<boolean> {
    // A new record's held count is extended past its claim only once the record exists: a crash
    // between the two leaves no count for a call nobody can find (the claim lapses).
    const creating = previous === 0
    if (r.status === 'running') await index(r, creating ? 'running' : 'both')
    const args = [String(previous), String(r.revision), JSON.stringify(r), String(r.expiresAt), r.status, r.surface]
    const written = (await command(() => redis.eval(PUT_CALL, 2, key.call(r.callId), key.fence(r.callId), ...args))) === 1
    if (written && (r.status !== 'running' || creating)) await index(r)
    return written
  }
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
      const fence = Number(await command(() => redis.eval(LOCK, 2, key.lock(callId), key.fence(callId), owner, ttlMs)))
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
    async stranded(limit, surface) {
      // The index is one slot and each call another: walked in batches, each call checked in its own slot.
      const found: string[] = []
      let cursor = '0'
      do {
        const [next, ids] = await command(() => redis.sscan(key.running, cursor, 'COUNT', STRANDED_BATCH))
        cursor = next
        const states = await Promise.all(ids.map((id) => command(() => redis.eval(STRANDED_ONE, 2, key.call(id), key.lock(id), surface))))
        const gone = ids.filter((_, i) => states[i] === 0)
        if (gone.length > 0) await command(() => redis.srem(key.running, ...gone))
        for (const [i, id] of ids.entries()) if (states[i] === 1 && found.length < limit) found.push(id)
      } while (cursor !== '0' && found.length < limit)
      return found
    },
    async admit(call, limits) {
      const args = [key.heldClientPrefix, call.callId, call.client, call.until, limits.perClient, limits.total, clock.now()]
      return admission((await command(() => redis.eval(ADMIT, 1, key.held, ...args))) as Array<string | number | null>)
    },
    async release(call) {
      await command(() => redis.eval(RELEASE, 1, key.held, key.heldClientPrefix, call.callId, call.client))
    },
    ...redisConversations(redis, keyPrefix, clock, command),
    async sharedSecret() {
      // The first instance's SET NX wins; every other reads what it wrote (one script: one round trip).
      const stored = (await command(() => redis.eval(SHARED_SECRET, 1, key.secret, randomBytes(32).toString('base64')))) as string
      return Uint8Array.from(Buffer.from(stored, 'base64'))
    },
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

/** ADMIT's reply as an `Admission`. */
function admission(reply: Array<string | number | null>): Admission {
  if (reply[0] === 1) return { admitted: true }
  const held = Number(reply[2])
  if (reply[1] === 'client') return { admitted: false, full: 'client', held, share: Number(reply[3]), all: Number(reply[4]) }
  const holders: HeldBy[] = []
  for (let i = 4; i + 3 < reply.length; i += 4) {
    holders.push({ client: String(reply[i]), held: Number(reply[i + 1]), oldest: String(reply[i + 2]), until: Number(reply[i + 3]) })
  }
  return { admitted: false, full: 'total', held, holders, clientHeld: Number(reply[3]) }
}
