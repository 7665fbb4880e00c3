/**
 * The Lua scripts of the Redis call store. Each is atomic in Redis and touches the keys of one
 * hash slot only, so the store works on a Redis Cluster as on a single primary:
 *
 *   - a call's own keys — its record `call:{id}`, lock `lock:{id}` and fence counter `fence:{id}`
 *     — share the hash tag `{id}`: the revision check, the lock and its fence are one slot;
 *   - the indexes every instance reads — the running calls and the held calls — share the tag
 *     `{idx}`: admission counts them in one slot.
 *
 * A write of a record and of the indexes are therefore two scripts (`redis-store.ts` orders them
 * so a crash between them is repaired by the next reader: a running call is indexed before its
 * record says so; a stale index entry is dropped when met).
 */

/**
 * Write a call's record (KEYS[1]) at revision ARGV[2] if the stored revision is ARGV[1] ('0':
 * none may exist), expiring at ARGV[4], with its status (ARGV[5]) in a field of its own for
 * STRANDED_ONE; its fence counter (KEYS[2]) lives as long as the record.
 */
export const PUT_CALL = `
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'body', ARGV[3], 'status', ARGV[5], 'surface', ARGV[6])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('PEXPIREAT', KEYS[2], ARGV[4])
return 1`

/** The fence counter lives as long as the call's record (PUT_CALL) or its lock, whichever is longer. */
export const LOCK = `
local fence = redis.call('INCR', KEYS[2])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
if redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'NX', 'PX', ARGV[2]) then return fence end
return 0`

export const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`

export const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`

/** The lock's value (`owner fence`) and what is left of it (ms), read at one moment. */
export const HOLDER = `return { redis.call('GET', KEYS[1]), redis.call('PTTL', KEYS[1]) }`

/**
 * Whether a call listed as running (record KEYS[1], lock KEYS[2]) is stranded for surface ARGV[1]:
 * 1 running with its lock free, 2 held, 3 another surface's, 0 not running (or gone) with its lock
 * free — to leave the index. A held call stays listed whatever its record says: its holder indexes
 * it before it writes it running, and dropping it in between would hide it from recovery for good
 * if that holder then died. A record written before the surface had a field of its own has it in
 * its body.
 */
export const STRANDED_ONE = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 2 end
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
local surface = redis.call('HGET', KEYS[1], 'surface')
if not surface then surface = cjson.decode(redis.call('HGET', KEYS[1], 'body')).surface end
if surface ~= ARGV[1] then return 3 end
return 1`

/**
 * The calls held (not finished), for admission: `{idx}:held:all` (`<client>\n<id>` → until) and
 * one `{idx}:held:client:<client>` (id → until) per client, which expires with its last call.
 * The functions take the key of all as KEYS[h] and the prefix of the per-client keys as ARGV[hp].
 * An entry past its `until` goes when met: from its client's set as that client is counted, and
 * at most 100 from all at each write — so nothing of a call that is gone stays.
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
  local last = redis.call('ZRANGE', mine, -1, -1, 'WITHSCORES')
  redis.call('PEXPIREAT', mine, last[2])
end
local function count(hp, client, now)
  redis.call('ZREMRANGEBYSCORE', ARGV[hp] .. client, '-inf', now)
  return redis.call('ZCARD', ARGV[hp] .. client)
end
-- clientShare of call-store.ts: perClient up to half full, then down to a quarter of it (at least 1) when full.
local function share(all, perClient, total)
  local half = total / 2
  if all <= half then return perClient end
  local floor = math.max(1, math.ceil(perClient / 4))
  local left = math.max(0, (total - all) / half)
  return math.max(floor, math.ceil(floor + (perClient - floor) * left))
end
local function purge(h, now)
  local gone = redis.call('ZRANGEBYSCORE', KEYS[h], '-inf', now, 'LIMIT', 0, 100)
  if #gone > 0 then redis.call('ZREM', KEYS[h], unpack(gone)) end
end
`

/**
 * Keep the indexes in step with a call's record just written: the running calls (KEYS[1]) and the
 * held calls (KEYS[2]). ARGV[1] the per-client key prefix, ARGV[2] the call's id, ARGV[3] its
 * client, ARGV[4] its status, ARGV[5] until when it is held ('' once finished), ARGV[6] now;
 * ARGV[7] 'running' to update the running calls only (a record about to be created: it is
 * counted as held for longer than its claim only once it exists).
 */
export const INDEX = `${HELD}
if ARGV[4] == 'running' then redis.call('SADD', KEYS[1], ARGV[2]) else redis.call('SREM', KEYS[1], ARGV[2]) end
if ARGV[7] == 'running' then return 1 end
if ARGV[5] == '' then release(2, 1, ARGV[2], ARGV[3]) else hold(2, 1, ARGV[2], ARGV[3], ARGV[5]) end
purge(2, ARGV[6])
return 1`

/**
 * Admit a call (ARGV[2], of client ARGV[3], held until ARGV[4]) if its client holds fewer than its
 * share (`share` of ARGV[5], the most per client, and ARGV[6], the total) and all fewer than ARGV[6],
 * at time ARGV[7]; KEYS[1] all held calls, ARGV[1] the
 * per-client key prefix. Refused for the total: how many the admitted call's client holds, then
 * the clients of the 64 calls held longest, each with its count, its call held longest and that
 * call's score (until) — found without a pass over every client.
 */
export const ADMIT = `${HELD}
local now = tonumber(ARGV[7])
local score = redis.call('ZSCORE', KEYS[1], ARGV[3] .. '\\n' .. ARGV[2])
if score and tonumber(score) > now then
  -- a claim renewed while its call runs unrecorded
  if tonumber(ARGV[4]) > tonumber(score) then hold(1, 1, ARGV[2], ARGV[3], ARGV[4]) end
  return {1}
end
local mine = count(1, ARGV[3], now)
purge(1, now)
local all = redis.call('ZCARD', KEYS[1])
local allowed = share(all, tonumber(ARGV[5]), tonumber(ARGV[6]))
if mine >= allowed then return {0, 'client', mine, allowed, all} end
if all >= tonumber(ARGV[6]) then
  local reply, seen = {0, 'total', all, mine}, {}
  local oldest = redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf', 'WITHSCORES', 'LIMIT', 0, 64)
  for i = 1, #oldest, 2 do
    local member = oldest[i]
    local at = string.find(member, '\\n', 1, true)
    local client = string.sub(member, 1, at - 1)
    if not seen[client] then
      seen[client] = true
      table.insert(reply, client)
      table.insert(reply, count(1, client, now))
      table.insert(reply, string.sub(member, at + 1))
      table.insert(reply, oldest[i + 1])
    end
  end
  return reply
end
hold(1, 1, ARGV[2], ARGV[3], ARGV[4])
return {1}`

/** Stop counting call ARGV[2] of client ARGV[3] as held (KEYS[1] all held calls, ARGV[1] the per-client prefix). */
export const RELEASE = `${HELD}
release(1, 1, ARGV[2], ARGV[3])
return 1`

/**
 * A conversation is a hash (KEYS[1]: `rev`, `owner`, `head` JSON, `state` JSON, the log's `len`
 * and `bytes`) and a list of log entries (KEYS[2]), both under the conversation's hash tag.
 *
 * Append ARGV[6..] on top of revision ARGV[1] ('0': it begins) for owner ARGV[2]: `head` ARGV[3],
 * the entries' bytes ARGV[4], expiring at ARGV[5]. Replies the log's length and bytes, or false.
 */
export const APPEND_CONVERSATION = `
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return false end
if current == '0' then
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'state', 'null', 'len', 0, 'bytes', 0)
elseif redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] then
  return false
end
redis.call('HSET', KEYS[1], 'rev', tostring(tonumber(current) + 1), 'head', ARGV[3])
if #ARGV > 5 then redis.call('RPUSH', KEYS[2], unpack(ARGV, 6)) end
local len = redis.call('HINCRBY', KEYS[1], 'len', #ARGV - 5)
local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', ARGV[4])
redis.call('PEXPIREAT', KEYS[1], ARGV[5])
if len > 0 then redis.call('PEXPIREAT', KEYS[2], ARGV[5]) end
return { len, bytes }`

/** Write a conversation whole at revision ARGV[2] on top of ARGV[1] ('0': none): owner ARGV[3], head ARGV[4], state ARGV[5], expiring at ARGV[6]. */
export const PUT_CONVERSATION = `
local current = redis.call('HGET', KEYS[1], 'rev') or '0'
if current ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[1], 'rev', ARGV[2], 'owner', ARGV[3], 'head', ARGV[4], 'state', ARGV[5], 'len', 0, 'bytes', 0)
redis.call('PEXPIREAT', KEYS[1], ARGV[6])
return 1`

/** A conversation's head, state and log as of one moment: { head, len, bytes, state?, entries? } (ARGV[1] 'whole': with state and log). */
export const READ_CONVERSATION = `
local fields = redis.call('HMGET', KEYS[1], 'head', 'len', 'bytes')
if not fields[1] then return false end
if ARGV[1] ~= 'whole' then return fields end
table.insert(fields, redis.call('HGET', KEYS[1], 'state'))
table.insert(fields, redis.call('LRANGE', KEYS[2], 0, -1))
return fields`
