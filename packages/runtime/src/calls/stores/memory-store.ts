/**
 * `createMemoryStore()`: the call store in this process's memory — for tests, and for a single
 * server that accepts losing waiting calls when it restarts. Records are kept as JSON text, like
 * the other stores keep them, so nobody can change a stored record by mutating an object.
 * Memory is bounded: expired records are swept as new ones arrive, and at most `maxConversations`
 * conversations are kept (any client can start one), the least recently saved going first.
 */
import { randomBytes } from 'node:crypto'
import { z } from 'zod/v4'
import { summarizeIssues } from '../../errors/issues.ts'
import { clientShare, heldUntil, type Admission, type CallLease, type CallRecord, type CallStore, type ConversationHead, type HeldBy } from './call-store.ts'
import { StoreClosedError } from '../../errors/store-errors.ts'
import { appendedHead, writtenHead } from './conversation-format.ts'
import { clockOption, systemClock, type Clock } from '../../time/clock.ts'
import { OptionsError } from '../../errors/options-error.ts'

/**
 * Options of `createMemoryStore`: how many conversations to keep and the clock.
 */
export interface MemoryStoreOptions {
  /** Most conversations kept at once (default 10,000); past it the least recently saved is forgotten. */
  maxConversations?: number
  /** What expiry and lock leases are measured with (default: wall time; tests: `createTestClock()`). */
  clock?: Clock
}

const optionsSchema = z.object({ maxConversations: z.number().int().positive().optional(), clock: clockOption.optional() }).strict()

/** Sweep expired records every this many writes. */
const SWEEP_EVERY = 500

interface Entry {
  text: string
  revision: number
  expiresAt: number
  /** A call's surface, kept beside its text so `stranded` need not parse it. */
  surface?: string
}

/** A conversation: its head and state as JSON, and its log's entries as JSON, one each. */
interface ConversationEntry {
  head: ConversationHead
  state: string
  log: string[]
  revision: number
  expiresAt: number
}

/**
 * Calls kept in this process's memory: the default, for tests and a single process that may lose waiting calls
 * on restart.
 *
 * @example
 * ```ts
 * import { createChatHandler, createMemoryStore } from '@mcp-bridge/runtime/server'
 * import { createScriptedModel } from '@mcp-bridge/runtime/testing'
 * import { serverTools } from './mcp-bridge/server.gen.ts'
 *
 * export const chat = createChatHandler({ tools: serverTools, model: createScriptedModel({}), store: createMemoryStore({ maxConversations: 1_000 }) })
 * ```
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): CallStore {
  const checked = optionsSchema.safeParse(options)
  if (!checked.success) {
    throw new OptionsError('createMemoryStore', summarizeIssues(checked.error.issues))
  }
  const maxConversations = checked.data.maxConversations ?? 10_000
  const clock = checked.data.clock ?? systemClock
  const calls = new Map<string, Entry>()
  const conversations = new Map<string, ConversationEntry>()
  // A released lock keeps its row (until = 0), so the call's fence keeps growing across holders.
  const locks = new Map<string, { owner: string; fence: number; until: number }>()
  /** Ids of calls whose record says `running` (the index `stranded` reads). */
  const running = new Set<string>()
  /** Calls held (not finished), for `admit`: each one's client and until when it counts. */
  const held = new Map<string, { client: string; until: number }>()
  const heldBy = new Map<string, Set<string>>()
  let closed = false
  let lockings = 0
  let writes = 0

  function sweepExpired(): void {
    const now = clock.now()
    for (const map of [calls, conversations]) for (const [id, entry] of map) if (entry.expiresAt <= now) map.delete(id)
  }

  /** Forget released locks of calls that have no record (their fences protect nothing any more). */
  function sweepLocks(): void {
    const now = clock.now()
    for (const [id, lock] of locks) if (lock.until <= now && !live(calls, id)) locks.delete(id)
  }

  function live<V extends { expiresAt: number }>(map: Map<string, V>, id: string): V | undefined {
    const entry = map.get(id)
    if (entry && entry.expiresAt <= clock.now()) {
      map.delete(id)
      return undefined
    }
    return entry
  }
  function open(): void {
    if (closed) throw new StoreClosedError('memory')
  }
  /** Store `record` at `revision` if the live entry has revision `previous` (0: there is none). */
  function put(map: Map<string, Entry>, id: string, record: { revision: number; expiresAt: number; surface?: string }, previous: number): boolean {
    open()
    if ((live(map, id)?.revision ?? 0) !== previous) return false
    if (++writes % SWEEP_EVERY === 0) sweepExpired()
    // Re-inserted, so a map's order is the order of last writes (the oldest first, for eviction).
    map.delete(id)
    map.set(id, { text: JSON.stringify(record), revision: record.revision, expiresAt: record.expiresAt, ...(record.surface !== undefined && { surface: record.surface }) })
    return true
  }
  /** Keep `running` and the held calls current after a write of `record` (`written`: whether it was stored). */
  function indexed(record: CallRecord, written: boolean): boolean {
    if (written) {
      if (record.status === 'running') running.add(record.callId)
      else running.delete(record.callId)
      const until = heldUntil(record)
      if (until === undefined) release(record.callId)
      else hold(record.callId, record.client, until)
    }
    return written
  }
  function hold(callId: string, client: string, until: number): void {
    if (held.get(callId)?.client !== client) release(callId)
    held.set(callId, { client, until })
    heldBy.set(client, (heldBy.get(client) ?? new Set()).add(callId))
  }
  function release(callId: string): void {
    const entry = held.get(callId)
    if (!entry) return
    held.delete(callId)
    const ids = heldBy.get(entry.client)
    ids?.delete(callId)
    if (ids?.size === 0) heldBy.delete(entry.client)
  }
  /** The calls `client` holds now (the expired ones are forgotten as they are met). */
  function heldCount(client: string): number {
    const now = clock.now()
    for (const id of heldBy.get(client) ?? []) if (held.get(id)!.until <= now) release(id)
    return heldBy.get(client)?.size ?? 0
  }
  function admit(callId: string, client: string, until: number, limits: { perClient: number; total: number }): Admission {
    const counted = held.get(callId)
    if (counted && counted.until > clock.now()) {
      counted.until = Math.max(counted.until, until) // a claim renewed while its call runs unrecorded
      return { admitted: true }
    }
    const mine = heldCount(client)
    const share = clientShare(held.size, limits)
    if (mine >= share) return { admitted: false, full: 'client', held: mine, share, all: held.size }
    // Counting every client's calls costs a pass over them all: only when the total looks full.
    if (held.size >= limits.total) {
      const holders: HeldBy[] = []
      for (const other of [...heldBy.keys()]) {
        if (heldCount(other) === 0) continue
        let oldest: string | undefined
        for (const id of heldBy.get(other)!) if (oldest === undefined || held.get(id)!.until < held.get(oldest)!.until) oldest = id
        holders.push({ client: other, held: heldBy.get(other)!.size, oldest: oldest!, until: held.get(oldest!)!.until })
      }
      if (held.size >= limits.total) return { admitted: false, full: 'total', held: held.size, holders, clientHeld: mine }
    }
    hold(callId, client, until)
    return { admitted: true }
  }
  /** Keep the conversation (the most recently written last), and no more than `maxConversations`. */
  function keepConversation(entry: ConversationEntry): void {
    if (++writes % SWEEP_EVERY === 0) sweepExpired()
    conversations.delete(entry.head.id)
    conversations.set(entry.head.id, entry)
    for (const id of conversations.keys()) {
      if (conversations.size <= maxConversations) break
      conversations.delete(id)
    }
  }
  const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T))
  function read<T>(map: Map<string, Entry>, id: string): T | undefined {
    open()
    const entry = live(map, id)
    return entry && (JSON.parse(entry.text) as T)
  }

  /** Made on first asking (`sharedSecret`): it lives as long as this process's memory, as the calls do. */
  let secret: Uint8Array | undefined
  return {
    kind: 'memory',
    create: async (record) => indexed(record, put(calls, record.callId, record, 0)),
    get: async (callId) => read<CallRecord>(calls, callId),
    // An update needs a stored record underneath (revision 1 and up), as in SQL and Redis.
    update: async (record) => indexed(record, record.revision > 1 && put(calls, record.callId, record, record.revision - 1)),
    async lock(callId, owner, ttlMs) {
      open()
      if (++lockings % 500 === 0) sweepLocks()
      const held = locks.get(callId)
      if (held && held.until > clock.now()) return undefined
      const fence = (held?.fence ?? 0) + 1
      locks.set(callId, { owner, fence, until: clock.now() + ttlMs })
      return { callId, owner, fence }
    },
    async renew(lease: CallLease, ttlMs) {
      open()
      const held = locks.get(lease.callId)
      if (!held || held.fence !== lease.fence || held.until <= clock.now()) return false
      held.until = clock.now() + ttlMs
      return true
    },
    async unlock(lease) {
      open()
      const held = locks.get(lease.callId)
      if (held?.fence === lease.fence) held.until = 0
    },
    async lockHolder(callId) {
      open()
      const held = locks.get(callId)
      const left = held ? held.until - clock.now() : 0
      return held && left > 0 ? { owner: held.owner, expiresInMs: left } : undefined
    },
    async stranded(limit, surface) {
      open()
      const ids: string[] = []
      for (const id of running) {
        if (ids.length >= limit) break
        const entry = live(calls, id)
        if (!entry) running.delete(id)
        else if (entry.surface === surface && !((locks.get(id)?.until ?? 0) > clock.now())) ids.push(id)
      }
      return ids
    },
    async admit(call, limits) {
      open()
      return admit(call.callId, call.client, call.until, limits)
    },
    async release(call) {
      open()
      release(call.callId)
    },
    async getConversation(id) {
      open()
      const entry = live(conversations, id)
      return entry && { ...copy(entry.head), state: entry.state === '' ? undefined : JSON.parse(entry.state), log: entry.log.map((e) => JSON.parse(e) as unknown) }
    },
    async getConversationHead(id) {
      open()
      const entry = live(conversations, id)
      return entry && copy(entry.head)
    },
    async appendConversation(a) {
      open()
      const entry = live(conversations, a.id)
      if ((entry?.revision ?? 0) !== a.ifRevision || (entry && entry.head.secretHash !== a.secretHash)) return undefined
      const texts = a.entries.map((e) => JSON.stringify(e))
      const head = appendedHead(entry?.head, { ...a, meta: copy(a.meta) }, texts)
      keepConversation({ head, state: entry?.state ?? '', log: [...(entry?.log ?? []), ...texts], revision: head.revision, expiresAt: head.expiresAt })
      return copy(head)
    },
    async putConversation(r) {
      open()
      if ((live(conversations, r.id)?.revision ?? 0) !== r.revision - 1) return false
      const head = writtenHead({ ...r, meta: copy(r.meta) })
      keepConversation({ head, state: r.state === undefined ? '' : JSON.stringify(r.state), log: [], revision: r.revision, expiresAt: r.expiresAt })
      return true
    },
    async sharedSecret() {
      open()
      secret ??= randomBytes(32)
      return Uint8Array.from(secret)
    },
    async close() {
      closed = true
      calls.clear()
      conversations.clear()
      locks.clear()
      running.clear()
      held.clear()
      heldBy.clear()
    },
  }
}
