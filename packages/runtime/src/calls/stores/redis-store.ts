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
import { heldUntil, type Admission, type CallLease, type CallRecord, type CallStore, type ConversationRecord } from './call-store.ts'
import { loadDriver } from './load-driver.ts'
import { StoreClosedError, StoreUnavailableError } from './store-errors.ts'
import { OptionsError } from '../../errors/options-error.ts'
import { clockOption, systemClock, type Clock } from '../../time/clock.ts'

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
  /**
   * What the held calls' deadlines are measured with (default: wall time; tests:
   * `createTestClock()`); give the same clock as the server's.
   */
  clock?: Clock
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
    clock: clockOption.optional(),
  })
  .strict()

/** Write `body` at revision ARGV[2] if the stored revision is ARGV[1] ('0': none may exist). */
const PUT = `
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`

/**
 * The calls held (not finished), for `admit`: `held:all` (`<client>\n<id>` → until) and one
 * `held:client:<client>` (id → until) per client, which expires with its last call. The shared
 * functions below take the key of all as KEYS[h] and the prefix of the per-client keys as
 * ARGV[hp]. An entry past its `until` goes when met: from its client's set as that client is
 * counted, and at most 100 from all at each write — so nothing of a call that is gone stays.
 */
const HELD = `
local function release(h, hp, id, client)
  redis.call('ZREM', KEYS[h], client .. '\\n' .. id)
  redis.call('ZREM', ARGV[hp] .. client, id)
end
local function hold(h, hp, id, client, untilMs)
  local mine = ARGV[hp] .. client
  redis.call('ZADD', KEYS[h], untilMs, client .. '\\n' .. id)
  redis.call('ZADD', mine, untilMs, id)
  if redis.call('PTTL', mine) >= 0 then
    local last = redis.call('ZRANGE', mine, -1, -1, 'WITHSCORES')
    redis.call('PEXPIREAT', mine, last[2])
  else
    redis.call('PEXPIREAT', mine, untilMs)
  end
end
local function count(hp, client, now)
  redis.call('ZREMRANGEBYSCORE', ARGV[hp] .. client, '-inf', now)
  return redis.call('ZCARD', ARGV[hp] .. client)
end
local function purge(h, now)
  local gone = redis.call('ZRANGEBYSCORE', KEYS[h], '-inf', now, 'LIMIT', 0, 100)
  if #gone > 0 then redis.call('ZREM', KEYS[h], unpack(gone)) end
end
`

/**
 * PUT for a call's record (KEYS[1]), keeping in step the set of running calls (KEYS[2]), the
 * call's fence counter (KEYS[3], which lives as long as the record) and the held calls (KEYS[4]):
 * ARGV[5] its status, ARGV[6] its id, ARGV[7] the per-client key prefix, ARGV[8] its client,
 * ARGV[9] until when it is held ('' once finished), ARGV[10] now.
 */
const PUT_CALL = `${HELD}
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('PEXPIREAT', KEYS[3], ARGV[4])
if ARGV[5] == 'running' then redis.call('SADD', KEYS[2], ARGV[6]) else redis.call('SREM', KEYS[2], ARGV[6]) end
if ARGV[9] == '' then release(4, 7, ARGV[6], ARGV[8]) else hold(4, 7, ARGV[6], ARGV[8], ARGV[9]) end
purge(4, ARGV[10])
return 1`

/**
 * Admit a call (ARGV[2], of client ARGV[3], held until ARGV[4]) if its client holds fewer than
 * ARGV[5] and all fewer than ARGV[6], at time ARGV[7]; KEYS[1] all held calls, ARGV[1] the
 * per-client key prefix. Refused for the total: of the 64 calls held longest, the client holding
 * the most of them, its count, and its call held longest — found without a pass over every client.
 */
const ADMIT = `${HELD}
local now = tonumber(ARGV[7])
local score = redis.call('ZSCORE', KEYS[1], ARGV[3] .. '\\n' .. ARGV[2])
if score and tonumber(score) > now then return {1} end
local mine = count(1, ARGV[3], now)
if mine >= tonumber(ARGV[5]) then return {0, 'client', mine} end
purge(1, now)
local all = redis.call('ZCARD', KEYS[1])
if all >= tonumber(ARGV[6]) then
  local seen, first, best = {}, {}, nil
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf', 'LIMIT', 0, 64)) do
    local at = string.find(member, '\\n', 1, true)
    local client, id = string.sub(member, 1, at - 1), string.sub(member, at + 1)
    seen[client] = (seen[client] or 0) + 1
    if not first[client] then first[client] = id end
    if not best or seen[client] > seen[best] then best = client end
  end
  if not best then return {0, 'total', all} end
  return {0, 'total', all, best, count(1, best, now), first[best], mine}
end
hold(1, 1, ARGV[2], ARGV[3], ARGV[4])
return {1}`

/** Stop counting call ARGV[2] of client ARGV[3] as held. */
const RELEASE = `${HELD}
release(1, 1, ARGV[2], ARGV[3])
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

/** The fence counter lives as long as the call's record (PUT_CALL) or its lock, whichever is longer. */
const LOCK = `
local fence = redis.call('INCR', KEYS[2])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
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


export async function createRedisStore(options: RedisStoreOptions): Promise<CallStore> {
  const checked = optionsSchema.safeParse(options ?? {})
  if (!checked.success) {
    throw new OptionsError('createRedisStore', summarizeIssues(checked.error.issues))
  }
  const { url, keyPrefix = 'mcp-bridge:', clock = systemClock } = checked.data
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
    held: `${keyPrefix}held:all`,
    heldClientPrefix: `${keyPrefix}held:client:`,
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
      redis.eval(
        PUT_CALL,
        4,
        key.call(r.callId),
        key.running,
        key.fence(r.callId),
        key.held,
        String(previous),
        String(r.revision),
        JSON.stringify(r),
        String(r.expiresAt),
        r.status,
        r.callId,
        key.heldClientPrefix,
        r.client,
        String(heldUntil(r) ?? ''),
        String(clock.now()),
      ),
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
    async stranded(limit) {
      return (await command(() => redis.eval(STRANDED, 1, key.running, keyPrefix, limit))) as string[]
    },
    async admit(call, limits) {
      const args = [key.heldClientPrefix, call.callId, call.client, call.until, limits.perClient, limits.total, clock.now()]
      const reply = (await command(() => redis.eval(ADMIT, 1, key.held, ...args))) as Array<string | number | null>
      return admission(reply)
    },
    async release(call) {
      await command(() => redis.eval(RELEASE, 1, key.held, key.heldClientPrefix, call.callId, call.client))
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

/** ADMIT's reply as an `Admission`. */
function admission(reply: Array<string | number | null>): Admission {
  if (reply[0] === 1) return { admitted: true }
  const held = Number(reply[2])
  if (reply[1] === 'client') return { admitted: false, full: 'client', held }
  const [client, n, oldest, mine] = reply.slice(3)
  if (typeof client !== 'string' || typeof oldest !== 'string') return { admitted: false, full: 'total', held }
  return { admitted: false, full: 'total', held, busiest: { client, held: Number(n), oldest }, clientHeld: Number(mine) }
}
